#!/usr/bin/env bash
# Pins the project's seeded behaviour before and after a refactor: the transcript digests of the
# scripted agents, the seeded buffer and the fitted neural model (content hashes), and the greedy
# action digests of small real, dream and s2r training runs on the bit-reproducible cpu backend.
# Usage: bash scripts/pin-digests.sh OUT.json   (about 5 minutes on 2 cores; compare two outputs with diff)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:?usage: pin-digests.sh OUT.json}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cli() { npm run -s cli -- "$@" 2>>"$work/progress.log"; }
field() { node -e 'const o=JSON.parse(require("fs").readFileSync(0,"utf8").trim().split("\n").pop()); console.log(o[process.argv[1]]?.actionsDigest ?? o[process.argv[1]])' "$1"; }
sha() { sha256sum "$1" | cut -c1-64; }

declare -A pins
for env_split in shop:test home:valid-unseen; do
  env="${env_split%%:*}"; split="${env_split#*:}"
  for agent in oracle random; do
    pins["rollout.$env.$agent"]=$(cli rollout --env "$env" --policy "$agent" --split "$split" --episodes 200 --seed 1 --json | field digest)
  done
done
pins["rollout.shop.shopper"]=$(cli rollout --env shop --policy shopper --split test --episodes 100 --seed 1 --json | field digest)

cli buffer seed --env shop --episodes 120 --seed 1 --mix shopper=0.5,noisy=0.2,random=0.3 --out "$work/shop.jsonl" --json >/dev/null
# The store's first line records when it was written; the transitions below it are what is pinned.
pins["buffer.shop"]=$(tail -n +2 "$work/shop.jsonl" | node -e 'const l=require("fs").readFileSync(0,"utf8").split("\n").filter(Boolean).map(s=>{const o=JSON.parse(s);delete o.createdAt;delete o.id;return JSON.stringify(o)});console.log(require("crypto").createHash("sha256").update(l.join("\n")).digest("hex"))')
cli experience fit --env shop --buffer "$work/shop.jsonl" --out "$work/shop.dgx" --epochs 1 --max-transitions 300 --seed 1 --backend cpu --json > "$work/fit.json"
pins["fit.shop.lastValidation"]=$(node -e 'const o=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8").trim().split("\n").pop()); const h=o.history.at(-1); console.log(JSON.stringify(h.validation ?? h))' "$work/fit.json")
pins["eval.shop.neural"]=$(cli experience eval --env shop --experience neural --model "$work/shop.dgx" --buffer "$work/shop.jsonl" --heldout 200 --seed 1 --backend cpu --json | node -e 'const o=JSON.parse(require("fs").readFileSync(0,"utf8").trim().split("\n").pop()); console.log([o.nextStateF1,o.actionSetF1,o.rewardAccuracy,o.doneAccuracy].join(","))')

small=(--seed 1 --backend cpu --final-eval-episodes 100 --eval-every 0)
for algo in ppo grpo; do
  pins["train.shop.real.$algo"]=$(cli train --env shop --mode real --algo "$algo" --real-budget 2000 "${small[@]}" --json | field eval)
  pins["train.shop.dream-neural.$algo"]=$(cli train --env shop --mode dream --algo "$algo" --experience neural --model "$work/shop.dgx" --buffer "$work/shop.jsonl" --synthetic-budget 1500 "${small[@]}" --json | field eval)
done
pins["train.home.real.grpo"]=$(cli train --env home --mode real --algo grpo --real-budget 2000 "${small[@]}" --json | field eval)
pins["train.shop.dream-knn.grpo"]=$(cli train --env shop --mode dream --algo grpo --experience knn --buffer "$work/shop.jsonl" --synthetic-budget 1500 --curriculum off "${small[@]}" --json | field eval)
pins["train.shop.s2r-neural.grpo"]=$(cli train --env shop --mode s2r --algo grpo --experience neural --model "$work/shop.dgx" --buffer "$work/shop.jsonl" --synthetic-budget 1000 --real-budget 500 "${small[@]}" --json | field eval)

{
  echo "{"
  first=1
  for key in $(printf '%s\n' "${!pins[@]}" | sort); do
    [ $first -eq 1 ] || echo ","
    first=0
    printf '  %s: %s' "$(node -e 'console.log(JSON.stringify(process.argv[1]))' "$key")" "$(node -e 'console.log(JSON.stringify(process.argv[1]))' "${pins[$key]}")"
  done
  echo; echo "}"
} > "$out"
cat "$out"
