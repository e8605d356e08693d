#!/usr/bin/env bash
# Does the shipped pretrained policy help a team clone a few demonstrations on pages written
# elsewhere? The foreign-style corpus (examples/foreign-sites: 6 sites x 3 tasks, kept out of every
# shipped training set) as one environment; for each count N in COUNTS and seed in SEEDS:
#
#   demonstrations  N episodes of each task on the train split, played by the corpus's scripted
#                   people (demos.ts), the seed's own instances;
#   rows            the untrained and the pretrained policy as they are (zero-shot), and BC on the
#                   demonstrations from each (the web environment's BC settings, chosen on the
#                   suite's train split: results/web-demos/); every policy judged greedy on EVAL test
#                   episodes, the same instances for every row of a seed.
#
#   dream rows      with DREAM=1: the demonstrations beside 240 random exploration episodes of the
#                   corpus (train split, seed 100 + seed) as the buffer; the neural experience model
#                   fitted on it (3 epochs) from nothing and from the pretrained model; dream GRPO
#                   (8,000 synthetic transitions, KL 0.2 to the cloned policy) from each cloned policy
#                   in its own model, 0 real transitions (results/priors/run.sh's dream rows).
#
#   COUNTS="2" SEEDS="1 2 3" [DREAM=1] bash results/priors/foreign/run.sh [WORK]
#
# WORK (default artifacts/priors-foreign, git-ignored) receives the buffers and policies; each row's
# JSON line and log go to results/priors/foreign/runs/n<N>/s<seed>/ (the zero-shot rows to s<seed>/).
# Run it again to go on: finished rows are kept. Then `node results/priors/foreign/summarize.mjs`.
set -euo pipefail
cd "$(dirname "$0")/../../.."
WORK=$(realpath -m "${1:-artifacts/priors-foreign}")
RUNS=results/priors/foreign/runs
EVAL=${EVAL:-100}
export DREAMGYM_PRETRAINED_DIR=${PRETRAINED:-public/pretrained/web}
cli() { node --max-semi-space-size=64 --import tsx src/cli/main.ts "$@"; }
web=(--env web --site examples/foreign-sites)
eval=(--final-eval-episodes "$EVAL" --json)
row() { # OUT_DIR NAME command...
  local out=$1 name=$2; shift 2
  [ -s "$out/$name.json" ] && return 0
  mkdir -p "$out"
  "$@" 2> "$out/$name.log" | tail -n 1 > "$out/$name.part.json"
  mv "$out/$name.part.json" "$out/$name.json"
}
for seed in ${SEEDS:-1 2 3}; do
  row "$RUNS/s$seed" untrained cli train "${web[@]}" --mode real --algo ppo --seed "$seed" --iterations 0 --real-budget 1000 "${eval[@]}"
  row "$RUNS/s$seed" zero-shot cli train "${web[@]}" --mode real --algo ppo --seed "$seed" --iterations 0 --real-budget 1000 --init pretrained "${eval[@]}"
  for n in ${COUNTS:-2}; do
    dir="$WORK/n$n/s$seed" out="$RUNS/n$n/s$seed"
    mkdir -p "$dir" "$out"
    if [ ! -s "$dir/demos.jsonl" ]; then
      rm -f "$dir/demos.part.jsonl"
      node --import tsx results/priors/foreign/demos.ts "$n" "$seed" "$dir/demos.part.jsonl" 2> "$out/demos.log" > "$out/demos.json"
      mv "$dir/demos.part.jsonl" "$dir/demos.jsonl"
    fi
    row "$out" bc-scratch cli train "${web[@]}" --mode bc --seed "$seed" --buffer "$dir/demos.jsonl" --out "$dir/bc-scratch.dgp" "${eval[@]}"
    row "$out" bc-pretrained cli train "${web[@]}" --mode bc --seed "$seed" --buffer "$dir/demos.jsonl" --init pretrained --out "$dir/bc-pretrained.dgp" "${eval[@]}"
    [ "${DREAM:-0}" = 1 ] || continue
    if [ ! -s "$WORK/exploration-s$seed.jsonl" ]; then
      cli buffer seed "${web[@]}" --episodes 240 --mix random=1 --seed $((100 + seed)) --out "$WORK/exploration-s$seed.part.jsonl" > /dev/null 2> "$out/exploration.log"
      mv "$WORK/exploration-s$seed.part.jsonl" "$WORK/exploration-s$seed.jsonl"
    fi
    if [ ! -s "$dir/buffer.jsonl" ]; then
      rm -f "$dir/buffer.part.jsonl"
      cli buffer import "$dir/demos.jsonl" --out "$dir/buffer.part.jsonl" > /dev/null
      cli buffer import "$WORK/exploration-s$seed.jsonl" --out "$dir/buffer.part.jsonl" > /dev/null
      mv "$dir/buffer.part.jsonl" "$dir/buffer.jsonl"
    fi
    for from in scratch pretrained; do
      if [ ! -s "$dir/model-$from.dgx" ]; then
        init=(); [ "$from" = pretrained ] && init=(--init pretrained)
        cli experience fit "${web[@]}" --buffer "$dir/buffer.jsonl" "${init[@]}" --epochs 3 --seed "$seed" --out "$dir/model-$from.part.dgx" --json 2> "$out/fit-$from.log" | tail -n 1 > "$out/fit-$from.json"
        mv "$dir/model-$from.part.dgx" "$dir/model-$from.dgx"
      fi
      row "$out" "dream-$from" cli train "${web[@]}" --mode dream --algo grpo --seed "$seed" --synthetic-budget 8000 --buffer "$dir/buffer.jsonl" \
        --experience neural --model "$dir/model-$from.dgx" --init "$dir/bc-$from.dgp" --set klCoef=0.2 "${eval[@]}"
    done
  done
done
