#!/usr/bin/env bash
# The development checks behind results/web-demos/declared/README.md, all on the train split (the
# test split is the table's): seed 1, the demonstrations regime's buffer and model, and seed 1's BC
# policy, as `npm run experiment -- paper --env web --regime demos --quick --work DIR` leaves them in DIR.
#
#   bash results/web-demos/declared/dev-checks.sh DIR OUT     (about 20 minutes on 2 cores)
#
# OUT receives, per check, the command's JSON:
#   fidelity-{oracle,random}.json   dream-scripted on 120 train-split tasks (wins inside the model)
#   from-bc-kl{0,0.05,0.2,0.5}.json dream GRPO from BC at four KL coefficients (final eval: 600
#                                   train-split episodes); by-type-from-bc-kl0.2.json the chosen one's per-task wins
#   scratch.json, by-type-scratch.json  dream GRPO from scratch, the same evaluation
#   by-type-bc.json                 the BC policy on the same 600 episodes
set -euo pipefail
cd "$(dirname "$0")/../../.."
DIR=$(realpath "${1:?usage: dev-checks.sh DIR OUT}")
OUT=$(realpath -m "${2:?usage: dev-checks.sh DIR OUT}")
mkdir -p "$OUT"
B="$DIR/web-buffer.jsonl"; M="$DIR/web-model.dgx"; BC="$DIR/runs/bc-s1.dgp"
for agent in oracle random; do
  npm run -s experiment -- dream-scripted --env web --web-tasks @app --agent "$agent" --model "$M" --buffer "$B" --tasks 120 --seed 2 --split train > "$OUT/fidelity-$agent.json"
done
TRAIN=(train --env web --tasks @app --mode dream --algo grpo --seed 1 --synthetic-budget 8000 --buffer "$B" --experience neural --model "$M" --eval-split train --final-eval-episodes 600 --json)
by_type() { npm run -s experiment -- by-type --env web --web-tasks @app --policy "$1" --split train --episodes 600 --seed 1 > "$2"; }
for kl in 0 0.05 0.2 0.5; do
  npm run -s cli -- "${TRAIN[@]}" --init "$BC" --set "klCoef=$kl" --out "$OUT/from-bc-kl$kl.dgp" | tail -n 1 > "$OUT/from-bc-kl$kl.json"
done
by_type "$OUT/from-bc-kl0.2.dgp" "$OUT/by-type-from-bc-kl0.2.json"
npm run -s cli -- "${TRAIN[@]}" --out "$OUT/scratch.dgp" | tail -n 1 > "$OUT/scratch.json"
by_type "$OUT/scratch.dgp" "$OUT/by-type-scratch.json"
by_type "$BC" "$OUT/by-type-bc.json"
node -e '
const fs = require("fs");
const out = process.argv[1];
const read = (f) => JSON.parse(fs.readFileSync(`${out}/${f}`, "utf8"));
const wins = (f) => Object.fromEntries(Object.entries(read(f).byType).map(([k, v]) => [k.replace("app: ", ""), v.wins]));
const summary = { fidelity: {}, train600: {} };
for (const agent of ["oracle", "random"]) { const r = read(`fidelity-${agent}.json`); summary.fidelity[agent] = { successRate: r.successRate, meanScore: r.meanScore }; }
for (const kl of ["0", "0.05", "0.2", "0.5"]) summary.train600[`from-bc-kl${kl}`] = { successRate: read(`from-bc-kl${kl}.json`).eval.successRate };
summary.train600["from-bc-kl0.2"].wins = wins("by-type-from-bc-kl0.2.json");
summary.train600.scratch = { successRate: read("scratch.json").eval.successRate, wins: wins("by-type-scratch.json") };
summary.train600.bc = { successRate: read("by-type-bc.json").successRate, wins: wins("by-type-bc.json") };
fs.writeFileSync(`${out}/summary.json`, JSON.stringify(summary, null, 2) + "\n");
console.log(JSON.stringify(summary));
' "$OUT"
