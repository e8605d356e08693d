#!/usr/bin/env bash
# The guided run's epochs, chosen on the shop's TRAIN split (never the test split the guided run
# reports): the guided run's buffer (seed 1, 300 episodes) and a 3-epoch model, then the dream and
# the real-mode run with 2 and with 4 GRPO passes over each iteration's samples; then a 2-epoch model
# and the dream with 2 passes. Seeds 1-3, each judged greedily on 300 train-split episodes. Prints
# one line per run. About 15 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
npm run -s cli -- buffer seed --env shop --seed 1 --episodes 300 --mix oracle=0.4,noisy=0.3,random=0.3 --out "$work/shop.jsonl" >/dev/null 2>&1
npm run -s cli -- experience fit --env shop --seed 1 --buffer "$work/shop.jsonl" --out "$work/shop.dgx" --epochs 3 >/dev/null 2>&1
common=(--env shop --algo grpo --eval-every 0 --final-eval-episodes 300 --eval-split train --json)
for seed in 1 2 3; do
  for epochs in 2 4; do
    dream=$(npm run -s cli -- train "${common[@]}" --seed "$seed" --set "epochs=$epochs" --mode dream --experience neural --model "$work/shop.dgx" --buffer "$work/shop.jsonl" --synthetic-budget 8000 --curriculum on 2>/dev/null | tail -1)
    real=$(npm run -s cli -- train "${common[@]}" --seed "$seed" --set "epochs=$epochs" --mode real --real-budget 8000 --curriculum off 2>/dev/null | tail -1)
    for run in dream real; do
      node -e "const r = JSON.parse(process.argv[1]); console.log('$run epochs=$epochs seed=$seed', r.eval.split, r.eval.successRate.toFixed(4), r.wallSeconds.toFixed(1) + ' s')" "${!run}"
    done
  done
done
npm run -s cli -- experience fit --env shop --seed 1 --buffer "$work/shop.jsonl" --out "$work/shop-2.dgx" --epochs 2 >/dev/null 2>&1
for seed in 1 2 3; do
  dream=$(npm run -s cli -- train "${common[@]}" --seed "$seed" --set epochs=2 --mode dream --experience neural --model "$work/shop-2.dgx" --buffer "$work/shop.jsonl" --synthetic-budget 8000 --curriculum on 2>/dev/null | tail -1)
  node -e "const r = JSON.parse(process.argv[1]); console.log('dream fit-epochs=2 epochs=2 seed=$seed', r.eval.split, r.eval.successRate.toFixed(4), r.wallSeconds.toFixed(1) + ' s')" "$dream"
done
rm -rf "$work"
