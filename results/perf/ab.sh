#!/usr/bin/env bash
# A bench at an older commit and at the working tree, alternated N times on this machine (one run's
# figures move by a fifth here between runs; alternating keeps drift from favouring either side):
#   bash results/perf/ab.sh <rev> <bench> [N=4] [OUT=/tmp/ab]    e.g. ab.sh 4ba5763 policy
# Writes OUT/old-i.json and OUT/new-i.json; compare medians over i.
set -euo pipefail
rev="${1:?usage: ab.sh <rev> <bench> [N] [OUT]}"; bench="${2:?usage: ab.sh <rev> <bench> [N] [OUT]}"
n="${3:-4}"; out="${4:-/tmp/ab}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
old="$(mktemp -d)"
trap 'rm -rf "$old"' EXIT
git -C "$root" archive "$rev" | tar -x -C "$old"
ln -s "$root/node_modules" "$old/node_modules"
mkdir -p "$out"
for i in $(seq 1 "$n"); do
  (cd "$old" && npm run -s bench -- "$bench" 2>/dev/null > "$out/old-$i.json")
  (cd "$root" && npm run -s bench -- "$bench" 2>/dev/null > "$out/new-$i.json")
done
echo "wrote $out/old-1..$n.json and $out/new-1..$n.json"
