/**
 * `buffer …`: the replay buffer from the command line. `seed` plays oracle and random episodes into
 * a JSONL file (a store file: import it in the app or load it with `--store`); `import` checks a JSONL
 * file line by line into a store file; `stats` counts what a store file holds.
 */
import { createReadStream } from 'node:fs';
import { DreamGymError, UsageError } from '../../core/errors.ts';
import { boundedText } from '../../core/text.ts';
import { ENVIRONMENTS, envSpec } from '../../envs/registry.ts';
import { FileReplayStore, loadStoreFile } from '../../replay/file-store.ts';
import { MemoryReplayStore } from '../../replay/memory-store.ts';
import { importJsonl } from '../../replay/jsonl.ts';
import { dropStoredTransitions } from '../../replay/known-transitions.ts';
import { InputFormatError } from '../../replay/lines.ts';
import { parseMix } from '../../replay/seed.ts';
import { seedBuffer } from '../../jobs/seed-buffer.ts';
import { seedSpec } from '../../jobs/seed-spec.ts';
import { checkInputFile, checkOutputPath, flagNamer, numberFlags, parseCommandArgs, parseFlags, quoted, requireOption, sameFile, stringFlags } from '../args.ts';
import type { CommandIO } from '../io.ts';
import { endsAsStopped, whenStopAsked } from '../stop-signals.ts';
import { FileWriteError } from '../../platform/files.ts';
import { envErrorText, warnEnvErrors } from '../env-failures.ts';

export const BUFFER_USAGE =
  'buffer seed --env <shop|home|web> --episodes N [--mix oracle=0.6,random=0.4 (agents: oracle, random, noisy; shop: shopper; home: hasty)] [--seed S] [--split NAME]\n' +
  '        [--per-task N (web: at most N episodes of each task, taken in turn)] --out FILE.jsonl [--json]\n' +
  '  buffer import FILE.jsonl --out STORE.jsonl [--json]\n' +
  '  buffer stats STORE.jsonl [--json]';

export async function bufferCommand(io: CommandIO, argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'seed':
      return seedCommand(io, rest);
    case 'import':
      return importCommand(io, rest);
    case 'stats':
      return statsCommand(io, rest);
    default:
      throw new UsageError(sub === undefined ? 'buffer needs a subcommand: seed, import or stats' : `unknown buffer subcommand ${quoted(sub)}; use seed, import or stats`);
  }
}

function requireJsonl(path: string | undefined, flag: string): string {
  if (path === undefined) throw new UsageError(`${flag} FILE.jsonl is required`);
  if (!path.endsWith('.jsonl')) throw new UsageError(`${flag} must name a .jsonl file, got ${quoted(path)}`);
  return path;
}

/** The one file a subcommand reads; more are refused, not ignored. */
function onePositional(positionals: string[], command: string): string | undefined {
  if (positionals.length > 1) throw new UsageError(`${command} takes one FILE.jsonl, got ${positionals.length}: ${positionals.join(' ')}`);
  return positionals[0];
}

async function seedCommand(io: CommandIO, argv: string[]): Promise<void> {
  const { values } = parseCommandArgs({
    args: argv,
    options: {
      env: { type: 'string' },
      episodes: { type: 'string' },
      mix: { type: 'string' },
      seed: { type: 'string' },
      split: { type: 'string' },
      'per-task': { type: 'string' },
      out: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const spec = envSpec(requireOption(values.env, 'env', ENVIRONMENTS.map((e) => e.name)));
  if (values.episodes === undefined) throw new UsageError('--episodes is required (how many seeding episodes to play)');
  const input = { ...numberFlags(values, { episodes: 'episodes', seed: 'seed', perTask: 'per-task' }), ...stringFlags(values, { mix: 'mix', split: 'split' }) };
  const settings = parseFlags(seedSpec(spec), input, flagNamer(), 'to buffer seed');
  const mix = parseMix(settings.mix);
  const out = requireJsonl(values.out, '--out');
  await checkOutputPath(out, 'out');
  const started = performance.now();
  // The output is a fresh store file: seeding into an existing one would mix runs silently.
  const store = await FileReplayStore.open(out);
  try {
    if ((await store.count()) > 0) throw new UsageError(`${out} already holds transitions; choose a new --out file`);
    const every = Math.max(1, Math.floor(settings.episodes / 10));
    let reported = 0;
    // Ctrl-C or SIGTERM stops after the batch in flight, and the episodes played so far are written.
    const interrupt = new AbortController();
    const withdraw = whenStopAsked((signal) => {
      io.progress(`interrupted (${signal}): stopping after this batch of episodes (those played so far are still written to ${out}); interrupt again to quit now`);
      endsAsStopped(signal);
      interrupt.abort();
    });
    const saves = new SeedSaves(store, () => interrupt.abort());
    const result = await seedBuffer(spec, settings, {
      store,
      signal: interrupt.signal,
      onProgress: async (p) => {
        if (Math.floor(p.episodes / every) > Math.floor(reported / every) || p.episodes === p.total) io.progress(`seeded ${p.episodes}/${p.total} episodes, ${p.transitions} transitions`);
        reported = p.episodes;
        if (saves.due()) await saves.save(p);
      },
    }).finally(withdraw);
    await saves.save(result);
    if (saves.failure) {
      const { episodes, transitions } = saves.saved;
      const held = episodes === 0 ? `${out} holds none of its episodes` : `${out} holds the ${episodes} whole episodes (${transitions} transitions) saved before that`;
      throw new DreamGymError('file-write', `${saves.failure.message}; ${held}, of the ${result.episodes} played`);
    }
    warnEnvErrors(io, { envErrors: result.envErrors, episodes: result.episodes + result.envErrors }, 'episodes played', result.firstEnvError, `their transitions are not written, so ${out} holds ${result.episodes} episodes`);
    const summary = { env: spec.name, episodes: result.episodes, transitions: result.transitions, mix, byAgent: result.byAgent, out, wallSeconds: (performance.now() - started) / 1000, ...(result.envErrors > 0 ? { envErrors: result.envErrors } : {}), ...(result.retried ? { retried: result.retried } : {}), ...(result.stopped ? { stopped: true } : {}) };
    if (values.json) io.out(JSON.stringify(summary));
    else io.out(`${result.transitions} transitions from ${result.episodes} ${spec.name} episodes written to ${out}${result.stopped ? ` (stopped after ${result.episodes} of ${settings.episodes})` : ''}${envErrorText({ retried: result.retried })}`);
  } finally {
    await store.release();
  }
}

/** Seeding saves its file at least this often (and after its first batch): a kill or a full disk loses at most this much of the run. */
const SEED_SAVE_EVERY_MS = 10_000;
/** ...and at most this share of its time goes to saving (each save rewrites the whole file). */
const SEED_SAVE_SHARE = 0.1;

/**
 * The seeding run's saves of its store file as it goes, each whole (file-store.ts): what the file
 * holds is every episode up to the last save that succeeded. A save that fails (a full disk) stops
 * the seeding: `failure` says why and `saved` what the file still holds.
 */
class SeedSaves {
  saved = { episodes: 0, transitions: 0 };
  failure: FileWriteError | null = null;
  private last = -Infinity;
  private took = 0;

  constructor(
    private readonly store: FileReplayStore,
    private readonly stop: () => void,
  ) {}

  due(): boolean {
    return this.failure === null && performance.now() - this.last >= Math.max(SEED_SAVE_EVERY_MS, this.took / SEED_SAVE_SHARE);
  }

  async save(progress: { episodes: number; transitions: number }): Promise<void> {
    if (this.failure !== null) return;
    const started = performance.now();
    try {
      await this.store.save();
      this.saved = { episodes: progress.episodes, transitions: progress.transitions };
    } catch (error) {
      if (!(error instanceof FileWriteError)) throw error;
      this.failure = error;
      this.stop();
    }
    this.last = performance.now();
    this.took = this.last - started;
  }
}

async function importCommand(io: CommandIO, argv: string[]): Promise<void> {
  const { values, positionals } = parseCommandArgs({ args: argv, options: { out: { type: 'string' }, json: { type: 'boolean', default: false } }, allowPositionals: true, strict: true });
  const input = requireJsonl(onePositional(positionals, 'buffer import'), 'buffer import');
  await checkInputFile(input, 'buffer import');
  const out = requireJsonl(values.out, '--out');
  await checkOutputPath(out, 'out');
  // By the file itself, not its path: a hard link to the input is the input too.
  if (await sameFile(input, out)) {
    throw new UsageError(`buffer import: ${input} is the --out store itself; importing a store into itself would double it`);
  }
  const store = await FileReplayStore.open(out);
  try {
    const knownRuns = new Set((await store.runs()).map((r) => r.id));
    const report = await importJsonl(createReadStream(input, { encoding: 'utf8' }), async (batch) => {
      await store.add(batch);
    }, {
      knownEnvs: ENVIRONMENTS.map((e) => e.name),
      // The same file twice (or again after an interrupted import) adds only what the store lacks.
      dropKnown: dropStoredTransitions(store),
      // A store file's own tasks and runs come with its transitions (its statistics belong to its runs' policies, not to this store's).
      onMeta: async (meta) => {
        await store.putTasks(meta.tasks);
        for (const run of meta.runs) if (!knownRuns.has(run.id)) await store.putRun(run);
      },
    }).catch((error: unknown) => {
      // A file that is not JSONL text at all (binary, UTF-16): say which file, and that the store is untouched.
      if (error instanceof InputFormatError) throw new InputFormatError(`${input}: ${error.message}; ${out} was left as it was`);
      throw error;
    });
    // A problem quotes the line's own fields and values (a key or a string of megabytes): bounded.
    for (const problem of report.rejected) io.progress(`${input}:${problem.line}: skipped: ${boundedText(problem.problem)}`);
    if (report.rejectedCount > report.rejected.length) io.progress(`… and ${report.rejectedCount - report.rejected.length} more bad lines`);
    if (report.accepted === 0 && report.duplicates > 0) {
      await store.save();
      const summary = { input, out, lines: report.lines, accepted: 0, duplicates: report.duplicates, rejected: report.rejectedCount, skipped: report.skipped, stored: await store.count() };
      if (values.json) io.out(JSON.stringify(summary));
      else io.out(`nothing new: ${out} already holds all ${report.duplicates} transitions of ${input}${report.rejectedCount > 0 ? `; ${report.rejectedCount} bad lines skipped` : ''}`);
      return;
    }
    if (report.accepted === 0) {
      const first = report.rejected[0];
      throw new DreamGymError(
        'no-transitions',
        `${input} holds no transition to import (${report.lines} lines, ${report.rejectedCount} bad${first ? `; line ${first.line}: ${boundedText(first.problem)}` : ''}); ${out} was left as it was`,
      );
    }
    await store.save();
    const summary = { input, out, lines: report.lines, accepted: report.accepted, duplicates: report.duplicates, rejected: report.rejectedCount, skipped: report.skipped, stored: await store.count() };
    if (values.json) io.out(JSON.stringify(summary));
    else io.out(`${report.accepted} transitions imported into ${out}${report.duplicates > 0 ? `, ${report.duplicates} already there not stored again` : ''}, ${report.rejectedCount} bad lines skipped${report.skipped > 0 ? `, ${report.skipped} blank or $meta lines passed over` : ''} (${report.lines} lines read)`);
  } finally {
    await store.release();
  }
}

async function statsCommand(io: CommandIO, argv: string[]): Promise<void> {
  const { values, positionals } = parseCommandArgs({ args: argv, options: { json: { type: 'boolean', default: false } }, allowPositionals: true, strict: true });
  const path = requireJsonl(onePositional(positionals, 'buffer stats'), 'buffer stats');
  await checkInputFile(path, 'buffer stats');
  const store = new MemoryReplayStore({}, await loadStoreFile(path));
  const counts: Record<string, Record<string, number>> = {};
  for (const spec of ENVIRONMENTS) {
    for (const source of ['real', 'synthetic'] as const) {
      const n = await store.count({ env: spec.name, source });
      if (n > 0) (counts[spec.name] ??= {})[source] = n;
    }
  }
  const summary = { path, transitions: await store.count(), byEnv: counts, runs: (await store.runs()).map((r) => ({ id: r.id, kind: r.kind })), tasks: (await store.taskStats()).length };
  if (values.json) io.out(JSON.stringify(summary));
  else io.out(JSON.stringify(summary, null, 2));
}
