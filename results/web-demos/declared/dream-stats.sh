#!/usr/bin/env bash
# What the dream paid inside the model, run by run, before (../numbered) and after (here) the suite
# declared its 0/1 end reward: read from the committed dream GRPO run files, nothing rerun.
#
#   bash results/web-demos/declared/dream-stats.sh [FOLDER ...]   (one JSON line per run)
#
# FOLDERs are folders of results/web-demos (default: numbered declared; expected is the table with
# the end reward paid as it is). Rows whose run file a folder lacks are skipped.
# lastTenReturn, lastTenSuccess: mean in-model return and success (a paid reward of 1) over the
# run's last ten dream iterations; episodes: synthetic
# episodes in its ~8,000 transitions; zeroed / rounded: leaked rewards before the end paid 0, and end
# rewards rounded to 0 or 1 (src/experience/synthetic-env.ts counters); test: greedy test success.
set -euo pipefail
cd "$(dirname "$0")/.."
node -e '
const fs = require("fs");
const dirs = process.argv.length > 1 ? process.argv.slice(1) : ["numbered", "declared"];
for (const dir of dirs) for (const row of ["dream-grpo", "s2r-grpo", "dream-grpo-from-bc", "s2r-grpo-from-bc"]) for (const seed of [1, 2, 3]) {
  if (!fs.existsSync(`${dir}/runs/${row}-s${seed}.json`)) continue;
  const run = JSON.parse(fs.readFileSync(`${dir}/runs/${row}-s${seed}.json`, "utf8"));
  const dream = run.history.filter((h) => h.phase === "dream").slice(-10);
  const synthetic = run.dream.synthetic;
  console.log(JSON.stringify({ dir, row, seed, lastTenReturn: Number((dream.reduce((a, h) => a + h.meanReturn, 0) / dream.length).toFixed(3)),
    lastTenSuccess: Number((dream.reduce((a, h) => a + h.successRate, 0) / dream.length).toFixed(3)),
    episodes: synthetic.episodes, zeroed: synthetic.rewardsBeforeEnd, rounded: synthetic.rewardsRounded, test: run.eval.successRate }));
}' "$@"
