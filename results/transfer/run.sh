#!/usr/bin/env bash
# Transfer from the shop to the web suite's shop-like tasks (issue 27, Deliver 3): policies trained
# on the shop (real GRPO, and dream GRPO: 0 real shop transitions), played zero-shot on the web tasks (`--init` with `--iterations 0`: the run is its
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
# A run's JSON lands under its name only when the run finished: an interrupted one is run again.
run() { local out=$1; shift; [ -f "$out" ] && return 0; cli "$@" > "$out.partial" && mv "$out.partial" "$out"; }
SHOP="$WORK/shop-real-grpo.dgp"
DREAM="$WORK/shop-dream-grpo.dgp"

# The shop policy: real GRPO at the paper table's real budget, seed 1 (its .dgp is not committed).
if [ ! -f "$SHOP" ]; then
  rm -f "$WORK/shop-real-grpo.train.json"
  run "$WORK/shop-real-grpo.train.json" train --env shop --mode real --algo grpo --real-budget "$SHOP_BUDGET" --seed 1 --out "$SHOP" --json
fi
# The dream-trained shop policy: the paper table's dream GRPO row of the full preset, seed 1 (its
# offline buffer, the neural model fitted on it, 80,000 synthetic transitions and no real one), with
# the commands experiments/paper-plan.ts gives that row; buffer, model and .dgp are not committed.
if [ ! -f "$DREAM" ]; then
  rm -f "$WORK/shop-dream-grpo.train.json"
  # Lines of "step<TAB>command…": the buffer's seeding (into a partial file, renamed when whole), the fit, the run.
  node --import tsx -e "import('./experiments/paper-plan.ts').then(({ PRESETS, ROWS, bufferCommands, fitArgs, trainArgs }) => {
    const preset = PRESETS.shop.full, buffer = '$WORK/shop-buffer.jsonl', model = '$WORK/shop-model.dgx';
    const row = ROWS.find((r) => r.id === 'dream-grpo');
    for (const c of bufferCommands('shop', preset, buffer, '$WORK/shop-buffer-partial.jsonl')) console.log(['buffer', ...c].join('\\t'));
    console.log(['fit', ...fitArgs('shop', preset, buffer, model)].join('\\t'));
    console.log(['train', ...trainArgs('shop', preset, row, 1, { buffer, model, history: '$WORK/shop-dream-grpo.history.json' }), '--out', '$DREAM'].join('\\t'));
  })" > "$WORK/shop-dream.commands"
  [ -f "$WORK/shop-buffer.jsonl" ] || rm -f "$WORK/shop-buffer-partial.jsonl"
  while IFS=$'\t' read -r -a line; do
    step=${line[0]}; command=("${line[@]:1}")
    case "$step" in
      buffer) [ -f "$WORK/shop-buffer.jsonl" ] || cli "${command[@]}" > /dev/null < /dev/null ;;
      fit) [ -f "$WORK/shop-buffer.jsonl" ] || mv "$WORK/shop-buffer-partial.jsonl" "$WORK/shop-buffer.jsonl"
           [ -f "$WORK/shop-model.dgx" ] || cli "${command[@]}" > /dev/null < /dev/null ;;
      train) run "$WORK/shop-dream-grpo.train.json" "${command[@]}" < /dev/null ;;
    esac
  done < "$WORK/shop-dream.commands"
  rm -f "$WORK/shop-dream.commands"
fi
# Zero-shot, task by task, on the whole suite's 900 test instances (beside results/web/untrained-seed1.by-type.json).
[ -f "$WORK/zero-shot.by-type.json" ] || { npm run -s experiment -- by-type --env web --policy "$SHOP" > "$WORK/zero-shot.by-type.json.partial" && mv "$WORK/zero-shot.by-type.json.partial" "$WORK/zero-shot.by-type.json"; }
[ -f "$WORK/zero-shot-dream.by-type.json" ] || { npm run -s experiment -- by-type --env web --policy "$DREAM" > "$WORK/zero-shot-dream.by-type.json.partial" && mv "$WORK/zero-shot-dream.by-type.json.partial" "$WORK/zero-shot-dream.by-type.json"; }

WEB=(--env web --tasks "$TASKS" --mode real --algo grpo --real-budget "$REAL")
for S in $SEEDS; do
  # 0 transitions: each seed's untrained network, and the shop policy (zero-shot).
  run "$WORK/untrained-s$S.json" train "${WEB[@]}" --iterations 0 --seed "$S" --json
  run "$WORK/zero-shot-s$S.json" train "${WEB[@]}" --iterations 0 --seed "$S" --init "$SHOP" --json
  # REAL real web transitions, from scratch and from the shop policy.
  run "$WORK/scratch-s$S.json" train "${WEB[@]}" --seed "$S" --json
  run "$WORK/from-shop-s$S.json" train "${WEB[@]}" --seed "$S" --init "$SHOP" --json
  run "$WORK/zero-shot-dream-s$S.json" train "${WEB[@]}" --iterations 0 --seed "$S" --init "$DREAM" --json
  run "$WORK/from-shop-dream-s$S.json" train "${WEB[@]}" --seed "$S" --init "$DREAM" --json
done
node results/transfer/summarise.mjs "$WORK" "$SEEDS"
