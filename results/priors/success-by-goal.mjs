// Where an experience model misses successes, by the kind of goal: the scored steps that
// `experience eval --steps` wrote, grouped by the instruction's first word (on the generated
// families it names the goal: Reply, Forward, Write a new message, Buy), beside the goals the
// buffer's demonstrations showed (a buffer seed file's $meta line lists its tasks).
//   node results/priors/success-by-goal.mjs STEPS.jsonl [DEMOS.jsonl]
// Prints a markdown table: per goal, the real successes, those the model predicted, the successes
// it predicted where none happened, and how many demonstrations of that goal the buffer held.
import { jsonLines } from './rows.mjs';

const [stepsFile, demosFile] = process.argv.slice(2);
if (!stepsFile) {
  console.error('usage: node results/priors/success-by-goal.mjs STEPS.jsonl [DEMOS.jsonl]');
  process.exit(2);
}
const goalOf = (instruction) => instruction.trim().split(/\s+/)[0] ?? '';
const lines = (file) => jsonLines(file, 'success-by-goal');

const byGoal = new Map();
const row = (goal) => {
  if (!byGoal.has(goal)) byGoal.set(goal, { steps: 0, real: 0, found: 0, falseClaims: 0, demonstrated: 0 });
  return byGoal.get(goal);
};
for (const step of lines(stepsFile)) {
  const r = row(goalOf(step.instruction));
  r.steps++;
  if (step.real.success) r.real++;
  if (step.real.success && step.predicted.success) r.found++;
  if (!step.real.success && step.predicted.success) r.falseClaims++;
}
if (demosFile) {
  const meta = lines(demosFile).find((l) => l.$meta)?.$meta;
  for (const task of meta?.tasks ?? []) row(goalOf(task.instruction)).demonstrated++;
}
console.log('| goal | steps scored | real successes | predicted of them | predicted where none was | demonstrations in the buffer |');
console.log('|---|---|---|---|---|---|');
for (const [goal, r] of [...byGoal].sort((a, b) => a[0].localeCompare(b[0]))) {
  console.log(`| ${goal} | ${r.steps} | ${r.real} | ${r.found} | ${r.falseClaims} | ${demosFile ? r.demonstrated : '—'} |`);
}
