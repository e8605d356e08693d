#!/usr/bin/env bash
# The few-demonstrations regime on sites the pretrained models never saw (issue 58, points 3 and 4).
# For each SITE in SITES (heldout: the generated families held out of pretraining, cart and messaging;
# suite: the bundled suite's 12 app-like tasks), each count N in COUNTS and each seed in SEEDS:
#
#   demonstrations  N oracle episodes of each task (train split, the seed's own), beside 240 random
#                   exploration episodes of the site (train split, seed 100 + seed);
#   models          the neural experience model fitted on that buffer (3 epochs) from nothing
#                   (model-scratch.dgx) and from the pretrained model (model-pretrained.dgx, --init);
#   rows            untrained and pretrained policies as they are (zero-shot), BC from each on the
#                   demonstrations, dream GRPO (8,000 synthetic, KL 0.2 to the cloned policy) from each
#                   cloned policy in its own model, and s2r (the same dream, then 1,000 real
#                   transitions of GRPO); every policy judged greedy on EVAL test episodes;
#   fidelity        each model on real transitions of the pretrained BC policy's own greedy test
#                   episodes (`experience eval --policy`; 1,000 on heldout, 300 on suite): success
#                   precision and recall, next-state F1; each step beside the row's JSON
#                   (fidelity-*.steps.jsonl, `experience eval --steps`; success-by-goal.mjs reads them).
#
# The settings are the demonstrations regime's (results/web-demos/, chosen there on the train split);
# nothing here is chosen on the test split it reports. PRETRAINED names the pretrained weights'
# folder (default: what the app ships, public/pretrained/web).
#
#   SITES="heldout suite" COUNTS="2" SEEDS="1 2 3" bash results/priors/run.sh [WORK]
#
# WORK (default artifacts/priors, git-ignored) receives the buffers, models and policies; each row's
# JSON line and progress log go to RUNS/<site>/n<N>/s<seed>/ (RUNS default results/priors/runs). Run it again to go on:
# finished rows are kept. Then `node results/priors/summarize.mjs` writes summary.json and the table.
set -euo pipefail
cd "$(dirname "$0")/../.."
WORK=$(realpath -m "${1:-artifacts/priors}")
RUNS=${RUNS:-results/priors/runs}
export DREAMGYM_PRETRAINED_DIR=${PRETRAINED:-public/pretrained/web}
[ -s "$DREAMGYM_PRETRAINED_DIR/policy.dgp" ] && [ -s "$DREAMGYM_PRETRAINED_DIR/model.dgx" ] || { echo "no pretrained policy.dgp and model.dgx in $DREAMGYM_PRETRAINED_DIR (set PRETRAINED)" >&2; exit 2; }
EVAL=${EVAL:-200}
SYNTHETIC=${SYNTHETIC:-8000}
REAL=${REAL:-1000}
ROWS=${ROWS:-untrained zero-shot bc-scratch bc-pretrained dream-scratch dream-pretrained fidelity-scratch fidelity-pretrained s2r-scratch s2r-pretrained}
cli() { node --max-semi-space-size=64 --import tsx src/cli/main.ts "$@"; }

site_flags() { case $1 in heldout) echo "--site @generated-held-out" ;; suite) echo "--tasks @app" ;; *) echo "unknown site $1" >&2; exit 2 ;; esac; }
site_tasks() { case $1 in heldout) echo 2 ;; suite) echo 12 ;; esac; }
# Real transitions of the policy's own steps the fidelity scores: the held-out families' long episodes
# are won rarely (the cloned policy wins one in seven), so 300 steps held three successes; 1,000 hold more.
site_fidelity_steps() { case $1 in heldout) echo 1000 ;; suite) echo 300 ;; esac; }

# Whether a row of ROWS reads the model fitted from $1 (scratch or pretrained).
reads_model() { local row; for row in $ROWS; do case $row in dream-"$1"|s2r-"$1"|fidelity-"$1") return 0 ;; esac; done; return 1; }

# One (site, count, seed) cell: its buffer and models, then every row not yet written.
cell() {
  local site=$1 n=$2 seed=$3
  local flags; flags=$(site_flags "$site")
  local dir="$WORK/$site/n$n/s$seed" out="$RUNS/$site/n$n/s$seed"
  mkdir -p "$dir" "$out"
  # shellcheck disable=SC2086
  local web=(--env web $flags)
  local eval=(--final-eval-episodes "$EVAL" --json)
  if [ ! -s "$WORK/$site/exploration-s$seed.jsonl" ]; then
    cli buffer seed "${web[@]}" --episodes 240 --mix random=1 --seed $((100 + seed)) --out "$WORK/$site/exploration-s$seed.part.jsonl" > /dev/null
    mv "$WORK/$site/exploration-s$seed.part.jsonl" "$WORK/$site/exploration-s$seed.jsonl"
  fi
  if [ ! -s "$dir/buffer.jsonl" ]; then
    rm -f "$dir/demos.jsonl" "$dir/buffer.part.jsonl"
    cli buffer seed "${web[@]}" --episodes $(($(site_tasks "$site") * n)) --mix oracle=1 --per-task "$n" --seed "$seed" --out "$dir/demos.jsonl" > /dev/null
    cli buffer import "$dir/demos.jsonl" --out "$dir/buffer.part.jsonl" > /dev/null
    cli buffer import "$WORK/$site/exploration-s$seed.jsonl" --out "$dir/buffer.part.jsonl" > /dev/null
    mv "$dir/buffer.part.jsonl" "$dir/buffer.jsonl"
  fi
  for from in scratch pretrained; do
    [ -s "$dir/model-$from.dgx" ] && continue
    # Only a model some row reads (the dreams, s2r and fidelity): the scratch rows can run before
    # the pretrained weights they do not read are made.
    reads_model "$from" || continue
    local init=(); [ "$from" = pretrained ] && init=(--init pretrained)
    cli experience fit "${web[@]}" --buffer "$dir/buffer.jsonl" "${init[@]}" --epochs 3 --seed "$seed" --out "$dir/model-$from.part.dgx" --json 2> "$out/fit-$from.err" | tail -n 1 > "$out/fit-$from.json"
    mv "$dir/model-$from.part.dgx" "$dir/model-$from.dgx"
  done
  for row in $ROWS; do
    [ -s "$out/$row.json" ] && continue
    local from=${row##*-} init=()
    [ "$from" = pretrained ] && init=(--init pretrained)
    case $row in
      untrained) cli train "${web[@]}" --mode real --algo grpo --seed "$seed" --iterations 0 --real-budget 1000 "${eval[@]}" ;;
      zero-shot) cli train "${web[@]}" --mode real --algo grpo --seed "$seed" --iterations 0 --real-budget 1000 --init pretrained "${eval[@]}" ;;
      bc-*) cli train "${web[@]}" --mode bc --seed "$seed" --buffer "$dir/buffer.jsonl" "${init[@]}" --out "$dir/bc-$from.dgp" "${eval[@]}" ;;
      dream-*|s2r-*)
        local mode=${row%%-*} real=()
        [ "$mode" = s2r ] && real=(--real-budget "$REAL")
        cli train "${web[@]}" --mode "$mode" --algo grpo --seed "$seed" --synthetic-budget "$SYNTHETIC" "${real[@]}" --buffer "$dir/buffer.jsonl" \
          --experience neural --model "$dir/model-$from.dgx" --init "$dir/bc-$from.dgp" --set klCoef=0.2 "${eval[@]}" ;;
      fidelity-*) cli experience eval "${web[@]}" --experience neural --model "$dir/model-$from.dgx" --buffer "$dir/buffer.jsonl" \
          --heldout "$(site_fidelity_steps "$site")" --policy "$dir/bc-pretrained.dgp" --seed "$seed" --steps "$out/$row.steps.jsonl" --json ;;
      *) echo "unknown row $row" >&2; exit 2 ;;
    esac 2> "$out/$row.err" | tail -n 1 > "$out/$row.json.part"
    mv "$out/$row.json.part" "$out/$row.json"
  done
}

pids=()
for site in ${SITES:-heldout suite}; do
  ( for n in ${COUNTS:-2}; do for seed in ${SEEDS:-1}; do cell "$site" "$n" "$seed"; done; done ) & pids+=($!)
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
exit $status
