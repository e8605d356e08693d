#!/usr/bin/env bash
# The offline baselines' settings, chosen on validation data (never on the split the paper table
# reports): BC and DPO trained on the paper's full-preset buffer of each environment, evaluated
# every second epoch (web: every fourth, its evaluations being pages in a browser) on
#   shop: 200 of its train tasks that the buffer holds no episode of (--eval-split train --eval-unseen);
#   home: its 250 valid-seen tasks (--eval-split valid-seen; the table reports valid-unseen);
#   web: the demonstrations regime's buffer (its app-like tasks, --tasks @app), evaluated on 180
#        train-split instances the buffer holds no episode of (the table reports the test split).
# Usage: bash results/offline/sweep.sh WORK [shop|home|web ...]   (resumable: a finished run is kept in
# results/offline/runs/ and not run again; then `node results/offline/choose.mjs` picks the settings)
set -euo pipefail
work="${1:?usage: sweep.sh WORK [shop|home|web ...]}"; shift
if [ $# -eq 0 ]; then envs=(shop home); else envs=("$@"); fi
cd "$(dirname "$0")/../.."
mkdir -p "$work" results/offline/runs
cli() { npm run -s cli -- "$@"; }
for env in "${envs[@]}"; do
  case "$env" in
    shop) validation=(--eval-split train --eval-unseen --eval-episodes 200 --final-eval-episodes 200 --eval-every 2); regime=standard ;;
    home) validation=(--eval-split valid-seen --eval-every 2); regime=standard ;;
    web) validation=(--tasks @app --eval-split train --eval-unseen --eval-episodes 180 --final-eval-episodes 180 --eval-every 4); regime=demos ;;
    *) echo "sweep.sh: unknown env \"$env\" (shop, home or web)" >&2; exit 2 ;;
  esac
  # The paper experiment's full-preset buffer of its regime, made by the commands its plan gives
  # (experiments/paper-plan.ts: web's demonstrations and exploration, imported into one), seed 1;
  # built under another name and renamed when whole, so an interrupted setup is redone.
  if [ ! -f "$work/$env.jsonl" ]; then
    rm -f "$work/$env-partial"*.jsonl
    node --import tsx -e "import('./experiments/paper-plan.ts').then(({ regimePresets, bufferCommands }) => { for (const c of bufferCommands('$env', regimePresets('$regime')['$env'].full, '$work/$env-partial.jsonl')) console.log(c.join('\\t')); })" |
      while IFS=$'\t' read -r -a command; do cli "${command[@]}" --json > /dev/null < /dev/null; done
    mv "$work/$env-partial.jsonl" "$work/$env.jsonl"
  fi
  for mode in bc dpo; do
    # BC_RATES / DPO_RATES narrow the grid (web ran BC 1e-4 3e-4 1e-3 1e-2 and DPO 1e-5 1e-4 3e-4: its evaluations are pages).
    if [ "$mode" = bc ]; then rates=${BC_RATES:-"1e-4 3e-4 1e-3 3e-3 1e-2"}; else rates=${DPO_RATES:-"1e-5 3e-5 1e-4 3e-4"}; fi
    for lr in $rates; do
      out="results/offline/runs/$env-$mode-lr$lr"
      [ -f "$out.json" ] && continue
      cli train --env "$env" --mode "$mode" --buffer "$work/$env.jsonl" --lr "$lr" --epochs 20 "${validation[@]}" \
        --seed 1 --history "$out.partial.json" --json > /dev/null 2>> "$work/sweep.log"
      mv "$out.partial.json" "$out.json"
    done
  done
done
