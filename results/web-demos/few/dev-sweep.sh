#!/usr/bin/env bash
# How many demonstrations per task before cloning covers the app-like tasks, and what the dream adds
# below that (issue 27's 1.3 × question). For each count N in COUNTS: the demonstrations regime's
# buffer with N oracle demonstrations of each of the 12 app-like tasks (seed 1) beside the same 240
# random exploration episodes (seed 2), the neural model fitted on it (3 epochs, seed 1), BC on it,
# and dream GRPO from that BC policy (8K synthetic, KL 0.2) and from scratch, all judged greedy on 600
# train-split episodes (the test split is the table's, so nothing here is chosen on it). ROWS may also
# name dream-from-bc-return (the curriculum's variance over returns, not wins) and dream-from-bc-kl0.5.
#
#   COUNTS="2 5" SEED=1 bash results/web-demos/few/dev-sweep.sh OUT
#
# OUT/nN/ receives the buffer, the model, and per run NAME-sSEED.json (train's JSON line) and .err.
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=$(realpath -m "${1:?usage: dev-sweep.sh OUT}")
SEED=${SEED:-1}
ROWS=${ROWS:-bc dream-from-bc dream}
cli() { npm run -s cli -- "$@"; }
EVAL=(--eval-split train --final-eval-episodes 600)
# Dream GRPO, 8K synthetic, on DIR's buffer and model; the rest are the row's own flags.
dream() { local dir=$1; shift; cli train --env web --tasks @app --mode dream --algo grpo --seed "$SEED" --synthetic-budget 8000 --buffer "$dir/web-buffer.jsonl" --experience neural --model "$dir/web-model.dgx" "$@" "${EVAL[@]}" --json; }
mkdir -p "$OUT"
if [ ! -f "$OUT/exploration.jsonl" ]; then
  cli buffer seed --env web --tasks @app --episodes 240 --mix random=1 --seed 2 --out "$OUT/exploration.part.jsonl" > /dev/null
  mv "$OUT/exploration.part.jsonl" "$OUT/exploration.jsonl"
fi
if [ ! -f "$OUT/untrained-s$SEED.json" ]; then
  cli train --env web --tasks @app --mode real --algo grpo --seed "$SEED" --iterations 0 --real-budget 1000 "${EVAL[@]}" --json 2> "$OUT/untrained-s$SEED.err" | tail -n 1 > "$OUT/untrained-s$SEED.json"
fi
count() {
  local n=$1 dir="$OUT/n$1"
  mkdir -p "$dir"
  if [ ! -f "$dir/web-model.dgx" ]; then
    rm -f "$dir/web-buffer.jsonl" "$dir/demos.jsonl"
    cli buffer seed --env web --tasks @app --episodes $((12 * n)) --mix oracle=1 --per-task "$n" --seed 1 --out "$dir/demos.jsonl" > /dev/null
    cli buffer import "$dir/demos.jsonl" --out "$dir/web-buffer.jsonl" > /dev/null
    cli buffer import "$OUT/exploration.jsonl" --out "$dir/web-buffer.jsonl" > /dev/null
    cli experience fit --env web --tasks @app --buffer "$dir/web-buffer.jsonl" --out "$dir/web-model.part.dgx" --epochs 3 --seed 1 > "$dir/fit.txt" 2> "$dir/fit.err"
    mv "$dir/web-model.part.dgx" "$dir/web-model.dgx"
  fi
  for row in $ROWS; do
    [ -f "$dir/$row-s$SEED.json" ] && [ -s "$dir/$row-s$SEED.json" ] && continue
    case $row in
      bc) cli train --env web --tasks @app --mode bc --seed "$SEED" --buffer "$dir/web-buffer.jsonl" "${EVAL[@]}" --out "$dir/bc-s$SEED.dgp" --json ;;
      dream-from-bc) dream "$dir" --init "$dir/bc-s$SEED.dgp" --set klCoef=0.2 ;;
      dream-from-bc-return) dream "$dir" --init "$dir/bc-s$SEED.dgp" --set klCoef=0.2 --curriculum-outcome return ;;
      dream-from-bc-kl0.5) dream "$dir" --init "$dir/bc-s$SEED.dgp" --set klCoef=0.5 ;;
      dream) dream "$dir" ;;
    esac 2> "$dir/$row-s$SEED.err" | tail -n 1 > "$dir/$row-s$SEED.json.part"
    mv "$dir/$row-s$SEED.json.part" "$dir/$row-s$SEED.json"
  done
}
pids=()
for n in ${COUNTS:-2 5}; do count "$n" & pids+=($!); done
for p in "${pids[@]}"; do wait "$p"; done
node -e '
const fs = require("fs"); const out = process.argv[1]; const seed = process.argv[2];
const rate = (f) => { try { return JSON.parse(fs.readFileSync(f, "utf8")).eval.successRate; } catch { return null; } };
const summary = { untrained: rate(`${out}/untrained-s${seed}.json`), counts: {} };
for (const d of fs.readdirSync(out).filter((d) => /^n\d+$/.test(d)).sort((a, b) => a.slice(1) - b.slice(1))) {
  summary.counts[d.slice(1)] = Object.fromEntries(fs.readdirSync(`${out}/${d}`).filter((f) => f.endsWith(`-s${seed}.json`)).map((f) => [f.replace(`-s${seed}.json`, ""), rate(`${out}/${d}/${f}`)]));
}
console.log(JSON.stringify(summary));
' "$OUT" "$SEED"
