#!/usr/bin/env bash
# Does the dream now teach on home? Dream GRPO for 80,000 synthetic transitions (seed 1) against the
# neural model fitted with its reasoning and against the same fit without it (run.sh's WORK files),
# and the untrained policy on the same 250 valid-unseen tasks (issue 24). About an hour on 2 cores:
# the two dreams took 2,442 s and 1,332 s (wallSeconds in results/experience-model/fidelity/dream/), sharing the cores.
# Usage: bash results/experience-model/fidelity/dream.sh WORK [TAG]   (after results/experience-model/fidelity/run.sh WORK; TAG names the
# output files, home-dream-grpo-TAG.json, so a later model's dream does not overwrite an earlier one's)
set -euo pipefail
cd "$(dirname "$0")/../../.."
work="${1:?usage: dream.sh WORK [TAG]}"
tag="${2:+-$2}"
out=results/experience-model/fidelity/dream
mkdir -p "$out"
cli() { npm run -s cli -- "$@"; }
dream() { # model file, output name
  [ -f "$out/$2.json" ] || cli train --env home --mode dream --algo grpo --seed 1 --synthetic-budget 80000 --buffer "$work/home.jsonl" \
    --experience neural --model "$1" --train-max-steps 20 --eval-every 20 --eval-episodes 100 --final-eval-episodes 250 \
    --history "$out/$2.history.json" --json > "$out/$2.json"
}
dream "$work/home.dgx" "home-dream-grpo$tag"
# The untrained policy: a real budget too small for one episode, so only the final evaluation runs.
[ -f "$out/home-untrained.json" ] || cli train --env home --mode real --algo grpo --real-budget 1 --seed 1 --final-eval-episodes 250 --json > "$out/home-untrained.json"
[ -n "$tag" ] || dream "$work/home-nr.dgx" home-dream-grpo-model-without-reasoning
