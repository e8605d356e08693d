#!/usr/bin/env bash
# Transfer from the shop to the web suite's shop-like tasks (issue 27, Deliver 3): a policy trained
# on the shop, played zero-shot on the web tasks (`--init` with `--iterations 0`: the run is its
# starting policy, evaluated), and fine-tuned there on a small real budget, against the same budget
# from each seed's own untrained network. Resumable: a file that exists is not made again.
#
#   bash results/transfer/run.sh [WORK (default results/transfer)] [SEEDS (default "1 2 3")]
#   env: TASKS (default shop-buy,search-list,browse-pages), REAL (web real budget, default 1000),
#        SHOP_BUDGET (the shop policy's real budget, default 80000)
set -euo pipefail
WORK=${1:-results/transfer}
SEEDS=${2:-"1 2 3"}
TASKS=${TASKS:-shop-buy,search-list,browse-pages}
REAL=${REAL:-1000}
SHOP_BUDGET=${SHOP_BUDGET:-80000}
mkdir -p "$WORK"
cli() { npm run -s cli -- "$@"; }
SHOP="$WORK/shop-real-grpo.dgp"

# The shop policy: real GRPO at the paper table's real budget, seed 1 (its .dgp is not committed).
if [ ! -f "$SHOP" ]; then
  cli train --env shop --mode real --algo grpo --real-budget "$SHOP_BUDGET" --seed 1 --out "$SHOP" --json > "$WORK/shop-real-grpo.train.json"
fi

WEB=(--env web --tasks "$TASKS" --mode real --algo grpo --real-budget "$REAL")
for S in $SEEDS; do
  # 0 transitions: each seed's untrained network, and the shop policy (zero-shot).
  [ -f "$WORK/untrained-s$S.json" ] || cli train "${WEB[@]}" --iterations 0 --seed "$S" --json > "$WORK/untrained-s$S.json"
  [ -f "$WORK/zero-shot-s$S.json" ] || cli train "${WEB[@]}" --iterations 0 --seed "$S" --init "$SHOP" --json > "$WORK/zero-shot-s$S.json"
  # REAL real web transitions, from scratch and from the shop policy.
  [ -f "$WORK/scratch-s$S.json" ] || cli train "${WEB[@]}" --seed "$S" --json > "$WORK/scratch-s$S.json"
  [ -f "$WORK/from-shop-s$S.json" ] || cli train "${WEB[@]}" --seed "$S" --init "$SHOP" --json > "$WORK/from-shop-s$S.json"
done
node results/transfer/summarise.mjs "$WORK" "$SEEDS"
