/**
 * `npm run experiment -- paper --env <shop|home|web> --seeds 3 [--quick] [--jobs 2] [--rows ID,…] [--work DIR] [--out DIR]`
 *
 * Runs the paper's table on one environment: seeds an offline buffer, fits the neural experience
 * model on it, then trains every row × seed as its own `train` CLI process (`--jobs` at a time) and
 * writes `<out>/<env>-paper.md`, `.json` and `.svg` (`--out` by default `results/paper/quick` or `results/paper/full`, by the preset). A run whose history file is already in the
 * work folder is not run again, so a stopped experiment picks up where it was (its wall time adds
 * up over the invocations, in the work folder's `elapsed.json`). `--rows` runs only those rows (the
 * buffer and the model are made only when a run still to do reads them); the report then shows
 * every row with finished runs and lists the rest as still to run, so a table too long for one
 * sitting grows over several, in a work folder that is committed (`results/paper/full/<env>`).
 * `--regime demos` (web) runs issue 27's demonstrations-only table instead (paper-plan.ts
 * DEMO_PRESETS): the app-like tasks, a buffer of oracle demonstrations and random exploration, no
 * ablation rows; it writes `<out>/web-demos-paper.*`. `--per-task N` gives it N demonstrations of
 * each task instead of 20 (recorded in the work folder's settings, so each count needs its own folder).
 *
 * `npm run experiment -- rebuild --env <shop|home|web> [--quick] [--regime demos] [--out DIR]` rewrites the Markdown and SVG from
 * the report's JSON, running nothing (after a change to how the results are written).
 *
 * `npm run experiment -- real-table --env <shop|home> [--dir results/real-baseline]` prints the real-mode
 * baseline's table (results/real-baseline/README.md) from `<env>-<algo>-seed<S>.json` and `.eval.json` there.
 *
 * `npm run experiment -- by-type --env <shop|home|web> --policy <FILE.dgp|untrained> [--seed S] [--split NAME] [--episodes N (drawn with the seed; default the whole split)]`
 * prints greedy success per task type on the whole split as JSON (`untrained`: the policy `train
 * --seed S` starts from, before any update).
 *
 * `npm run experiment -- feature-digest --env <shop|home|web> [--episodes 60] [--seed 3]` prints a
 * digest of the policy's features on the noisy expert's and the random agent's seeded test-split
 * steps: the same digest at two commits means the same policy inputs (see feature-digest.ts).
 *
 * `npm run experiment -- episode-steps FILE.json …` prints, per home `--history` file, how its
 * training steps split between won and lost episodes (see episode-steps.ts).
 *
 * `npm run experiment -- purchases --policy FILE.dgp --model FILE.dgx --buffer FILE.jsonl` prints a
 * shop policy's greedy purchases on the test split by why they fell short, each with its real
 * reward and the neural experience model's, how many products each episode opened, and whether each
 * wanted option a purchase missed was offered on its page or lacking from the product, and per kind
 * how often the product was the store's first result and its page named every wanted attribute (see purchases.ts).
 *
 * `npm run experiment -- policy-steps --env <shop|home> --policy <FILE.dgp|shopper|oracle|noisy|random> --model FILE.dgx --buffer FILE.jsonl [--episodes 200] [--split NAME]`
 * prints the neural model's teacher-forced fidelity on a policy's own greedy real steps on the
 * held-out split (or NAME), by kind of page and action (see policy-steps.ts).
 *
 * `npm run experiment -- missed-successes --env <shop|home> --policy FILE.dgp --model FILE.dgx --buffer FILE.jsonl [--heldout 1000] [--k 3] [--seed 1]`
 * prints every real success among a policy's own greedy held-out steps with the neural model's
 * prediction and the examples retrieval gave it (see missed-successes.ts); with `--false`, every
 * step the model calls a success that was not one.
 *
 * `npm run experiment -- buffer-attributes --buffer FILE.jsonl` prints, for a shop buffer's real
 * purchases, how often a wanted attribute the bought product's title does not show was met, for the
 * task's target and for other products (see buffer-attributes.ts).
 *
 * `npm run experiment -- curriculum-variance --env <shop|home> --policy <FILE.dgp|untrained> --model FILE.dgx --buffer FILE.jsonl [--experience neural|knn] [--tasks 60] [--group 8] [--split train] [--seed 1] [--k 3] [--train-max-steps N] [--imagine sample|likeliest]`
 * plays `--group` sampled episodes of each of `--tasks` tasks inside the experience model (the
 * dream's own synthetic env) and as many in the real env, and prints as JSON each task's success and
 * outcome variance on both sides and how well the in-model variance the curriculum selects by
 * stands for the real one: correlations, the real variance of the top quarter by in-model variance
 * against all tasks', and the tasks that vary on one side only (see curriculum-variance.ts).
 *
 * `npm run experiment -- dream-scripted --env <shop|home> --model FILE.dgx --buffer FILE.jsonl [--agent oracle] [--tasks 40] [--split train] [--seed 1] [--k 3] [--train-max-steps N] [--imagine sample|likeliest]`
 * plays a scripted agent once in the real env and once inside the model on each task and prints, as
 * JSON, both outcomes and the first step where the model's own predictions part from the real
 * episode (free-running fidelity, see dream-scripted.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { TrainResult } from '../src/train/trainer.ts';
import { DEFAULT_IMAGINE, IMAGINE_MODES, isOfflineMode, type Imagine } from '../src/train/modes.ts';
import { bufferCommands, fitArgs, withDemonstrationsPerTask, policyFile, regimePresets, regimeRows, savedPolicyRows, selectRows, settingsChanges, setupNeeds, trainArgs, type Preset, type PresetName, type RegimeName, type RowSpec } from './paper-plan.ts';
import { markdown, svg, type PaperReport, type PaperRow } from './paper-report.ts';
import { realTable, type RealRun } from './real-table.ts';
import { countByType, meanByGroup } from './by-type.ts';
import { featureDigest } from './feature-digest.ts';
import { closePageHosts } from '../src/envs/web/hosts.ts';
import { episodeSteps } from './episode-steps.ts';
import { tallyAttributes } from './buffer-attributes.ts';
import { scoresByStep, stepKind } from './policy-steps.ts';
import { measureFidelity, type HeldoutTransition, type TransitionScore } from '../src/experience/fidelity.ts';
import { replayEpisodes } from '../src/envs/replay-episodes.ts';
import { readRunFile, readTrainResult, rolloutEvalSchema } from './run-file.ts';
import { missedSuccesses } from './missed-successes.ts';
import { curriculumVariance } from './curriculum-variance.ts';
import { dreamScripted } from './dream-scripted.ts';
import { bufferFileSource, openBufferFile } from '../src/jobs/buffer-file.ts';
import { buildDream } from '../src/jobs/dream.ts';
import { nodeBuildContextFor } from '../src/jobs/model-file.ts';
import { experienceModel } from '../src/jobs/experience-models/registry.ts';
import { K } from '../src/jobs/experience-models/retrieval-k.ts';
import { parseSpec } from '../src/jobs/spec.ts';
import * as v from 'valibot';
import { DreamGymError, errorMessage, isArgumentError, UsageError } from '../src/core/errors.ts';
import { shopWorld } from '../src/envs/shop/world.ts';
import { isShopGoal, type ShopGoal } from '../src/envs/shop/goal.ts';
import type { Product } from '../src/envs/shop/catalog.ts';
import { elementFields, parseState } from '../src/core/state.ts';
import { missedOptions, productsOpened, purchaseEvidence, purchaseKind, summarizeEvidence, summarizePurchases, type PurchaseEvidence, type PurchaseKind } from './purchases.ts';
import type { RewardBreakdown } from '../src/envs/shop/reward.ts';
import { importNeuralModel } from '../src/experience/neural/model-io.ts';
import type { ExperienceInput } from '../src/experience/types.ts';
import { loadStoreFile } from '../src/replay/file-store.ts';
import { MemoryReplayStore } from '../src/replay/memory-store.ts';
import { ReplayBuffer } from '../src/replay/retrieval.ts';
import { intOption, readInputBytes } from '../src/jobs/node-args.ts';
import { siteOptions, useSite } from '../src/jobs/site.ts';
import { endQuietlyWhenStdoutCloses } from '../src/platform/closed-stdout.ts';
import { envSpec } from '../src/envs/registry.ts';
import { rollout, SCRIPTED_POLICIES } from '../src/envs/episode.ts';
import type { Task } from '../src/core/types.ts';
import { DEFAULT_POLICY, Policy } from '../src/policy/policy.ts';
import { importPolicy } from '../src/policy/policy-file.ts';
import type { Trajectory } from '../src/rl/rollout.ts';
import { useBackend } from '../src/platform/tf.ts';
import { evaluatePolicy } from '../src/train/evaluate.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const CLI = path.join(ROOT, 'src', 'cli', 'main.ts');

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: npm run experiment -- paper --env <shop|home|web> --seeds N [--quick] [--regime standard|demos (web)] [--per-task N (demos: demonstrations of each task, default 20)] [--jobs N] [--rows ID,…] [--work DIR] [--out DIR]\n       npm run experiment -- rebuild --env <shop|home|web> [--quick] [--regime standard|demos] [--out DIR]\n       npm run experiment -- real-table --env <shop|home> [--dir results/real-baseline]\n       npm run experiment -- by-type --env <shop|home|web> --policy <FILE.dgp|untrained> [--seed S] [--split NAME] [--episodes N (drawn with the seed; default the whole split)]\n       npm run experiment -- feature-digest --env <shop|home|web> [--episodes 60] [--seed 3]
       npm run experiment -- episode-steps FILE.json …  (home --history files)\n       npm run experiment -- purchases --policy FILE.dgp --model FILE.dgx --buffer FILE.jsonl [--k 3]  (shop)\n       npm run experiment -- buffer-attributes --buffer FILE.jsonl  (shop)\n       npm run experiment -- policy-steps --env <shop|home> --policy <FILE.dgp|shopper|oracle|noisy|random> --model FILE.dgx --buffer FILE.jsonl [--episodes 200] [--k 3] [--split NAME]\n       npm run experiment -- missed-successes --env <shop|home> --policy FILE.dgp --model FILE.dgx --buffer FILE.jsonl [--heldout 1000] [--k 3] [--seed 1] [--false]\n       npm run experiment -- curriculum-variance --env <shop|home> --policy <FILE.dgp|untrained> --model FILE.dgx --buffer FILE.jsonl [--experience neural|knn] [--tasks 60] [--group 8] [--split train] [--seed 1] [--k 3] [--train-max-steps N] [--imagine sample|likeliest]\n       npm run experiment -- dream-scripted --env <shop|home|web> --model FILE.dgx --buffer FILE.jsonl [--agent oracle] [--tasks 40] [--split train] [--seed 1] [--k 3] [--train-max-steps N] [--imagine sample|likeliest] [--trace (every step of both sides)]\n       every experiment also takes [--site DIR] [--web-tasks a,b|@app] (web: the CLI's --site and --tasks)\n`);
  process.exit(2);
}

/** Run the CLI; stderr lines go to our stderr with a prefix, and a failure says which command. */
function cli(args: string[], label: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // One process per run (node with tsx's loader, not the tsx wrapper): a stopped experiment stops its runs.
    const child = spawn(process.execPath, [...process.execArgv, CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let tail = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      tail = (tail + chunk).slice(-4000);
      for (const line of chunk.split('\n')) if (line.trim() && !line.includes('npm warn') && !/tfjs-node|===|Hi, looks like/.test(line)) process.stderr.write(`[${label}] ${line}\n`);
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${label} failed (exit ${code}): tsx src/cli/main.ts ${args.join(' ')}\n${tail}`))));
  });
}

/** The command as a person would type it, with the work folder written `$WORK`. */
const shellLine = (args: string[], work: string): string =>
  `npm run cli -- ${args.map((a) => a.replace(work, '$WORK')).map((a) => (/^[\w./=,:-]+$/.test(a) ? a : `'${a}'`)).join(' ')}`;

async function paper(argv: string[]): Promise<void> {
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

async function rebuild(argv: string[]): Promise<void> {
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

async function printRealTable(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { env: { type: 'string' }, dir: { type: 'string', default: 'results/real-baseline' } }, strict: true });
  const env = values.env ?? usage('--env is required');
  const pattern = new RegExp(`^${env}-(ppo|grpo)-seed(\\d+)\\.json$`);
  const runs: RealRun[] = [];
  for (const file of (await readdir(values.dir)).sort()) {
    const match = pattern.exec(file);
    if (!match) continue;
    const base = path.join(values.dir, file.slice(0, -'.json'.length));
    if (!existsSync(`${base}.eval.json`)) usage(`${base}.eval.json is missing: run rollout on ${base}.dgp first`);
    runs.push({
      algo: match[1] as string,
      seed: Number(match[2]),
      history: await readTrainResult(`${base}.json`),
      final: (await readRunFile(`${base}.eval.json`, rolloutEvalSchema, 'rollout result (rollout --json)')) as RealRun['final'],
    });
  }
  if (runs.length === 0) usage(`no ${env}-<algo>-seed<S>.json runs in ${values.dir}`);
  process.stdout.write(`${realTable(env, runs)}\n`);
}

async function printByType(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { env: { type: 'string' }, policy: { type: 'string' }, seed: { type: 'string', default: '0' }, split: { type: 'string' }, episodes: { type: 'string' } }, strict: true });
  const spec = envSpec(values.env ?? usage('--env is required'));
  const episodes = values.episodes === undefined ? undefined : intOption(values.episodes, 'episodes', 0, 1);
  const file = values.policy ?? usage('--policy FILE.dgp or --policy untrained is required');
  await useBackend(['wasm']);
  const policy = file === 'untrained' ? new Policy(DEFAULT_POLICY, Number(values.seed)) : importPolicy(new Uint8Array(await readFile(file))).policy;
  const outcomes: Trajectory[] = [];
  const result = await evaluatePolicy({ spec, policy, split: values.split ?? spec.testSplit, ...(episodes === undefined ? {} : { episodes, seed: Number(values.seed) }), onEpisode: (t) => outcomes.push(t) });
  const byType = countByType(outcomes);
  process.stdout.write(`${JSON.stringify({ env: spec.name, policy: file, split: result.split, episodes: result.episodes, successRate: result.successRate, byGroup: meanByGroup(byType), byType })}\n`);
}

async function printFeatureDigest(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { env: { type: 'string' }, episodes: { type: 'string' }, seed: { type: 'string' } }, strict: true });
  const spec = envSpec(values.env ?? usage('--env is required'));
  const result = await featureDigest(spec, { episodes: intOption(values.episodes, 'episodes', 60, 1), seed: intOption(values.seed, 'seed', 3, 0) });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

async function printEpisodeSteps(files: string[]): Promise<void> {
  if (files.length === 0) usage('name one or more --history files');
  for (const file of files) {
    const run = await readTrainResult(file);
    // Only home's episodes end on success or at the step limit alone; a shop episode ends at Buy Now.
    if (run.env !== 'home') usage(`${file} is a ${run.env} run; episode-steps needs home runs (losses there always reach the step limit)`);
    const steps = episodeSteps(run.history, envSpec(run.env).maxSteps);
    process.stdout.write(`${JSON.stringify({ file, algo: run.algo, seed: run.seed, ...steps })}\n`);
  }
}

/** A shop policy's real purchases, and an experience model's reward for each (see purchases.ts). */
async function printPurchases(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { policy: { type: 'string' }, model: { type: 'string' }, buffer: { type: 'string' }, k: { type: 'string' } }, strict: true });
  const k = kOption(values.k);
  const policyFile = values.policy ?? usage('--policy FILE.dgp is required');
  const modelFile = values.model ?? usage('--model FILE.dgx is required');
  const bufferFile = values.buffer ?? usage('--buffer FILE.jsonl is required (the offline data the model retrieves from)');
  await useBackend(['wasm']);
  const spec = envSpec('shop');
  const { policy } = importPolicy(new Uint8Array(await readFile(policyFile)));
  const { model } = importNeuralModel(new Uint8Array(await readFile(modelFile)));
  const buffer = await ReplayBuffer.open(new MemoryReplayStore({}, await loadStoreFile(bufferFile)));
  const trajectories: Trajectory[] = [];
  await evaluatePolicy({ spec, policy, split: spec.testSplit, onEpisode: (t) => trajectories.push(t) });
  const episodes = await replayEpisodes(spec, trajectories);
  const purchases: { input: ExperienceInput; real: number; kind: PurchaseKind; missing: string[]; evidence: PurchaseEvidence }[] = [];
  // Each episode's steps as texts, once: the purchases' evidence and the products opened read them.
  const walked = episodes.map((e) => e.steps.map((s) => ({ state: s.state.text, action: s.action, next: s.result.observation.text })));
  for (const [e, { task, steps }] of episodes.entries()) {
    for (const [i, { state, action, result, history }] of steps.entries()) {
      const score = result.info['score'] as RewardBreakdown | undefined;
      if (!result.done || !score) continue;
      const evidence = purchaseEvidence((walked[e] ?? []).slice(0, i + 1), isShopGoal(task.goal) ? task.goal.attributes : []);
      purchases.push({ input: { task, history, state, action, examples: [] }, real: result.reward, kind: purchaseKind(score), missing: score.missingOptions, evidence });
    }
  }
  const missed = missedOptions(
    purchases.map((p) => ({ state: p.input.state.text, goalOptions: isShopGoal(p.input.task.goal) ? p.input.task.goal.options : {}, missing: p.missing })),
  );
  const examples = await buffer.nearest(purchases.map((p) => ({ instruction: p.input.task.instruction, state: p.input.state, action: p.input.action })), k, { env: 'shop', source: 'real' });
  const predictions = await model.predict(purchases.map((p, i) => ({ ...p.input, examples: examples[i] ?? [] })));
  const rows = purchases.map((p, i) => ({ kind: p.kind, real: p.real, predicted: predictions[i]?.reward ?? 0 }));
  process.stdout.write(`${JSON.stringify({ policy: policyFile, model: modelFile, buffer: bufferFile, split: spec.testSplit, episodes: trajectories.length, productsOpened: productsOpened(walked), missedOptions: missed, byKind: summarizePurchases(rows), evidenceByKind: summarizeEvidence(purchases.map((p) => ({ kind: p.kind, ...p.evidence }))) })}\n`);
}

/** A shop buffer's purchases: which wanted attributes the bought product's title hides, and whether they were met. */
async function printBufferAttributes(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { buffer: { type: 'string' } }, strict: true });
  const bufferFile = values.buffer ?? usage('--buffer FILE.jsonl is required');
  const { transitions } = await loadStoreFile(bufferFile);
  const world = shopWorld();
  const tasks = new Map([...world.tasks.train, ...world.tasks.test].map((t) => [t.id, t]));
  const byTitle = new Map(world.catalog.products.map((p) => [p.title, p]));
  const purchases: { product: Product; selected: Record<string, string>; goal: ShopGoal }[] = [];
  let unresolved = 0;
  for (const t of transitions) {
    if (t.source !== 'real' || t.env !== 'shop' || t.action !== 'click[Buy Now]') continue;
    // The item page's first text line is the product's title (envs/shop/pages.ts); a chosen
    // option reads `value | type | selected`.
    const state = parseState(t.state.text);
    const title = state.elements.find((e) => e.kind === 'text')?.text;
    const product = title === undefined ? undefined : byTitle.get(title);
    const goal = tasks.get(t.taskId)?.goal;
    const chosen = state.elements.filter((e) => e.kind === 'option').map(elementFields).filter((f) => f[2] === 'selected');
    const selected = Object.fromEntries(chosen.map(([value, type]) => [type as string, value as string]));
    if (product && isShopGoal(goal)) purchases.push({ product, selected, goal });
    else unresolved++;
  }
  process.stdout.write(`${JSON.stringify({ buffer: bufferFile, unresolved, ...tallyAttributes(purchases) })}\n`);
}

/** The neural model, teacher-forced, on a policy's own greedy real steps (see policy-steps.ts). */
async function printPolicySteps(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { env: { type: 'string' }, policy: { type: 'string' }, model: { type: 'string' }, buffer: { type: 'string' }, episodes: { type: 'string' }, k: { type: 'string' }, split: { type: 'string' } }, strict: true });
  const spec = envSpec(values.env ?? usage('--env is required'));
  // The train split holds the buffer's own tasks: what the dream gets right where it has seen the task.
  const split = values.split ?? spec.testSplit;
  const episodes = intOption(values.episodes, 'episodes', 200, 1);
  const k = kOption(values.k);
  const policyName = values.policy ?? usage(`--policy <FILE.dgp|${SCRIPTED_POLICIES.join('|')}> is required`);
  const modelFile = values.model ?? usage('--model FILE.dgx is required');
  const bufferFile = values.buffer ?? usage('--buffer FILE.jsonl is required (the offline data the model retrieves from)');
  await useBackend(['wasm']);
  const { model } = importNeuralModel(new Uint8Array(await readFile(modelFile)));
  const buffer = await ReplayBuffer.open(new MemoryReplayStore({}, await loadStoreFile(bufferFile)));
  const played: { task: Task; steps: { action: string }[] }[] = [];
  if (policyName.endsWith('.dgp')) {
    const { policy } = importPolicy(new Uint8Array(await readFile(policyName)));
    await evaluatePolicy({ spec, policy, split, episodes, onEpisode: (t) => played.push(t) });
  } else {
    // A scripted agent's episodes: the shopper goes back when a page lacks a wanted option, which
    // a dream policy's greedy episodes rarely show.
    const agent = SCRIPTED_POLICIES.find((p) => p === policyName) ?? usage(`--policy must be a .dgp file or one of: ${SCRIPTED_POLICIES.join(', ')}`);
    await rollout({ spec, policy: agent, split, episodes, seed: 0, onEpisode: (_, record) => played.push(record) });
  }
  const heldout: HeldoutTransition[] = (await replayEpisodes(spec, played)).flatMap(({ task, steps }) =>
    steps.map(({ state, action, result, history }) => ({
      task,
      history,
      transition: { runId: 'policy', taskId: task.id, env: spec.name, instruction: task.instruction, history: history.map((h) => h.action), state, action, next: result.observation, reward: result.reward, done: result.done, source: 'real' as const, createdAt: 0 },
    })),
  );
  const { scores } = await measureFidelity({ model, buffer, k, heldout });
  const rows = heldout.map((h, i) => ({ kind: stepKind(h.transition.state, h.transition.action, h.history), score: scores[i] as TransitionScore }));
  process.stdout.write(`${JSON.stringify({ env: spec.name, policy: policyName, model: modelFile, buffer: bufferFile, split, episodes: played.length, ...scoresByStep(rows) })}\n`);
}

async function printMissedSuccesses(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { env: { type: 'string' }, policy: { type: 'string' }, model: { type: 'string' }, buffer: { type: 'string' }, heldout: { type: 'string' }, k: { type: 'string' }, seed: { type: 'string' }, false: { type: 'boolean', default: false } },
    strict: true,
  });
  const spec = envSpec(values.env ?? usage('--env is required'));
  const policyFile = values.policy ?? usage('--policy FILE.dgp is required');
  const modelFile = values.model ?? usage('--model FILE.dgx is required');
  const bufferFile = values.buffer ?? usage('--buffer FILE.jsonl is required (the offline data the model retrieves from)');
  await useBackend(['wasm']);
  const { model } = importNeuralModel(new Uint8Array(await readFile(modelFile)));
  const { policy } = importPolicy(new Uint8Array(await readFile(policyFile)));
  const buffer = await ReplayBuffer.open(new MemoryReplayStore({}, await loadStoreFile(bufferFile)));
  const which = values.false ? 'false' : 'real';
  const rows = await missedSuccesses(spec, { policy, model, buffer, k: kOption(values.k), heldout: intOption(values.heldout, 'heldout', 1000, 1), seed: intOption(values.seed, 'seed', 1, 0), which });
  for (const row of rows) process.stdout.write(`${JSON.stringify(row)}\n`);
  process.stderr.write(which === 'real' ? `${rows.length} real successes, ${rows.filter((r) => r.predicted.success).length} predicted\n` : `${rows.length} false successes\n`);
}

function imagineOption(value: string | undefined): Imagine {
  return IMAGINE_MODES.find((m) => m === value) ?? usage(`--imagine must be one of: ${IMAGINE_MODES.join(', ')}; got "${value}"`);
}

/** `--k`, with the one bound every caller uses (jobs/experience-models/retrieval-k.ts). */
function kOption(text: string | undefined): number {
  return parseSpec(v.object({ k: K }), text === undefined ? {} : { k: text.trim() === '' ? Number.NaN : Number(text) }, () => '--k').k;
}

/** What a dream over a model and its buffer needs, set up by the dream job as `train` sets it up. */
async function loadDream(env: string, experience: 'neural' | 'knn', modelFile: string | undefined, bufferFile: string, k: number) {
  const choice = { kind: experience, settings: { k, ...(experience === 'neural' ? { model: modelFile } : {}) } };
  const context = await nodeBuildContextFor(experienceModel(experience), choice.settings);
  const buffer = await openBufferFile(bufferFile);
  // The synthetic budget is the caller's (these experiments play a fixed number of episodes instead).
  return buildDream({
    env,
    experience: choice,
    context,
    store: buffer.store,
    openBuffer: async () => buffer,
    source: bufferFileSource(bufferFile, env),
    syntheticBudget: 0,
  });
}

/** Whether the curriculum's in-model outcome variance picks the tasks whose real outcome varies (see curriculum-variance.ts). */
async function printCurriculumVariance(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      env: { type: 'string' },
      policy: { type: 'string' },
      model: { type: 'string' },
      buffer: { type: 'string' },
      experience: { type: 'string', default: 'neural' },
      tasks: { type: 'string' },
      group: { type: 'string' },
      split: { type: 'string' },
      seed: { type: 'string' },
      k: { type: 'string' },
      'train-max-steps': { type: 'string' },
      imagine: { type: 'string', default: DEFAULT_IMAGINE },
    },
    strict: true,
  });
  const spec = envSpec(values.env ?? usage('--env is required'));
  const policyName = values.policy ?? usage('--policy FILE.dgp or --policy untrained is required');
  const imagine = imagineOption(values.imagine);
  const experience = values.experience === 'knn' ? 'knn' : values.experience === 'neural' ? 'neural' : usage(`--experience must be neural or knn, got "${values.experience}"`);
  if (experience === 'neural' && values.model === undefined) usage('--model FILE.dgx is required (or --experience knn)');
  if (experience === 'knn' && values.model !== undefined) usage('--model goes with --experience neural; drop it');
  const bufferFile = values.buffer ?? usage('--buffer FILE.jsonl is required (the offline data the model retrieves from)');
  const split = values.split ?? 'train';
  const tasks = intOption(values.tasks, 'tasks', 60, 1);
  const group = intOption(values.group, 'group', 8, 2);
  const seed = intOption(values.seed, 'seed', 1, 0);
  const k = kOption(values.k);
  const trainMaxSteps = values['train-max-steps'] === undefined ? undefined : intOption(values['train-max-steps'], 'train-max-steps', 0, 1);
  spec.tasks(split); // an unknown split is refused before anything is loaded
  const backend = await useBackend(['wasm']);
  let policy: Policy | 'untrained' = 'untrained';
  if (policyName !== 'untrained') {
    const { policy: loaded, header } = importPolicy(await readInputBytes(policyName, '--policy'));
    if (header.env !== spec.name) {
      loaded.dispose();
      throw new UsageError(`--policy ${policyName} is a policy for "${header.env}", not "${spec.name}"`);
    }
    policy = loaded;
  }
  const dream = { ...(await loadDream(spec.name, experience, values.model, bufferFile, k)), imagine };
  const started = performance.now();
  const report = await curriculumVariance(spec, { policy, dream, tasks, group, split, seed, trainMaxSteps, backend });
  const wallSeconds = Number(((performance.now() - started) / 1000).toFixed(1));
  process.stdout.write(`${JSON.stringify({ policy: policyName, model: values.model ?? experience, buffer: bufferFile, seed, k, wallSeconds, ...report })}\n`);
  const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
  const { success: s } = report;
  process.stderr.write(
    `${report.tasks} tasks × ${group}: success ${pct(report.successRate.model)} in the model, ${pct(report.successRate.real)} real; success variance Pearson ${s.pearson?.toFixed(3) ?? '—'}, Spearman ${s.spearman?.toFixed(3) ?? '—'}; ` +
      `real variance ${s.topQuarter.meanRealVariance.toFixed(3)} in the top quarter by in-model variance (${s.topQuarter.varying} of ${s.topQuarter.tasks} vary there) vs ${s.meanRealVariance.toFixed(3)} over all; ` +
      `${pct(s.realVariesModelNever)} vary only really, ${pct(s.modelVariesRealNever)} only in the model (${wallSeconds} s)\n`,
  );
}

/** A scripted agent in the real env and inside the model, step by step (see dream-scripted.ts). */
async function printDreamScripted(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      env: { type: 'string' },
      model: { type: 'string' },
      buffer: { type: 'string' },
      agent: { type: 'string', default: 'oracle' },
      tasks: { type: 'string' },
      split: { type: 'string' },
      seed: { type: 'string' },
      k: { type: 'string' },
      'train-max-steps': { type: 'string' },
      imagine: { type: 'string', default: DEFAULT_IMAGINE },
      trace: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const spec = envSpec(values.env ?? usage('--env is required'));
  const imagine = imagineOption(values.imagine);
  const agent = SCRIPTED_POLICIES.find((p) => p === values.agent) ?? usage(`--agent must be one of: ${SCRIPTED_POLICIES.join(', ')}`);
  const modelFile = values.model ?? usage('--model FILE.dgx is required');
  const bufferFile = values.buffer ?? usage('--buffer FILE.jsonl is required (the offline data the model retrieves from)');
  const split = values.split ?? 'train';
  const k = kOption(values.k);
  const trainMaxSteps = values['train-max-steps'] === undefined ? undefined : intOption(values['train-max-steps'], 'train-max-steps', 0, 1);
  spec.tasks(split);
  const backend = await useBackend(['wasm']);
  const dream = { ...(await loadDream(spec.name, 'neural', modelFile, bufferFile, k)), imagine };
  const started = performance.now();
  const report = await dreamScripted(spec, { agent, dream, tasks: intOption(values.tasks, 'tasks', 40, 1), split, seed: intOption(values.seed, 'seed', 1, 0), trainMaxSteps, backend, trace: values.trace });
  const wallSeconds = Number(((performance.now() - started) / 1000).toFixed(1));
  process.stdout.write(`${JSON.stringify({ model: modelFile, buffer: bufferFile, k, wallSeconds, ...report })}\n`);
  const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
  process.stderr.write(
    `${report.tasks} tasks, ${agent}: won ${pct(report.successRate.real)} real, ${pct(report.successRate.model)} inside the model (${pct(report.wonBothOfRealWins)} of the real wins); ` +
      `mean score ${report.meanScore.real.toFixed(3)} real, ${report.meanScore.model.toFixed(3)} inside the model; ` +
      `${report.firstDivergence.tasks} diverged, first at step ${report.firstDivergence.meanStep?.toFixed(1) ?? '—'} on average (${wallSeconds} s)\n`,
  );
}

const EXPERIMENTS: Record<string, (argv: string[]) => Promise<void>> = {
  'dream-scripted': printDreamScripted,
  'missed-successes': printMissedSuccesses,
  'curriculum-variance': printCurriculumVariance,
  paper,
  'real-table': printRealTable,
  'by-type': printByType,
  'feature-digest': printFeatureDigest,
  rebuild,
  'episode-steps': printEpisodeSteps,
  purchases: printPurchases,
  'buffer-attributes': printBufferAttributes,
  'policy-steps': printPolicySteps,
};

/**
 * `--site DIR` and `--web-tasks a,b|@app`, which every experiment takes: the CLI's `--site` and
 * `--tasks` (which pages the web env is), named apart because `--tasks` counts tasks in some
 * experiments. Returns the other arguments.
 */
function takeWebSite(args: readonly string[]): string[] {
  const { rest, site } = siteOptions(args, '--web-tasks');
  if (site) useSite(site.dir, site.tasks);
  return rest;
}

endQuietlyWhenStdoutCloses();
const [name, ...args] = process.argv.slice(2);
const experiment = name === undefined ? undefined : EXPERIMENTS[name];
if (!experiment) usage(name === undefined ? 'which experiment?' : `unknown experiment "${name}"`);
try {
  await experiment(takeWebSite(args));
} catch (error) {
  // An option the experiment does not take (--help, a typo): the message and the usage, not node's stack.
  if (isArgumentError(error)) usage(`${name}: ${error.message}`);
  // A damaged input file (or any refusal of ours) is one line that names it, not a stack trace.
  if (!(error instanceof DreamGymError)) throw error;
  process.stderr.write(`error: ${error.message}\n`);
  process.exitCode = 1;
} finally {
  // The web env's pages: close the browser so the process can end.
  await closePageHosts();
}
