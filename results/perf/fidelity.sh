#!/usr/bin/env bash
# The neural model's held-out fidelity before and after a speed change, on a fixed buffer and seed:
#   bash results/perf/fidelity.sh <shop|home> WORK    (run it at each commit; the buffer is kept in WORK)
# shop: 700 seeded episodes, home: 400 (mix oracle 0.4 / noisy 0.3 / random 0.3, seed 1); fit on the
# first 5,000 real transitions (default settings, seed 1), then `experience eval` on 500 held-out ones.
set -euo pipefail
env="${1:?usage: fidelity.sh <shop|home> WORK}"; work="${2:?usage: fidelity.sh <shop|home> WORK}"
cd "$(dirname "$0")/../.."
mkdir -p "$work"
cli() { npm run -s cli -- "$@"; }
episodes=$([ "$env" = shop ] && echo 700 || echo 400)
[ -f "$work/$env.jsonl" ] || cli buffer seed --env "$env" --episodes "$episodes" --seed 1 --mix oracle=0.4,noisy=0.3,random=0.3 --out "$work/$env.jsonl" --json > /dev/null
started=$(date +%s.%N)
cli experience fit --env "$env" --buffer "$work/$env.jsonl" --out "$work/$env.dgx" --max-transitions 5000 --seed 1 --json > "$work/$env-fit.json" 2> "$work/$env-fit.log"
echo "fit seconds: $(echo "$(date +%s.%N) - $started" | bc)" >&2
cli experience eval --env "$env" --experience neural --model "$work/$env.dgx" --buffer "$work/$env.jsonl" --heldout 500 --seed 1 --json 2> /dev/null | tail -1 \
  | node -e 'const o=JSON.parse(require("fs").readFileSync(0,"utf8"));console.log(JSON.stringify({nextStateF1:o.nextStateF1,actionSetF1:o.actionSetF1,rewardAccuracy:o.rewardAccuracy,doneAccuracy:o.doneAccuracy,success:o.success,done:o.done,terminalRewardMae:o.terminalRewardMae}))'
