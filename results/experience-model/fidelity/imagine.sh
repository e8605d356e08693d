#!/usr/bin/env bash
# Does a dream that imagines let a policy find things? (issue 24). After results/experience-model/fidelity/run.sh WORK
# (its home buffer, fit and starting policy), for the home model:
# - curriculum-variance with --imagine likeliest and sample: the starting policy's success inside the
#   model against the real env (40 train tasks × 8), and how well in-model variance picks the tasks
#   whose real outcome varies;
# - dream GRPO, 80,000 synthetic transitions, seed 1, --imagine sample (greedy on 250 valid-unseen).
# About 45 min on 2 cores, most of it the dream. Resumable: files already in results/experience-model/fidelity/imagine are kept.
# Usage: bash results/experience-model/fidelity/imagine.sh WORK
set -euo pipefail
cd "$(dirname "$0")/../../.."
work="${1:?usage: imagine.sh WORK}"
out=results/experience-model/fidelity/imagine
mkdir -p "$out"
cli() { npm run -s cli -- "$@"; }
for mode in likeliest sample; do
  [ -f "$out/home-curriculum-variance-$mode.json" ] || npm run -s experiment -- curriculum-variance --env home --policy "$work/home-start.dgp" --model "$work/home.dgx" \
    --buffer "$work/home.jsonl" --tasks 40 --group 8 --seed 1 --train-max-steps 20 --imagine "$mode" > "$out/home-curriculum-variance-$mode.json"
done
[ -f "$out/home-on-policy.json" ] || cli experience eval --env home --experience neural --model "$work/home.dgx" --buffer "$work/home.jsonl" --heldout 5000 --seed 1 --policy "$work/home-start.dgp" --json > "$out/home-on-policy.json"
[ -f "$out/home-dream-grpo-sample.json" ] || cli train --env home --mode dream --algo grpo --seed 1 --synthetic-budget 80000 --buffer "$work/home.jsonl" \
  --experience neural --model "$work/home.dgx" --train-max-steps 20 --eval-every 20 --eval-episodes 100 --final-eval-episodes 250 --imagine sample \
  --history "$out/home-dream-grpo-sample.history.json" --json > "$out/home-dream-grpo-sample.json"
