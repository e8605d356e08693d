#!/usr/bin/env bash
# Free-running fidelity of the web experience model before and after numbered pages were carried
# over as the real page numbers and spells them (f64a99c): the oracle and the random agent play 120
# train-split app-like tasks on the real pages and inside the model (`dream-scripted`), with the
# model fitted on the demonstrations regime's buffer by the code before (a266933) and by this checkout.
#
#   bash results/web-demos/numbered/fidelity.sh WORK     (about 5 minutes on 2 cores)
#
# WORK keeps the buffer, both models and the full reports (every step's first divergence); the
# summaries go to results/web-demos/numbered/fidelity.json. The code before is checked out as a git
# worktree in WORK/before with this checkout's experiments/ (which add --web-tasks and the mean score).
set -euo pipefail
cd "$(dirname "$0")/../../.."
WORK=$(realpath -m "${1:?usage: bash results/web-demos/numbered/fidelity.sh WORK}")
BEFORE=a266933
mkdir -p "$WORK"
TASKS=(--env web --tasks @app)
BUFFER="$WORK/web-buffer.jsonl"

# The demonstrations regime's buffer (results/web-demos/first-table/web-demos-paper.md, Setup): 20 oracle demonstrations
# per task and 240 random episodes.
if [ ! -f "$BUFFER" ]; then
  rm -f "$WORK/demos.jsonl" "$WORK/exploration.jsonl" "$BUFFER.partial.jsonl"
  npm run -s cli -- buffer seed "${TASKS[@]}" --episodes 240 --mix oracle=1 --per-task 20 --seed 1 --out "$WORK/demos.jsonl"
  npm run -s cli -- buffer seed "${TASKS[@]}" --episodes 240 --mix random=1 --seed 2 --out "$WORK/exploration.jsonl"
  npm run -s cli -- buffer import "$WORK/demos.jsonl" --out "$BUFFER.partial.jsonl"
  npm run -s cli -- buffer import "$WORK/exploration.jsonl" --out "$BUFFER.partial.jsonl"
  mv "$BUFFER.partial.jsonl" "$BUFFER"
fi

if [ ! -d "$WORK/before" ]; then
  git worktree add --detach "$WORK/before" "$BEFORE"
  ln -s "$PWD/node_modules" "$WORK/before/node_modules"
  cp -r experiments/. "$WORK/before/experiments/"
fi

measure() { # side, directory to run in
  local side=$1 dir=$2
  (cd "$dir" && npm run -s cli -- experience fit "${TASKS[@]}" --buffer "$BUFFER" --out "$WORK/model-$side.dgx" --epochs 3 --seed 1)
  for agent in oracle random; do
    (cd "$dir" && npm run -s experiment -- dream-scripted --env web --web-tasks @app --agent "$agent" --model "$WORK/model-$side.dgx" --buffer "$BUFFER" --tasks 120 --seed 2 --split train) > "$WORK/$side-$agent.json"
  done
}
measure before "$WORK/before"
measure after "$PWD"

node -e '
const fs = require("fs");
const [work, out] = process.argv.slice(1);
const summary = {};
for (const side of ["before", "after"]) for (const agent of ["oracle", "random"]) {
  const r = JSON.parse(fs.readFileSync(`${work}/${side}-${agent}.json`, "utf8"));
  (summary[side] ??= {})[agent] = { tasks: r.tasks, successRate: r.successRate, meanScore: r.meanScore, firstDivergence: r.firstDivergence };
}
fs.writeFileSync(out, JSON.stringify(summary, null, 2) + "\n");
console.log(JSON.stringify(summary));
' "$WORK" results/web-demos/numbered/fidelity.json
