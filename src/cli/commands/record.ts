/**
 * `record --site SITE --task T --episodes N --out demos.jsonl`: a person plays a task of a site in
 * a visible Chromium, and every step they take is kept as a real transition of a demonstration run
 * (jobs/record-person.ts), ready for `train --mode bc --buffer demos.jsonl`, `experience fit` and
 * a dream. The window needs a display (a desktop, or `xvfb-run` on a server).
 */
import { UsageError } from '../../core/errors.ts';
import type { Task } from '../../core/types.ts';
import { episodeTasks } from '../../envs/episode.ts';
import { envSpec } from '../../envs/registry.ts';
import { recordPerson, type PersonEnv, type RecordEvent } from '../../jobs/record-person.ts';
import { FileReplayStore } from '../../replay/file-store.ts';
import { checkOutputPath, parseCommandArgs, quoted, requireOption } from '../args.ts';
import type { CommandIO } from '../io.ts';

export const RECORD_USAGE =
  'record --site <DIR | site.json> --task TASK --out FILE.jsonl [--episodes N (default 3)] [--split NAME (default train)] [--seed S] [--json]';

const DEFAULT_EPISODES = 3;

function integerFlag(value: string | undefined, flag: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value.trim()) || Number(value) < min || !Number.isSafeInteger(Number(value))) throw new UsageError(`${flag} must be a whole number of at least ${min}, got ${quoted(value)}`);
  return Number(value);
}

/** What the terminal shows a person while they play: the instruction, each step, why an input was refused. */
function narrate(io: CommandIO, event: RecordEvent): void {
  switch (event.kind) {
    case 'episode': {
      const instruction = /^instruction: (.*)$/m.exec(event.observation.text)?.[1] ?? event.task.instruction;
      io.progress(`episode ${event.index + 1} of ${event.total} (${event.task.id}): ${instruction}`);
      return;
    }
    case 'step':
      io.progress(`  ${event.action}${event.reward !== 0 ? ` (reward ${event.reward})` : ''}`);
      return;
    case 'refused':
      io.progress(`  not taken: ${event.why}`);
      return;
    case 'done':
      io.progress(`  ${event.won ? 'done: the task succeeded' : 'over without success'} in ${event.steps} steps`);
  }
}

export async function recordCommand(io: CommandIO, argv: string[]): Promise<void> {
  const { values } = parseCommandArgs({
    args: argv,
    options: {
      env: { type: 'string' },
      task: { type: 'string' },
      episodes: { type: 'string' },
      split: { type: 'string' },
      seed: { type: 'string' },
      out: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.env !== undefined && values.env !== 'web') throw new UsageError(`record is for web pages (--site); --env ${quoted(values.env)} has none`);
  const spec = envSpec('web');
  const task = requireOption(values.task, '--task');
  const out = requireOption(values.out, '--out');
  if (!out.endsWith('.jsonl')) throw new UsageError(`--out must name a .jsonl store file, got ${quoted(out)}`);
  const episodes = integerFlag(values.episodes, '--episodes', DEFAULT_EPISODES, 1);
  const seed = integerFlag(values.seed, '--seed', 1, 0);
  const split = values.split ?? spec.splits.find((s) => s.name !== spec.testSplit)?.name ?? spec.testSplit;
  const kinds = new Set(spec.tasks(split).map((t) => spec.taskKind?.(t) ?? t.id));
  if (!kinds.has(task)) throw new UsageError(`--task ${quoted(task)}: the site has no such task; its tasks: ${[...kinds].join(', ')}`);
  const instances: Task[] = episodeTasks(spec.tasks(split).filter((t) => (spec.taskKind?.(t) ?? t.id) === task), episodes, seed);
  await checkOutputPath(out, 'out');
  const store = await FileReplayStore.open(out);
  try {
    // A fresh file: a demonstration run among others would mix silently (as buffer seed refuses).
    if ((await store.count()) > 0) throw new UsageError(`${out} already holds transitions; choose a new --out file`);
    const env = spec.createEnv({ visible: true }) as PersonEnv;
    if (typeof env.nextPersonInput !== 'function') throw new UsageError('this environment cannot show its pages to a person');
    const runId = `demo-record-${task.replace(/[^a-z0-9_-]/gi, '-')}-${seed}`;
    io.progress(`recording ${episodes} episode${episodes === 1 ? '' : 's'} of ${task}: act on the page in the Chromium window; close it to stop`);
    let result;
    try {
      result = await recordPerson({ env, tasks: instances, store, runId, meta: { task, split, seed }, onEvent: (event) => narrate(io, event) });
    } finally {
      await env.close?.();
    }
    const summary = { task, split, out, runId, episodes: result.episodes, won: result.won, transitions: result.transitions, stopped: result.stopped };
    if (values.json) io.out(JSON.stringify(summary));
    else io.out(`${result.transitions} steps of ${result.episodes} episode${result.episodes === 1 ? '' : 's'} (${result.won} won) written to ${out}${result.stopped ? '; the window was closed before the last episode' : ''}`);
  } finally {
    await store.close();
  }
}
