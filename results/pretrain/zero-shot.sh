#!/usr/bin/env bash
# Zero-shot figures of a pretrained web policy against the untrained policy, greedy, on sites the
# pretraining never played: the held-out generated families (cart, messaging) and the foreign-style
# corpus (examples/foreign-sites). Usage: bash results/pretrain/zero-shot.sh [PRETRAINED_DIR] [EPISODES] [SEED]
# Writes OUT/<site>-{untrained,pretrained}.json (OUT: this folder's run-<seed>/ unless $OUT names another),
# one rollout summary each; $SITES chooses the sites (default both); rerun to go on (finished files are kept).
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR="${1:-artifacts/pretrained-web}"
EPISODES="${2:-100}"
SEED="${3:-1}"
OUT="${OUT:-results/pretrain/run-$SEED}"
# The untrained policy is a working file, not a result: it stays out of the repository.
UNTRAINED="artifacts/untrained-web-seed$SEED.dgp"
mkdir -p "$OUT" artifacts
cli() { node --max-semi-space-size=64 --import tsx src/cli/main.ts "$@"; }
# The untrained policy: a fresh policy of the pretrained one's architecture, saved before any update,
# then played by the same rollout as the pretrained one, on the same instances.
[ -s "$UNTRAINED" ] || cli train --env web --site @generated --mode real --algo ppo --real-budget 1 --iterations 0 \
  --seed "$SEED" --final-eval-episodes 1 --out "$UNTRAINED" --json > /dev/null
for site in ${SITES:-@generated-held-out examples/foreign-sites}; do
  name="$(basename "$site" | tr -d @)"
  for policy in untrained pretrained; do
    file="$UNTRAINED"; [ "$policy" = pretrained ] && file="$DIR/policy.dgp"
    [ -s "$OUT/$name-$policy.json" ] || cli rollout --env web --site "$site" --policy "$file" --split test \
      --episodes "$EPISODES" --seed "$SEED" --json | tail -1 > "$OUT/$name-$policy.json"
  done
done
for f in "$OUT"/*.json; do echo "$f: $(node -e "const r=JSON.parse(require('fs').readFileSync('$f','utf8')); console.log(((r.eval?.successRate ?? r.successRate)*100).toFixed(1)+'% of '+(r.eval?.episodes ?? r.episodes))")"; done
