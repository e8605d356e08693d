#!/usr/bin/env bash
# Which of the suite's two declarations (rewardsAtEnd, binaryReward) changes the dream? Dream GRPO,
# 8K synthetic, the demonstrations regime's buffer and model, judged on 600 train-split episodes
# (the test split is the table's), with the declarations removed in turn. Each variant runs from a
# detached git worktree of REV (default 4452c03, the code these runs were made with: from f9d42e9 on
# a web dream no longer rounds, whatever the suite declares) whose src/envs/web/suite/site.ts has
# the declaration's line deleted (node_modules hard-linked in, so nothing is downloaded); two
# variants run at a time.
#
#   bash results/web-demos/declared/ablate-declarations.sh DIR OUT [SEED [INIT.dgp [--set k=v ...]]]
#   VARIANTS="at-end-only both" bash results/web-demos/declared/ablate-declarations.sh ...
#
# Variants: neither, at-end-only, binary-only, both (default: the first three; about 10 minutes on
# 2 cores). DIR is a demos work folder (web-buffer.jsonl, web-model.dgx), e.g.
# results/web-demos/numbered; SEED defaults to 1; INIT, when given, is the policy the dream starts
# from, and what follows it is passed to train. OUT receives per variant VARIANT-sSEED.json (train's
# JSON line) and .err (its progress), and summary.json over every variant and seed OUT holds
# (the real train-split success, and the mean in-model success and score of the last ten iterations)
# (VARIANTS=" " only rewrites it). The both-s1 files of results/web-demos/declared/ablation are
# dev-checks.sh's scratch and from-bc-kl0.2 runs, copied.
set -euo pipefail
ROOT=$(realpath "$(dirname "$0")/../../..")
DIR=$(realpath "${1:?usage: ablate-declarations.sh DIR OUT [SEED [INIT.dgp [train flags]]]}")
OUT=$(realpath -m "${2:?usage: ablate-declarations.sh DIR OUT [SEED [INIT.dgp [train flags]]]}")
SEED=${3:-1}
EXTRA=()
if [ -n "${4:-}" ]; then EXTRA=(--init "$(realpath "$4")" "${@:5}"); fi
read -r -a LIST <<< "${VARIANTS:-neither at-end-only binary-only}"
mkdir -p "$OUT"
WT=$(mktemp -d)
cleanup() { for v in "${LIST[@]}"; do git -C "$ROOT" worktree remove --force "$WT/$v" 2>/dev/null || true; done; rm -rf "$WT"; }
trap cleanup EXIT
variant() {
  local name=$1 remove
  case $name in
    neither) remove=(rewardsAtEnd binaryReward) ;;
    at-end-only) remove=(binaryReward) ;;
    binary-only) remove=(rewardsAtEnd) ;;
    both) remove=() ;;
    *) echo "unknown variant $name" >&2; return 2 ;;
  esac
  git -C "$ROOT" worktree add --detach "$WT/$name" "${REV:-4452c03}" > /dev/null
  cp -al "$ROOT/node_modules" "$WT/$name/node_modules"
  for key in "${remove[@]}"; do sed -i "/^  $key: true,$/d" "$WT/$name/src/envs/web/suite/site.ts"; done
  (cd "$WT/$name" && npm run -s cli -- train --env web --tasks @app --mode dream --algo grpo --seed "$SEED" \
    --synthetic-budget 8000 --buffer "$DIR/web-buffer.jsonl" --experience neural --model "$DIR/web-model.dgx" \
    --eval-split train --final-eval-episodes 600 "${EXTRA[@]}" --json 2> "$OUT/$name-s$SEED.err" | tail -n 1 > "$OUT/$name-s$SEED.json")
}
for ((i = 0; i < ${#LIST[@]}; i += 2)); do
  variant "${LIST[i]}" &
  if ((i + 1 < ${#LIST[@]})); then variant "${LIST[i + 1]}" & fi
  wait
done
# The summary covers every VARIANT-sSEED.json in OUT (this call's and earlier ones').
node -e '
const fs = require("fs");
const out = process.argv[1];
const summary = {};
for (const file of fs.readdirSync(out).sort()) {
  const m = /^(neither|at-end-only|binary-only|both)-s(\d+)\.json$/.exec(file);
  if (!m) continue;
  const r = JSON.parse(fs.readFileSync(`${out}/${file}`, "utf8"));
  const s = r.dream.synthetic;
  // The last ten iterations of the progress log: success and score inside the model (sampled actions).
  const iters = fs.readFileSync(`${out}/${file.replace(/\.json$/, ".err")}`, "utf8").split("\n").filter((l) => /^iter \d+:/.test(l)).slice(-10);
  const mean = (re) => iters.reduce((a, l) => a + Number(re.exec(l)[1]), 0) / iters.length;
  const inModelLast10 = { success: mean(/success ([\d.]+)%/), score: mean(/score ([\d.]+),/) };
  (summary[m[1]] ??= { seeds: {} }).seeds[m[2]] = { successRate: r.eval.successRate, inModelLast10, rewardsBeforeEnd: s.rewardsBeforeEnd, rewardsRounded: s.rewardsRounded, episodes: s.episodes };
}
for (const v of Object.values(summary)) { const rates = Object.values(v.seeds).map((x) => x.successRate); v.meanSuccessRate = rates.reduce((a, b) => a + b, 0) / rates.length; }
fs.writeFileSync(`${out}/summary.json`, JSON.stringify(summary, null, 2) + "\n");
console.log(JSON.stringify(summary));
' "$OUT"
