#!/usr/bin/env bash
# The meaning probe (probe.mjs): oracle episodes of the pretraining families, the held-out families
# and the suite's app-like tasks, and the foreign-style corpus's scripted people (train split, seed 1),
# then every oracle click scored by words and by meaning. Resumable: a buffer already seeded is kept.
#   bash results/meaning/run.sh          # about 3 minutes on a 2-core machine, once vectors.sh has fetched the vectors
set -euo pipefail
cd "$(dirname "$0")/../.."
bash results/meaning/vectors.sh
OUT=artifacts/meaning
cli() { node --max-semi-space-size=64 --import tsx src/cli/main.ts "$@"; }
seed() {
  local name=$1 episodes=$2; shift 2
  [ -s "$OUT/oracle-$name.jsonl" ] && return
  cli buffer seed --env web "$@" --mix oracle=1 --episodes "$episodes" --seed 1 --out "$OUT/oracle-$name.part.jsonl" > /dev/null
  mv "$OUT/oracle-$name.part.jsonl" "$OUT/oracle-$name.jsonl"
}
seed pretraining-families 200 --site @generated
seed held-out-families 100 --site @generated-held-out
# The foreign-style corpus has no oracle: its scripted people (results/priors/foreign/demos.ts), 5 episodes of each task.
if [ ! -s "$OUT/oracle-foreign-corpus.jsonl" ]; then
  node --import tsx results/priors/foreign/demos.ts 5 1 "$OUT/oracle-foreign-corpus.part.jsonl" > /dev/null
  mv "$OUT/oracle-foreign-corpus.part.jsonl" "$OUT/oracle-foreign-corpus.jsonl"
fi
seed suite-app-tasks 100 --tasks @app
node results/meaning/probe.mjs pretraining-families=$OUT/oracle-pretraining-families.jsonl held-out-families=$OUT/oracle-held-out-families.jsonl \
  foreign-corpus=$OUT/oracle-foreign-corpus.jsonl suite-app-tasks=$OUT/oracle-suite-app-tasks.jsonl > results/meaning/probe.json
