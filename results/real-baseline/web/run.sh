#!/usr/bin/env bash
# Real-mode PPO and GRPO on the bundled web suite (issue 25): 3 seeds each, every figure greedy on
# all 900 test instances (30 tasks x 30 seeds), plus the untrained policy of each seed, and the
# success per task group (single widgets, app-like) from `experiment by-type`. A run whose files
# exist is skipped, so the script resumes after an interruption (a file is written whole or not at all).
# Usage: [OUT=DIR] bash results/real-baseline/web/run.sh [BUDGET (default 30000)] [SEEDS (default "1 2 3")] [ALGOS (default "grpo ppo")]
# OUT (default results/real-baseline/web) is where the figures go; WORK (default /tmp/dreamgym-web-runs) the policies.
set -euo pipefail
cd "$(dirname "$0")/../../.."
BUDGET="${1:-30000}"
SEEDS="${2:-1 2 3}"
ALGOS="${3:-grpo ppo}"
OUT="${OUT:-results/real-baseline/web}"
mkdir -p "$OUT"
WORK="${WORK:-/tmp/dreamgym-web-runs}"
mkdir -p "$WORK"
for seed in $SEEDS; do
  if [ ! -f "$OUT/untrained-seed$seed.by-type.json" ]; then
    npm run -s experiment -- by-type --env web --policy untrained --seed "$seed" > "$OUT/untrained-seed$seed.by-type.json.part"
    mv "$OUT/untrained-seed$seed.by-type.json.part" "$OUT/untrained-seed$seed.by-type.json"
  fi
  for algo in $ALGOS; do
    run="$algo-seed$seed"
    policy="$WORK/$(basename "$OUT")-$run.dgp"
    if [ ! -f "$OUT/$run.by-type.json" ]; then
      npm run -s cli -- train --env web --mode real --algo "$algo" --real-budget "$BUDGET" --seed "$seed" \
        --final-eval-episodes 900 \
        --out "$policy" --history "$OUT/$run.history.json" --json > "$OUT/$run.train.json"
      npm run -s experiment -- by-type --env web --policy "$policy" > "$OUT/$run.by-type.json.part"
      mv "$OUT/$run.by-type.json.part" "$OUT/$run.by-type.json"
    fi
  done
done
