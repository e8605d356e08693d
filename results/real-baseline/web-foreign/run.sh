#!/usr/bin/env bash
# Real PPO on the foreign-style corpus (examples/foreign-sites: 6 sites x 3 tasks, as one environment),
# 20,000 real transitions, judged greedily on 300 held-out instances; issue 57's bar is >= 60 % mean
# success over seeds 1-3. Resumable: each seed saves a checkpoint every minute and goes on from it;
# a seed whose result file exists is skipped.
# Usage: bash results/real-baseline/web-foreign/run.sh [SEEDS (default "1 2 3")]   (about 40 min a seed on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=results/real-baseline/web-foreign
for seed in ${1:-1 2 3}; do
  result="$out/ppo-seed$seed.result.json"
  [ -s "$result" ] && continue
  checkpoint="$out/ppo-seed$seed.dgc"
  resume=()
  [ -f "$checkpoint" ] && resume=(--resume)
  npm run -s cli -- train --env web --site examples/foreign-sites --mode real --algo ppo --real-budget 20000 \
    --seed "$seed" --eval-every 0 --final-eval-episodes 300 --checkpoint "$checkpoint" --checkpoint-every 60 "${resume[@]}" \
    --out "$out/ppo-seed$seed.dgp" --history "$out/ppo-seed$seed.json" --json > "$result.partial"
  mv "$result.partial" "$result"
  rm -f "$checkpoint"
done
