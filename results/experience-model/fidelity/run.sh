#!/usr/bin/env bash
# Success and episode-end fidelity of the neural experience model, per environment, on scripted
# held-out steps and on a policy's own greedy held-out steps, fitted with its reasoning and without
# (issue 24, Deliver 1 and 3). Writes one JSON per measurement into results/experience-model/fidelity/ (and scratch
# files into WORK; a file already in WORK is reused, so an interrupted run resumes). About 35
# minutes on 2 cores: the four fits took 199-496 s each (wallSeconds in the *-fit*.json files),
# the whole run 24 minutes with the home fit reused, sharing the cores with a dream run.
# Usage: bash results/experience-model/fidelity/run.sh [WORK [ENV …]]   (ENV: shop, home; both by default)
set -euo pipefail
cd "$(dirname "$0")/../../.."
work="${1:-$(mktemp -d)}"
shift || true
envs="${*:-shop home}"
out=results/experience-model/fidelity
cli() { npm run -s cli -- "$@"; }
# The issue's buffer: 400 train-split episodes of the oracle, the noisy expert and the random agent;
# on home half the oracle's share goes to the hasty oracle (the goal step before its preparation).
declare -A mix=([shop]=oracle=0.4,noisy=0.3,random=0.3 [home]=oracle=0.2,hasty=0.2,noisy=0.3,random=0.3)
for env in $envs; do
  [ -f "$work/$env.jsonl" ] || cli buffer seed --env "$env" --episodes 400 --mix "${mix[$env]}" --seed 1 --out "$work/$env.jsonl" --json > /dev/null
  [ -f "$work/$env.dgx" ] || cli experience fit --env "$env" --buffer "$work/$env.jsonl" --out "$work/$env.dgx" --epochs 3 --seed 1 --json > "$out/$env-fit.json"
  # The same fit without reasoning: the examples' annotations withheld, the reasoning head unused.
  [ -f "$work/$env-nr.dgx" ] || cli experience fit --env "$env" --buffer "$work/$env.jsonl" --out "$work/$env-nr.dgx" --epochs 3 --seed 1 --reasoning off --json > "$out/$env-fit-no-reasoning.json"
  # The policy a dream run starts from: one update of real GRPO (the steps the model is first asked about).
  [ -f "$work/$env-start.dgp" ] || cli train --env "$env" --mode real --algo grpo --real-budget 400 --iterations 1 --seed 1 --final-eval-episodes 10 --out "$work/$env-start.dgp" --json > /dev/null
  cli experience eval --env "$env" --experience neural --model "$work/$env.dgx" --buffer "$work/$env.jsonl" --heldout 1000 --seed 1 --json > "$out/$env-scripted.json"
  cli experience eval --env "$env" --experience neural --model "$work/$env.dgx" --buffer "$work/$env.jsonl" --heldout 5000 --seed 1 --policy "$work/$env-start.dgp" --json > "$out/$env-on-policy.json"
  cli experience eval --env "$env" --experience neural --model "$work/$env-nr.dgx" --buffer "$work/$env.jsonl" --heldout 1000 --seed 1 --json > "$out/$env-scripted-no-reasoning.json"
  cli experience eval --env "$env" --experience neural --model "$work/$env-nr.dgx" --buffer "$work/$env.jsonl" --heldout 5000 --seed 1 --policy "$work/$env-start.dgp" --json > "$out/$env-on-policy-no-reasoning.json"
  cli experience eval --env "$env" --experience knn --buffer "$work/$env.jsonl" --heldout 5000 --seed 1 --policy "$work/$env-start.dgp" --json > "$out/$env-on-policy-knn.json"
done
for f in "$out"/*-scripted*.json "$out"/*-on-policy*.json; do
  node -e 'const o=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8").trim().split("\n").pop()); console.log(process.argv[1], JSON.stringify({n: o.transitions, success: o.success, done: o.done, cutOffEnds: o.cutOffEnds, revealedActions: o.revealedActions, terminalRewardMae: o.terminalRewardMae, rewardAccuracy: o.rewardAccuracy, nextStateF1: o.nextStateF1}))' "$f"
done
