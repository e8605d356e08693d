#!/usr/bin/env bash
# Transfer from the shop to the web suite's shop-like tasks (issue 27, Deliver 3): policies trained
# on the shop (real GRPO, and dream GRPO: 0 real shop transitions), played zero-shot on the web tasks (`--init` with `--iterations 0`: the run is its
# starting policy, evaluated), and fine-tuned there on a small real budget, against the same budget
# from each seed's own untrained network. Resumable: a file that exists is not made again. Two
# steps run at a time: the two shop policies, then their zero-shot readings, then per seed the
# real-trained policy's runs beside the dream-trained one's.
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
shop_real() {
  [ -f "$SHOP" ] && return 0
  rm -f "$WORK/shop-real-grpo.train.json"
  run "$WORK/shop-real-grpo.train.json" train --env shop --mode real --algo grpo --real-budget "$SHOP_BUDGET" --seed 1 --out "$SHOP" --json < /dev/null
}
# The dream-trained shop policy: the paper table's dream GRPO row of the full preset, seed 1 (its
# offline buffer, the neural model fitted on it, 80,000 synthetic transitions and no real one), with
# the commands experiments/paper-plan.ts gives that row; buffer, model and .dgp are not committed.
shop_dream() {
  [ -f "$DREAM" ] && return 0
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
}
# Zero-shot, task by task, on the whole suite's 900 test instances (beside results/real-baseline/web/untrained-seed1.by-type.json).
by_type() { # NAME POLICY
  [ -f "$WORK/$1.by-type.json" ] || { npm run -s experiment -- by-type --env web --policy "$2" > "$WORK/$1.by-type.json.partial" < /dev/null && mv "$WORK/$1.by-type.json.partial" "$WORK/$1.by-type.json"; }
}

WEB=(--env web --tasks "$TASKS" --mode real --algo grpo --real-budget "$REAL")
from_real() { # SEED: each seed's untrained network and the shop policy, at 0 transitions and after REAL real web ones
  local S=$1
  run "$WORK/untrained-s$S.json" train "${WEB[@]}" --iterations 0 --seed "$S" --json < /dev/null
  run "$WORK/zero-shot-s$S.json" train "${WEB[@]}" --iterations 0 --seed "$S" --init "$SHOP" --json < /dev/null
  run "$WORK/scratch-s$S.json" train "${WEB[@]}" --seed "$S" --json < /dev/null
  run "$WORK/from-shop-s$S.json" train "${WEB[@]}" --seed "$S" --init "$SHOP" --json < /dev/null
}
from_dream() { # SEED: the same from the dream-trained shop policy
  local S=$1
  run "$WORK/zero-shot-dream-s$S.json" train "${WEB[@]}" --iterations 0 --seed "$S" --init "$DREAM" --json < /dev/null
  run "$WORK/from-shop-dream-s$S.json" train "${WEB[@]}" --seed "$S" --init "$DREAM" --json < /dev/null
}

# Two at a time (the 2-core machine): each pair below shares nothing, and each step waits for its
# inputs; `wait PID` fails the script when either side failed.
shop_real & a=$!; shop_dream & b=$!; wait "$a"; wait "$b"
by_type zero-shot "$SHOP" & a=$!; by_type zero-shot-dream "$DREAM" & b=$!; wait "$a"; wait "$b"
for S in $SEEDS; do from_real "$S" & a=$!; from_dream "$S" & b=$!; wait "$a"; wait "$b"; done
node --import tsx results/transfer/summarise.mjs "$WORK" "$SEEDS"
