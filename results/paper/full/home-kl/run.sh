#!/usr/bin/env bash
# The KL coefficient of home's dream from BC, chosen on valid-seen (the table reports valid-unseen).
# Usage: bash results/paper/full/home-kl/run.sh [OUT (default results/paper/full/home-kl)] [KLS (default "0.05 0.2 0.5")]
# Reads the paper experiment's home buffer and model (results/paper/full/home/home-buffer.jsonl and
# home-model.dgx, git-ignored: `npm run experiment -- paper --env home --seeds 3 --work
# results/paper/full/home --out results/paper/full --rows bc,dream-grpo-from-bc` makes them). Resumable: a
# finished run's file is kept and not run again. Two runs at a time.
set -euo pipefail
OUT=${1:-results/paper/full/home-kl}
KLS=${2:-0.05 0.2 0.5}
FULL=results/paper/full/home
for f in "$FULL/home-buffer.jsonl" "$FULL/home-model.dgx"; do
  [ -f "$f" ] || { echo "run.sh: $f is missing; make it with the paper experiment (see this script's head)" >&2; exit 2; }
done
mkdir -p "$OUT"
# The budgets and evaluations the table's runs were made with, as its folder records them (not restated here).
read -r SYNTHETIC MAX_STEPS EVAL_EVERY EVAL_EPISODES FINAL_EPISODES < <(node -p '
  const s = require("./results/paper/full/home/regime.json").settings;
  [s.syntheticBudget, s.trainMaxSteps, s.evalEvery, s.evalEpisodes, s.finalEvalEpisodes].join(" ")')
common=(--env home --seed 1 --buffer "$FULL/home-buffer.jsonl" --eval-split valid-seen --final-eval-episodes "$FINAL_EPISODES" --json)
# Seed 1's BC policy, as the table's BC row trains it (the eval split changes only what it is judged on).
if [ ! -f "$OUT/bc-s1.json" ]; then
  npm run -s cli -- train --mode bc "${common[@]}" --out "$OUT/bc-s1.dgp" --history "$OUT/bc-s1.part.json" > /dev/null
  mv "$OUT/bc-s1.part.json" "$OUT/bc-s1.json"
fi
[ -f "$OUT/bc-s1.dgp" ] || { echo "run.sh: $OUT/bc-s1.dgp is missing (its run's file is there): delete $OUT/bc-s1.json and run again" >&2; exit 2; }
dream() {
  local kl=$1 file="$OUT/dream-from-bc-kl$1-s1.json"
  [ -f "$file" ] && return 0
  npm run -s cli -- train --mode dream --algo grpo "${common[@]}" --init "$OUT/bc-s1.dgp" --synthetic-budget "$SYNTHETIC" \
    --experience neural --model "$FULL/home-model.dgx" --train-max-steps "$MAX_STEPS" --eval-every "$EVAL_EVERY" --eval-episodes "$EVAL_EPISODES" \
    --set "klCoef=$kl" --history "${file%.json}.part.json" > /dev/null 2> "${file%.json}.log"
  mv "${file%.json}.part.json" "$file"
}
running=0
for kl in $KLS; do
  dream "$kl" &
  running=$((running + 1))
  if [ "$running" -ge 2 ]; then wait -n; running=$((running - 1)); fi
done
wait
node -e '
const fs = require("fs"), dir = process.argv[1];
const read = (f) => JSON.parse(fs.readFileSync(`${dir}/${f}`, "utf8"));
console.log(`BC seed 1 on valid-seen: ${(100 * read("bc-s1.json").eval.successRate).toFixed(1)}%`);
for (const f of fs.readdirSync(dir).filter((f) => /^dream-from-bc-kl.*-s1\.json$/.test(f)).sort()) {
  const r = read(f);
  console.log(`klCoef ${f.match(/kl(.*)-s1/)[1]}: ${(100 * r.eval.successRate).toFixed(1)}% on valid-seen (${r.eval.episodes} episodes, ${Math.round(r.wallSeconds)} s)`);
}' "$OUT"
