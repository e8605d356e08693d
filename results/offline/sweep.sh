#!/usr/bin/env bash
# The offline baselines' settings, chosen on validation data (never on the split the paper table
# reports): BC and DPO trained on the paper's full-preset buffer of each environment, evaluated
# every second epoch on
#   shop: 200 of its train tasks that the buffer holds no episode of (--eval-split train --eval-unseen);
#   home: its 250 valid-seen tasks (--eval-split valid-seen; the table reports valid-unseen).
# Usage: bash results/offline/sweep.sh WORK [shop|home ...]   (resumable: a finished run is kept in
# results/offline/runs/ and not run again; then `node results/offline/choose.mjs` picks the settings)
set -euo pipefail
work="${1:?usage: sweep.sh WORK [shop|home ...]}"; shift
if [ $# -eq 0 ]; then envs=(shop home); else envs=("$@"); fi
cd "$(dirname "$0")/../.."
mkdir -p "$work" results/offline/runs
cli() { npm run -s cli -- "$@"; }
for env in "${envs[@]}"; do
  if [ "$env" = shop ]; then validation=(--eval-split train --eval-unseen --eval-episodes 200 --final-eval-episodes 200)
  else validation=(--eval-split valid-seen); fi
  # The paper experiment's full-preset buffer, as its plan gives it (experiments/paper-plan.ts), seed 1.
  read -r episodes mix < <(node --import tsx -e "import('./experiments/paper-plan.ts').then(({ PRESETS }) => console.log(PRESETS['$env'].full.bufferEpisodes, PRESETS['$env'].full.bufferMix))")
  [ -f "$work/$env.jsonl" ] || cli buffer seed --env "$env" --episodes "$episodes" --mix "$mix" --seed 1 --out "$work/$env.jsonl" --json > /dev/null
  for mode in bc dpo; do
    rates=$([ "$mode" = bc ] && echo "1e-4 3e-4 1e-3 3e-3 1e-2" || echo "1e-5 3e-5 1e-4 3e-4")
    for lr in $rates; do
      out="results/offline/runs/$env-$mode-lr$lr"
      [ -f "$out.json" ] && continue
      cli train --env "$env" --mode "$mode" --buffer "$work/$env.jsonl" --lr "$lr" --epochs 20 --eval-every 2 "${validation[@]}" \
        --seed 1 --history "$out.partial.json" --json > /dev/null 2>> "$work/sweep.log"
      mv "$out.partial.json" "$out.json"
    done
  done
done
