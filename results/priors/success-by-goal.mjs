// Where an experience model misses successes, by the kind of goal: the scored steps that
// `experience eval --steps` wrote, grouped by the instruction's first word (on the generated
// families it names the goal: Reply, Forward, Write a new message, Buy), beside the goals the
// buffer's demonstrations showed (a buffer seed file's $meta line lists its tasks). With --by task,
// grouped by the task id's kind instead (`inbox-reply:57` → inbox-reply: the suite's kinds, whose
// first words repeat: an inbox's and a forum's Reply).
//   node results/priors/success-by-goal.mjs [--by task] STEPS.jsonl [DEMOS.jsonl]
// Prints a markdown table: per goal, the real successes, those the model predicted, the successes
// it predicted where none happened, and how many demonstrations of that goal the buffer held.
import { jsonLines } from './rows.mjs';

const args = process.argv.slice(2);
const byTask = args[0] === '--by' && args[1] === 'task';
const [stepsFile, demosFile] = byTask ? args.slice(2) : args;
if (!stepsFile || (args[0] === '--by' && !byTask)) {
  console.error('usage: node results/priors/success-by-goal.mjs [--by task] STEPS.jsonl [DEMOS.jsonl]');
  process.exit(2);
}
// A step or a $meta task: by its instruction's first word, or by its task id's kind.
const goalOf = (item) => (byTask ? (item.taskId ?? item.id).split(':')[0] : item.instruction.trim().split(/\s+/)[0] ?? '');
const lines = (file) => jsonLines(file, 'success-by-goal');

const byGoal = new Map();
const row = (goal) => {
  if (!byGoal.has(goal)) byGoal.set(goal, { steps: 0, real: 0, found: 0, falseClaims: 0, demonstrated: 0 });
  return byGoal.get(goal);
};
for (const step of lines(stepsFile)) {
  const r = row(goalOf(step));
  r.steps++;
  if (step.real.success) r.real++;
  if (step.real.success && step.predicted.success) r.found++;
  if (!step.real.success && step.predicted.success) r.falseClaims++;
}
if (demosFile) {
  const meta = lines(demosFile).find((l) => l.$meta)?.$meta;
  for (const task of meta?.tasks ?? []) row(goalOf(task)).demonstrated++;
}
console.log(`| ${byTask ? 'task' : 'goal'} | steps scored | real successes | predicted of them | predicted where none was | demonstrations in the buffer |`);
console.log('|---|---|---|---|---|---|');
for (const [goal, r] of [...byGoal].sort((a, b) => a[0].localeCompare(b[0]))) {
  console.log(`| ${goal} | ${r.steps} | ${r.real} | ${r.found} | ${r.falseClaims} | ${demosFile ? r.demonstrated : '—'} |`);
}
