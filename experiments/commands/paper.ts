/**
 * The paper's table on one environment (`paper`), and its report rewritten from its JSON (`rebuild`).
 *
 * `npm run experiment -- paper --env <shop|home|web> --seeds N [--quick] [--regime standard|demos (web)] [--per-task N] [--jobs N] [--rows ID,…] [--work DIR] [--out DIR]`
 *
 * Seeds an offline buffer, fits the neural experience model on it, then trains every row × seed as
 * its own `train` CLI process (`--jobs` at a time, 2 by default) and writes `<out>/<env>-paper.md`,
 * `.json` and `.svg` (`--out` by default `results/paper/quick` or `results/paper/full`, by the
 * preset). A run whose history file is already in the work folder is not run again, so a stopped
 * experiment picks up where it was (its wall time adds up over the invocations, in the work
 * folder's `elapsed.json`). `--rows` runs only those rows (the buffer and the model are made only
 * when a run still to do reads them); the report then shows every row with finished runs and lists
 * the rest as still to run, so a table too long for one sitting grows over several, in a work
 * folder that is committed (`results/paper/full/<env>`). `--regime demos` (web) runs issue 27's
 * demonstrations-only table instead (paper-plan.ts DEMO_PRESETS): the app-like tasks, a buffer of
 * oracle demonstrations and random exploration, no ablation rows; it writes
 * `<out>/web-demos-paper.*`. `--per-task N` gives it N demonstrations of each task instead of 20
 * (recorded in the work folder's settings, so each count needs its own folder).
 *
 * `npm run experiment -- rebuild --env <shop|home|web> [--quick] [--regime standard|demos] [--out DIR]`
 *
 * Rewrites the Markdown and SVG from the report's JSON, running nothing (after a change to how the
 * results are written).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { TrainResult } from '../../src/train/trainer.ts';
import { isOfflineMode } from '../../src/train/modes.ts';
import { errorMessage } from '../../src/core/errors.ts';
import { bufferCommands, fitArgs, withDemonstrationsPerTask, policyFile, regimePresets, regimeRows, savedPolicyRows, selectRows, settingsChanges, setupNeeds, trainArgs, type Preset, type PresetName, type RegimeName, type RowSpec } from '../paper-plan.ts';
import { markdown, svg, type PaperReport, type PaperRow } from '../paper-report.ts';
import { readTrainResult } from '../run-file.ts';
import { cli, usage } from './common.ts';

/** The command as a person would type it, with the work folder written `$WORK`. */
const shellLine = (args: string[], work: string): string =>
  `npm run cli -- ${args.map((a) => a.replace(work, '$WORK')).map((a) => (/^[\w./=,:-]+$/.test(a) ? a : `'${a}'`)).join(' ')}`;

export async function paper(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      env: { type: 'string' },
      seeds: { type: 'string', default: '3' },
      quick: { type: 'boolean', default: false },
      jobs: { type: 'string', default: '2' },
      rows: { type: 'string' },
      regime: { type: 'string', default: 'standard' },
      'per-task': { type: 'string' },
      work: { type: 'string' },
      out: { type: 'string' },
    },
    strict: true,
  });
  const env = values.env ?? usage('--env is required');
  const regime = parseRegime(values.regime);
  const presets = regimePresets(regime);
  if (!(env in presets)) usage(`the ${regime} regime has no env "${env}"; use one of: ${Object.keys(presets).join(', ')}`);
  const seedCount = Number(values.seeds);
  const jobs = Number(values.jobs);
  if (!Number.isInteger(seedCount) || seedCount < 1) usage(`--seeds must be a positive integer, got "${values.seeds}"`);
  if (!Number.isInteger(jobs) || jobs < 1) usage(`--jobs must be a positive integer, got "${values.jobs}"`);
  let selected: RowSpec[];
  try {
    selected = selectRows(values.rows, regimeRows(regime));
  } catch (error) {
    usage(errorMessage(error));
  }
  const presetName: PresetName = values.quick ? 'quick' : 'full';
  let preset: Preset = (presets[env] as Record<PresetName, Preset>)[presetName] as Preset;
  try {
    if (values['per-task'] !== undefined) preset = withDemonstrationsPerTask(preset, Number(values['per-task']));
  } catch (error) {
    usage(errorMessage(error));
  }
  const seeds = Array.from({ length: seedCount }, (_, i) => i + 1);
  const name = reportName(env, regime);
  const work = path.resolve(values.work ?? path.join(tmpdir(), `dreamgym-${name}-${presetName}`));
  await mkdir(path.join(work, 'runs'), { recursive: true });
  // The regimes name their files alike: a work folder belongs to the regime that made it.
  const marker = path.join(work, 'regime.json');
  const madeWith = `${JSON.stringify({ regime, env, preset: presetName, settings: preset })}\n`;
  if (existsSync(marker)) {
    const made = (JSON.parse(await readFile(marker, 'utf8')) as { regime: string; env: string; preset: string; settings?: Preset });
    if (made.regime !== regime || made.env !== env || made.preset !== presetName) usage(`${work} holds the ${made.env} ${made.regime} regime's ${made.preset} runs; give another --work for the ${env} ${regime} regime's ${presetName} ones`);
    // The preset changed since its runs were made (a buffer mix, a budget): they belong to another table.
    const changed = made.settings === undefined ? [] : settingsChanges(made.settings, preset);
    if (changed.length > 0) usage(`${work} holds runs made with other ${env} ${presetName} settings (${changed.join('; ')}); give another --work, or delete ${marker} with the runs (and the buffer and model) those settings change`);
    // A folder from before settings were recorded is taken as made with today's.
    if (made.settings === undefined) await writeFile(marker, madeWith);
  } else await writeFile(marker, madeWith);
  const started = performance.now();
  const buffer = path.join(work, `${env}-buffer.jsonl`);
  const model = path.join(work, `${env}-model.dgx`);
  const seedCommands = bufferCommands(env, preset, buffer);
  const fitCommand = fitArgs(env, preset, buffer, model);
  const historyOf = (row: RowSpec, seed: number): string => path.join(work, 'runs', `${row.id}-s${seed}.json`);
  const queue = selected.flatMap((row) => seeds.map((seed) => ({ row, seed, history: historyOf(row, seed) }))).filter((item) => !existsSync(item.history));
  // A row that starts from another's policy (initFrom) needs that run first: queued before it in this
  // invocation (it is awaited), or saved by an earlier one. A run made before offline rows saved their policies is refused by name.
  const runs = new Map<string, Promise<void>>();
  const savesPolicy = savedPolicyRows(regimeRows(regime));
  for (const item of queue) {
    if (item.row.initFrom === undefined) continue;
    const source = path.join(work, 'runs', `${item.row.initFrom}-s${item.seed}.json`);
    const queued = queue.some((other) => other.history === source);
    if (!queued && !existsSync(policyFile(source))) {
      usage(`${item.row.id} seed ${item.seed} starts from ${policyFile(source)}, which is not there${existsSync(source) ? ` (its run was made before runs saved their policies: delete ${source} and run --rows ${item.row.initFrom} again)` : `: run --rows ${item.row.initFrom} first`}`);
    }
  }
  // The buffer and the model are made only when a run still to do reads them (real rows read neither).
  const setup = setupNeeds(queue.map((item) => item.row));
  if (setup.buffer && !existsSync(buffer)) {
    // Made under another name and renamed when whole, so an interrupted setup is made again, not half used.
    const partial = buffer.replace(/\.jsonl$/, '.partial.jsonl');
    const partialCommands = bufferCommands(env, preset, buffer, partial);
    for (const file of [partial, ...partialCommands.flatMap((c) => c.filter((a) => a.endsWith('.jsonl')))]) await rm(file, { force: true });
    for (const args of partialCommands) await cli(args, 'buffer');
    await rename(partial, buffer);
  }
  if (setup.model && !existsSync(model)) await cli(fitCommand, 'fit');

  let next = 0;
  let finished = 0;
  // Wall time is added up after every run, so an invocation that is stopped keeps what it spent on the runs that finished.
  // One at a time (parallel jobs finish together): each adds the time since the last.
  let counted = started;
  let counting: Promise<number> = Promise.resolve(0);
  const count = (): Promise<number> => {
    counting = counting.then(() => {
      const now = performance.now();
      const seconds = (now - counted) / 1000;
      counted = now;
      return addElapsed(work, seconds);
    });
    return counting;
  };
  const worker = async (): Promise<void> => {
    while (next < queue.length) {
      const item = queue[next++] as (typeof queue)[number];
      // An RL run saves itself every minute and goes on from there when the experiment is run again
      // (a session that ended, a killed process): hours of a full-budget run are not lost.
      const checkpoint = item.history.replace(/\.json$/, '.dgc');
      const settle = (async () => {
        if (item.row.initFrom !== undefined) await runs.get(path.join(work, 'runs', `${item.row.initFrom}-s${item.seed}.json`));
        const saving = isOfflineMode(item.row.mode) ? [] : ['--checkpoint', checkpoint, '--checkpoint-every', '60', ...(existsSync(checkpoint) ? ['--resume'] : [])];
        await cli([...trainArgs(env, preset, item.row, item.seed, { buffer, model, history: item.history, savePolicy: savesPolicy.has(item.row.id) }), ...saving], `${item.row.id} s${item.seed}`);
        if (saving.length > 0) await rm(checkpoint, { force: true });
      })();
      runs.set(item.history, settle);
      await settle;
      await count();
      process.stderr.write(`paper: ${++finished}/${queue.length} runs done (${item.row.id} seed ${item.seed})\n`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, queue.length) }, worker));

  // The report holds every row with the seeds that have finished, in this or an earlier invocation;
  // the rest are listed as still to run, so a table can grow over several sessions.
  const rows: PaperRow[] = [];
  const pending: string[] = [];
  for (const row of regimeRows(regime)) {
    const done = seeds.filter((seed) => existsSync(historyOf(row, seed)));
    if (done.length < seeds.length) pending.push(`${row.id} (seed${seeds.length - done.length > 1 ? 's' : ''} ${seeds.filter((s) => !done.includes(s)).join(', ')})`);
    if (done.length === 0) continue;
    const runs: TrainResult[] = [];
    for (const seed of done) runs.push(await readTrainResult(historyOf(row, seed)));
    // As they ran: a row another starts from names the policy file it saved (`--out`), which that row's `--init` reads.
    const commands = done.map((seed) => shellLine(trainArgs(env, preset, row, seed, { buffer, model, history: historyOf(row, seed), savePolicy: savesPolicy.has(row.id) }), work));
    rows.push({ id: row.id, label: row.label, mode: row.mode, algo: row.algo, seeds: done, commands, runs });
  }
  const report: PaperReport = {
    kind: 'dreamgym-paper-experiment',
    version: 1,
    env,
    ...(regime !== 'standard' ? { regime } : {}),
    preset: presetName,
    settings: preset,
    seeds,
    createdAt: new Date().toISOString(),
    setup: [...seedCommands.map((c) => shellLine(c, work)), shellLine(fitCommand, work)],
    wallSeconds: await count(),
    jobs,
    rows,
    ...(pending.length > 0 ? { pending } : {}),
    // The command for the whole table: `--rows` picked this sitting's share of it.
    invocation: `npm run experiment -- paper ${argv.filter((a, i) => !a.startsWith('--rows') && argv[i - 1] !== '--rows').map((a) => (path.isAbsolute(a) ? path.relative(process.cwd(), a) || '.' : a)).join(' ')}`,
  };
  const out = path.resolve(values.out ?? defaultReportDir(presetName));
  await mkdir(out, { recursive: true });
  const base = path.join(out, name);
  await writeFile(`${base}.json`, `${JSON.stringify(report)}\n`);
  await writeFile(`${base}.svg`, `${svg(report)}\n`);
  await writeFile(`${base}.md`, markdown(report, `${name}.svg`));
  process.stderr.write(`paper: wrote ${base}.md, .json and .svg in ${(report.wallSeconds / 60).toFixed(1)} minutes${pending.length > 0 ? `; still to run: ${pending.join(', ')}` : ''}\n`);
}

function parseRegime(value: string | undefined): RegimeName {
  if (value === 'standard' || value === 'demos') return value;
  usage(`--regime must be standard or demos, got "${value}"`);
}

/** The results' file name: `web-paper`, `web-demos-paper`. */
const reportName = (env: string, regime: RegimeName): string => `${env}${regime === 'standard' ? '' : `-${regime}`}-paper`;

/** Where a report goes without `--out`: the quick and full presets' reports share their file names, so each preset has its folder. */
const defaultReportDir = (preset: PresetName): string => path.join('results', 'paper', preset);

/** Seconds this experiment has run over all its invocations (a resumed one adds to the first). */
async function addElapsed(work: string, seconds: number): Promise<number> {
  const file = path.join(work, 'elapsed.json');
  const before = existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as { seconds: number }).seconds : 0;
  await writeFile(file, JSON.stringify({ seconds: before + seconds }));
  return before + seconds;
}

/** `rebuild`: the Markdown and SVG again from the report's JSON. */
export async function rebuild(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { env: { type: 'string' }, quick: { type: 'boolean', default: false }, regime: { type: 'string', default: 'standard' }, out: { type: 'string' } }, strict: true });
  const env = values.env ?? usage('--env is required');
  const name = reportName(env, parseRegime(values.regime));
  const base = path.join(path.resolve(values.out ?? defaultReportDir(values.quick ? 'quick' : 'full')), name);
  if (!existsSync(`${base}.json`)) usage(`${base}.json does not exist; run the experiment first`);
  const report = JSON.parse(await readFile(`${base}.json`, 'utf8')) as PaperReport;
  await writeFile(`${base}.svg`, `${svg(report)}\n`);
  await writeFile(`${base}.md`, markdown(report, `${name}.svg`));
  process.stderr.write(`paper: rewrote ${base}.md and .svg from ${base}.json\n`);
}
