#!/usr/bin/env bash
# What the dream paid inside the model, run by run, before (../numbered) and after (here) the suite
# declared its 0/1 end reward: read from the committed dream GRPO run files, nothing rerun.
#
#   bash results/web-demos/declared/dream-stats.sh      (prints one JSON line per run)
#
# lastTenReturn: mean in-model return over the run's last ten dream iterations; episodes: synthetic
# episodes in its ~8,000 transitions; zeroed / rounded: leaked rewards before the end paid 0, and end
# rewards rounded to 0 or 1 (src/experience/synthetic-env.ts counters); test: greedy test success.
set -euo pipefail
cd "$(dirname "$0")/.."
node -e '
const fs = require("fs");
for (const dir of ["numbered", "declared"]) for (const row of ["dream-grpo", "s2r-grpo", "dream-grpo-from-bc"]) for (const seed of [1, 2, 3]) {
  const run = JSON.parse(fs.readFileSync(`${dir}/runs/${row}-s${seed}.json`, "utf8"));
  const dream = run.history.filter((h) => h.phase === "dream").slice(-10);
  const synthetic = run.dream.synthetic;
  console.log(JSON.stringify({ dir, row, seed, lastTenReturn: Number((dream.reduce((a, h) => a + h.meanReturn, 0) / dream.length).toFixed(3)),
    episodes: synthetic.episodes, zeroed: synthetic.rewardsBeforeEnd, rounded: synthetic.rewardsRounded, test: run.eval.successRate }));
}'
