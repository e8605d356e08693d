// How an experience model calls success on the scored steps that `experience eval --steps` wrote,
// and whether its predicted reward tells the real successes from the other steps at all, one line
// per file:
//   node --import tsx results/priors/success-scores.mjs STEPS.jsonl [STEPS.jsonl ...]
// Per file: the steps and real successes; success precision and recall as the model called it
// (its own success reward) and as the default rule calls it (success.ts, for a model that names none);
// the largest reward it predicted for a real success; the AUC of the predicted reward for success
// against the other steps (ties count half: 0.5 is no signal); and the most recall any threshold on
// the predicted reward reaches at a precision of at least 0.7. That threshold is chosen on the very
// steps it scores, so it bounds what any success reward could recover and is never a figure to
// report as the model's recall.
import { isPredictedSuccess } from '../../src/experience/success.ts';
import { jsonLines } from './rows.mjs';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node --import tsx results/priors/success-scores.mjs STEPS.jsonl [STEPS.jsonl ...]');
  process.exit(2);
}

/** AUC of `score` for the positives against the negatives, ties counted half. */
function auc(positives, negatives) {
  if (positives.length === 0 || negatives.length === 0) return null;
  let wins = 0;
  for (const p of positives) for (const n of negatives) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (positives.length * negatives.length);
}

/** The largest recall over thresholds t (a success called where reward ≥ t, t > 0) whose precision is at least `minPrecision`. */
function boundRecall(steps, minPrecision) {
  const real = steps.filter((s) => s.real.success).length;
  let best = 0;
  for (const t of new Set(steps.map((s) => s.predicted.reward).filter((r) => r > 0))) {
    const called = steps.filter((s) => s.predicted.reward >= t);
    const hits = called.filter((s) => s.real.success).length;
    if (called.length > 0 && hits / called.length >= minPrecision) best = Math.max(best, hits / Math.max(1, real));
  }
  return best;
}

/** Precision and recall of the steps a rule calls a success; precision '—' where it calls none. */
function precisionRecall(steps, called) {
  const real = steps.filter((s) => s.real.success).length;
  const calls = steps.filter(called);
  const hits = calls.filter((s) => s.real.success).length;
  return `${calls.length === 0 ? '—' : (hits / calls.length).toFixed(2)}, ${real === 0 ? '—' : (hits / real).toFixed(2)}`;
}

const read = files.map((file) => ({ file, steps: jsonLines(file, 'success-scores') }));
console.log('| steps file | steps | real successes | as the model called it: precision, recall | default rule: precision, recall | largest predicted reward on a real success | AUC | recall bound at precision ≥ 0.7 |');
console.log('|---|---|---|---|---|---|---|---|');
for (const { file, steps } of read) {
  const won = steps.filter((s) => s.real.success).map((s) => s.predicted.reward);
  const rest = steps.filter((s) => !s.real.success).map((s) => s.predicted.reward);
  const a = auc(won, rest);
  const asCalled = precisionRecall(steps, (s) => s.predicted.success);
  const byDefault = precisionRecall(steps, (s) => isPredictedSuccess({ reward: s.predicted.reward, done: s.predicted.done }));
  console.log(`| ${file} | ${steps.length} | ${won.length} | ${asCalled} | ${byDefault} | ${won.length === 0 ? '—' : Math.max(...won).toFixed(2)} | ${a === null ? '—' : a.toFixed(2)} | ${boundRecall(steps, 0.7).toFixed(2)} |`);
}
