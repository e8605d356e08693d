import { stat } from 'node:fs/promises';
import { CHECKPOINT_MAX_BYTES, CheckpointError, decodeCheckpoint, DEFAULT_CHECKPOINT_SECONDS, encodeCheckpoint, type TrainCheckpoint } from '../../train/checkpoint.ts';
import type { CheckpointHooks } from '../../train/trainer.ts';
import { historyCsv, historyJsonl } from '../../train/metrics-export.ts';
import type * as v from 'valibot';
import { DreamGymError, UsageError } from '../../core/errors.ts';
import { FileReadError, FileWriteError, readFileBounded, writeFileWhole } from '../../platform/files.ts';
import { ENVIRONMENTS } from '../../envs/registry.ts';
import { exportTrainedPolicy } from '../../jobs/policy-export.ts';
import { ALGORITHMS, LOSS_AVERAGES, LR_SCHEDULES, TRAIN_ONLY, defaultConfig, type AlgoConfig, type AlgoName } from '../../rl/config.ts';
import { parseBackend, useBackend } from '../../platform/tf.ts';
import { Trainer, type DreamOptions, type TrainResult } from '../../train/trainer.ts';
import { buildDream } from '../../jobs/dream.ts';
import { nodeBuildContextFor } from '../../jobs/model-file.ts';
import { bufferFileSource, openBufferFile, seedIntoExisting } from '../../jobs/buffer-file.ts';
import { trainSpec } from '../../jobs/dream-spec.ts';
import type { ExperienceModel } from '../../experience/types.ts';
import type { OfflineTrainer } from '../../train/offline/trainer.ts';
import type { IterationMetrics } from '../../train/metrics.ts';
import { train, type TrainJobHooks } from '../../jobs/train.ts';
import { offlineEpisodes, type OfflineDataSource } from '../../jobs/offline-data.ts';
import { DEFAULT_IMAGINE, DEFAULT_S2R_REAL_BUDGET, isOfflineMode, TRAIN_MODES, type Imagine, type OfflineMode, type RlMode, type TrainMode } from '../../train/modes.ts';
import type { ExperienceModelEntry } from '../../jobs/experience-models/entry.ts';
import { OFFLINE_DEFAULTS, offlineConfig } from '../../train/offline/config.ts';
import { envOfflineSettings, envSettings } from '../../train/env-settings.ts';
import { DEFAULT_CURRICULUM } from '../../curriculum/curriculum.ts';
import { MAX_LEARNING_RATE, MAX_SETTING_COUNT, MIN_LEARNING_RATE, TRAIN_SPECS } from '../../jobs/train-spec.ts';
import { checkOutputPath, type CommandFile, decimalNumber, flagNamer, numberFlags, parseCommandArgs, parseFlags, quoted, refuseOverlaps, requireOption, stringFlags } from '../args.ts';
import { readInputBytes } from '../../jobs/node-args.ts';
import { PRETRAINED, pretrainedOr, pretrainedPaths } from '../../jobs/pretrained.ts';
import type { CommandIO } from '../io.ts';
import { keepResult, throwUnwritten } from '../outputs.ts';
import { envErrorText, warnEnvErrors } from '../env-failures.ts';
import { experienceEntry, experienceFields, experienceFlagNames, experienceFlags, experienceOptions, experienceSettings, experienceUsage } from '../experience-flags.ts';
import { endsAsStopped, whenStopAsked } from '../stop-signals.ts';
import { SiteFailingError } from '../../envs/web/failure-streak.ts';
import { suspectSettings, type Divergence } from '../../rl/divergence.ts';
import { divergedMeasures } from '../../rl/divergence-words.ts';

/** The seeding that gives an offline mode both successes and failures (the paper experiment's mix). */
const OFFLINE_SEED_MIX = 'oracle=0.4,noisy=0.3,random=0.3';

export const trainUsage = (): string =>
  'train --env <shop|home|web> --mode real --algo <ppo|grpo> --real-budget N [--seed S] [--out FILE.dgp] [--init FILE.dgp|pretrained (start from a saved policy, of any env,\n' +
  '        or the shipped pretrained web policy)]\n' +
  '        | --mode dream --algo <ppo|grpo> --synthetic-budget N --buffer SEEDED.jsonl ' + experienceUsage() + '\n' +
  '        | --mode s2r (as dream, then real training) [--real-budget N (default ' + DEFAULT_S2R_REAL_BUDGET + ')]\n' +
  '        | --mode bc|dpo --buffer SEEDED.jsonl (offline, no --algo: behaviour cloning of its successful episodes,\n' +
  '          or DPO on success/failure pairs; --init clones them into a saved or the pretrained policy) [--epochs N] [--lr RATE] [--beta B (dpo)] (defaults: the environment\'s, chosen on its validation\n' +
  '          data, else ' + OFFLINE_DEFAULTS.bc.epochs + ' epochs at ' + OFFLINE_DEFAULTS.bc.learningRate + ' bc, ' + OFFLINE_DEFAULTS.dpo.epochs + ' at ' + OFFLINE_DEFAULTS.dpo.learningRate + ' dpo, β ' + OFFLINE_DEFAULTS.dpo.beta + ')\n' +
  '        [--curriculum on|off (default on in dream and s2r, off in real)] [--lambda SHARE (generated tasks, default ' + DEFAULT_CURRICULUM.lambda + ')]\n' +
  '        [--exploration SHARE (unattempted tasks, default ' + DEFAULT_CURRICULUM.explorationFloor + ')] [--curriculum-outcome success|return (what its variance is over, default ' + DEFAULT_CURRICULUM.outcome + ')]\n' +
  '        [--variations any|same-kind (generated tasks keep the task type, default ' + DEFAULT_CURRICULUM.variations + ')] [--reasoning on|off (dream, s2r: the "without reasoning" ablation)]\n' +
  '        [--imagine sample|likeliest (dream, s2r: the model draws its next states or gives its likeliest, default ' + DEFAULT_IMAGINE + ')]\n' +
  '        [--lr RATE] [--lr-schedule constant|linear] [--loss-average step|trajectory (grpo)] [--set epochs=8,minibatchSize=128,… (numeric PPO/GRPO settings)]\n' +
  '        [--train-only relations (real, dream, s2r: update only the relation weights and the value head, the words\' path left as it started)]\n' +
  '        [--iterations N (stop after N updates; 0 evaluates the untrained policy)] [--train-max-steps N (step limit of training episodes)]\n' +
  '        [--eval-every ITERATIONS (epochs in bc, dpo)] [--eval-episodes N (per evaluation during training; the final one uses\n' +
  '        the whole held-out split unless --final-eval-episodes N)] [--eval-split SPLIT (default the env\'s test split; choose settings on another)]\n' +
  '        [--eval-unseen (bc, dpo: only the split\'s tasks the buffer holds no episode of, e.g. shop\'s train tasks held out)] [--backend wasm|cpu] [--history FILE.json|FILE.csv|FILE.jsonl] [--json]\n' +
  '        [--checkpoint FILE.dgc (real, dream, s2r: save the run every --checkpoint-every SECONDS, default ' + DEFAULT_CHECKPOINT_SECONDS + ')] [--resume (go on from it)]\n' +
  '        Ctrl-C stops after the current iteration and still writes --out and --history';

const OPTIONS = {
  env: { type: 'string' },
  mode: { type: 'string', default: 'real' },
  algo: { type: 'string' },
  'real-budget': { type: 'string' },
  'synthetic-budget': { type: 'string' },
  buffer: { type: 'string' },
  curriculum: { type: 'string' },
  lambda: { type: 'string' },
  exploration: { type: 'string' },
  'curriculum-outcome': { type: 'string' },
  variations: { type: 'string' },
  reasoning: { type: 'string' },
  imagine: { type: 'string' },
  seed: { type: 'string' },
  out: { type: 'string' },
  init: { type: 'string' },
  'eval-every': { type: 'string' },
  iterations: { type: 'string' },
  epochs: { type: 'string' },
  beta: { type: 'string' },
  'train-max-steps': { type: 'string' },
  'eval-episodes': { type: 'string' },
  'eval-split': { type: 'string' },
  'eval-unseen': { type: 'boolean' },
  'final-eval-episodes': { type: 'string' },
  lr: { type: 'string' },
  set: { type: 'string' },
  'lr-schedule': { type: 'string' },
  'loss-average': { type: 'string' },
  'train-only': { type: 'string' },
  backend: { type: 'string', default: 'wasm' },
  history: { type: 'string' },
  checkpoint: { type: 'string' },
  'checkpoint-every': { type: 'string' },
  resume: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
} as const;

/** The command's flags and every experience model's (experience-flags.ts), as parseArgs options. */
export const trainOptions = () => ({ ...OPTIONS, ...experienceOptions() });

type Values = ReturnType<typeof parseCommandArgs<{ options: typeof OPTIONS; strict: true }>>['values'] & Readonly<Record<string, string | boolean | undefined>>;

/** A checked run, ready to start: how to run it and how to word its progress. */
interface Launch {
  backend: string;
  /** The run's first progress line, once its trainer is built. */
  describe: (trainer: Trainer | OfflineTrainer) => string;
  /** An iteration's progress line, before its held-out evaluation (if any). */
  iteration: (m: IterationMetrics) => string;
  start: (hooks: TrainJobHooks) => Promise<{ trainer: Trainer | OfflineTrainer; result: TrainResult }>;
}

export async function trainCommand(io: CommandIO, argv: string[]): Promise<void> {
  const { values } = parseCommandArgs({ args: argv, options: trainOptions(), strict: true }) as { values: Values };
  const env = requireOption(values.env, 'env', ENVIRONMENTS.map((e) => e.name));
  const mode = requireOption(values.mode, 'mode', TRAIN_MODES);
  const checkpointing = await checkpointFlags(values, mode);
  const launch = isOfflineMode(mode) ? await offlineLaunch(io, env, mode, values) : await rlLaunch(io, env, mode, values);
  // Ctrl-C (or a SIGTERM, as `npm run` passes on) stops after the current iteration and still writes
  // the policy and history so far; a second one quits at once (stop-signals.ts).
  const interrupt = new AbortController();
  let running: Trainer | OfflineTrainer | null = null;
  const withdraw = whenStopAsked({
    stop: (signal) => {
      io.progress(`interrupted (${signal}): stopping after this iteration (the policy so far is still written${values.out ? ` to ${values.out}` : ''}); interrupt again to quit now`);
      endsAsStopped(signal);
      interrupt.abort();
    },
    // An iteration stuck past the deadline (a page that never answers): the last finished one's policy is still kept.
    atDeadline: async () => {
      if (running !== null) await writeAtDeadline(io, running, values, launch.backend);
    },
  });
  const { trainer, result } = await launch
    .start({
      signal: interrupt.signal,
      ...(checkpointing ? checkpointing.hooks(io) : {}),
      onStart: (trainer) => {
        running = trainer;
        io.progress(launch.describe(trainer));
      },
      onIteration: (m) => {
        const evalText = m.eval ? ` | held-out success ${(m.eval.successRate * 100).toFixed(1)}% score ${m.eval.meanScore.toFixed(1)}${envErrorText(m.eval)}` : '';
        io.progress(`${launch.iteration(m)}${evalText}`);
      },
    })
    .catch(async (error: unknown) => {
      // A site whose every episode fails stops the run (envs/web/failure-streak.ts): what the run
      // learned so far is still written, and the site's message says where.
      if (!(error instanceof SiteFailingError) || running === null) throw error;
      const written = await writeOutputs(io, running, values, launch.backend);
      throw new SiteFailingError(error.message + (written.wrote.length > 0 ? `. What the run finished is written: ${written.wrote.join(', ')}` : ''), { cause: error });
    })
    .finally(withdraw);
  const { backend } = launch;
  // Each output is tried even when another fails; what failed is the command's error, after the summary.
  const written = await writeOutputs(io, trainer, values, backend, result);
  if (result.diverged) throw divergedError(mode, trainer, result.diverged, written);
  const evaluation = result.eval && {
    split: result.eval.split,
    episodes: result.eval.episodes,
    successRate: result.eval.successRate,
    meanScore: result.eval.meanScore,
    actionsDigest: result.eval.actionsDigest,
    ...(result.eval.envErrors ? { envErrors: result.eval.envErrors } : {}),
    ...(result.eval.stalled ? { stalled: result.eval.stalled } : {}),
    ...(result.eval.retried ? { retried: result.eval.retried } : {}),
  };
  // Training episodes a failing page ended, left out of the updates (trainer.ts).
  const trainingFailures = result.history.reduce((n, m) => n + (m.envErrors ?? 0), 0);
  const summary = {
    env,
    mode,
    algo: result.algo,
    backend,
    realTransitions: result.realTransitions,
    syntheticTransitions: result.syntheticTransitions,
    ...(result.dream ? { dream: result.dream } : {}),
    ...(result.offline ? { offline: result.offline } : {}),
    ...(result.curriculum ? { curriculum: result.curriculum } : {}),
    ...(result.initialPolicy ? { initialPolicy: result.initialPolicy } : {}),
    config: result.config,
    ...(result.stopped ? { stopped: true, iterations: result.iterations } : {}),
    wallSeconds: Number(result.wallSeconds.toFixed(2)),
    ...(trainingFailures > 0 ? { trainingEnvErrors: trainingFailures } : {}),
    eval: evaluation,
  };
  if (values.json) io.result(summary);
  else
    io.out(
      `${env} ${result.algo} (${mode}, ${backend}): ${result.realTransitions} real and ${result.syntheticTransitions} synthetic transitions in ${result.wallSeconds.toFixed(1)} s; ` +
        (result.stopped ? `interrupted after ${result.iterations} iterations; ` : '') +
        (evaluation ? `held-out ${evaluation.split}: success ${(evaluation.successRate * 100).toFixed(1)}%, score ${evaluation.meanScore.toFixed(1)}${envErrorText(evaluation)}` : 'stopped before evaluation'),
    );
  if (evaluation) warnEnvErrors(io, evaluation, 'held-out episodes');
  const trainingEpisodes = result.history.reduce((n, m) => n + m.episodes, 0) + trainingFailures;
  warnEnvErrors(io, { envErrors: trainingFailures, episodes: trainingEpisodes }, 'training episodes', null, 'they were left out of the updates, their steps still counted against the budget');
  throwUnwritten(written.failures);
}

/** What `writeOutputs` wrote (the flags' words, `--out p.dgp`) and what it could not write. */
interface Written {
  wrote: string[];
  failures: (FileWriteError | null)[];
}

/**
 * `--out` and `--history`: the policy as the trainer holds it and the run's history, each tried even
 * when the other fails. `result` is the finished run's; without it (a run ended at its deadline)
 * the history is the iterations finished so far.
 */
async function writeOutputs(io: CommandIO, trainer: Trainer | OfflineTrainer, values: Values, backend: string, result?: TrainResult): Promise<Written> {
  const written: Written = { wrote: [], failures: [] };
  if (values.out) {
    const bytes = await exportTrainedPolicy(trainer, backend);
    const failed = await keepResult(values.out, bytes, `--out ${values.out}`, 'the trained policy');
    if (failed === null) {
      io.progress(`wrote ${values.out} (${bytes.length} bytes)`);
      written.wrote.push(`--out ${values.out}`);
    }
    written.failures.push(failed);
  }
  if (values.history) {
    // .csv and .jsonl: the curve, one row per iteration; .json: the whole result (or, at a deadline, what is known of it).
    const history = values.history;
    const whole = result ?? { env: trainer.options.env, mode: trainer.options.mode, stopped: true, iterations: trainer.history.length, history: trainer.history };
    const text = history.endsWith('.csv') ? historyCsv(whole.history) : history.endsWith('.jsonl') ? historyJsonl(whole.history) : `${JSON.stringify(whole, null, 1)}\n`;
    const failed = await keepResult(history, text, `--history ${history}`, 'the run\'s history');
    if (failed === null) written.wrote.push(`--history ${history}`);
    written.failures.push(failed);
  }
  return written;
}

/**
 * The graceful stop's deadline passed (an iteration stuck on a page): write the policy of the last
 * finished iteration and the history so far, unless an update is changing the weights right now
 * (they are then no iteration's policy, and the last one's is gone).
 */
async function writeAtDeadline(io: CommandIO, trainer: Trainer | OfflineTrainer, values: Values, backend: string): Promise<void> {
  if (!values.out && !values.history) return;
  if (!trainer.settled) {
    io.progress('the policy is halfway through an update, so it is not written; --out and --history are left as they were');
    return;
  }
  const done = trainer.history.length;
  const { wrote, failures } = await writeOutputs(io, trainer, values, backend);
  for (const failure of failures) if (failure !== null) io.progress(`error: ${failure.message}`);
  if (wrote.length > 0) io.progress(`kept the run as it was after iteration ${done} (the last finished): ${wrote.join(', ')}`);
}

/**
 * A run whose update went non-finite: what went, where, the likely cause (a setting far from its
 * default, else the learning rate), and where the policy before it and the history were written.
 */
function divergedError(mode: TrainMode, trainer: Trainer | OfflineTrainer, diverged: Divergence, written: Written): DreamGymError {
  const offline = isOfflineMode(mode);
  const step = offline ? 'epoch' : 'iteration';
  // The settings this run was given, against what it would have used without them.
  const { chosen, defaults } =
    trainer instanceof Trainer
      ? { chosen: trainer.options.algoConfig ?? {}, defaults: { ...defaultConfig(trainer.options.algo), ...envSettings(trainer.spec, trainer.options.algo, trainer.options.mode) } }
      : { chosen: trainer.options.config ?? {}, defaults: offlineConfig(trainer.options.mode, envOfflineSettings(trainer.spec, trainer.options.mode)) };
  const suspects = suspectSettings(chosen as Record<string, unknown>, defaults as Record<string, unknown>);
  const lr = `the learning rate ${diverged.learningRate}`;
  const cause = suspects.length > 0 ? `likely cause: ${suspects.join(', ')}, far from the default; bring it back (--set), or lower ${lr} (--lr)` : `likely cause: ${lr}, too high for this run; lower it with --lr`;
  const before = diverged.iteration - 1;
  const kept = before === 0 ? `the policy as it started (no ${step} finished)` : `the policy of ${step} ${before}, the last with finite weights`;
  const where = written.wrote.length > 0 ? `${kept} and the history so far are written (${written.wrote.join(', ')})` : `nothing was written (add --out FILE.dgp and --history FILE.json to keep ${kept})`;
  const failed = written.failures.filter((f): f is FileWriteError => f !== null).map((f) => `; ${f.message}`).join('');
  const what = divergedMeasures(diverged);
  return new DreamGymError('diverged', `training diverged at ${step} ${diverged.iteration}: its ${what} became NaN or infinite, so the run stopped there; ${cause}. ${capitalised(where)}${failed}`);
}


const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * `--checkpoint FILE [--checkpoint-every SECONDS] [--resume]`, checked before any work: the run saves
 * itself to FILE (written beside and renamed, so a kill mid-write leaves the last good one), and with
 * --resume goes on from it.
 */
async function checkpointFlags(values: Values, mode: TrainMode): Promise<{ hooks: (io: CommandIO) => { checkpoint: CheckpointHooks; resume?: TrainCheckpoint } } | null> {
  const file = values.checkpoint;
  if (file === undefined) {
    if (values.resume) throw new UsageError('--resume goes on from a checkpoint: name it with --checkpoint FILE.dgc');
    if (values['checkpoint-every'] !== undefined) throw new UsageError('--checkpoint-every sets how often --checkpoint FILE.dgc is saved; add --checkpoint');
    return null;
  }
  if (isOfflineMode(mode)) throw new UsageError(`--checkpoint is for the RL modes (real, dream, s2r); --mode ${mode} runs its epochs without checkpoints`);
  if (!file.endsWith('.dgc')) throw new UsageError(`--checkpoint must name a .dgc file, got ${quoted(file)}`);
  const everyText = values['checkpoint-every'];
  const everySeconds = everyText === undefined ? DEFAULT_CHECKPOINT_SECONDS : decimalNumber(everyText);
  if (everyText !== undefined && (everyText.trim() === '' || !Number.isFinite(everySeconds) || everySeconds < 0)) {
    throw new UsageError(`--checkpoint-every must be a number of seconds ≥ 0 (0: after every iteration), got ${quoted(everyText)}`);
  }
  await checkOutputPath(file, 'checkpoint');
  // Without --resume the run would save over the checkpoint of another (a forgotten --resume loses an interrupted run).
  if (!values.resume && (await stat(file).catch(() => null))?.isFile()) {
    throw new UsageError(`--checkpoint ${file} already holds a run: add --resume to go on from it, or remove the file (or name another) to start anew`);
  }
  let resume: TrainCheckpoint | undefined;
  if (values.resume) {
    const bytes = await readFileBounded(file, CHECKPOINT_MAX_BYTES).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') throw new UsageError(`--resume: there is no checkpoint at ${file} yet (start the run without --resume to make one)`);
      if (error instanceof FileReadError) throw new UsageError(`--checkpoint ${error.message}`);
      throw error;
    });
    try {
      resume = decodeCheckpoint(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    } catch (error) {
      if (error instanceof CheckpointError) throw new CheckpointError(error.problem, `--checkpoint ${file}: ${error.message}`, { cause: error });
      throw error;
    }
  }
  return {
    hooks: (io) => {
      if (resume) io.progress(`resuming from ${file}: ${resume.progress.iteration} iterations done, ${resume.progress.realTransitions} real and ${resume.progress.syntheticTransitions} synthetic transitions (saved ${resume.savedAt})`);
      // A checkpoint that cannot be saved (a full disk) is reported and the run trains on, as in the
      // app: the last one saved stays whole, and the policy is still written at the end.
      const save = async (checkpoint: TrainCheckpoint): Promise<void> => {
        try {
          await writeFileWhole(file, encodeCheckpoint(checkpoint), `the checkpoint ${file}`);
        } catch (error) {
          if (!(error instanceof FileWriteError)) throw error;
          io.progress(`warning: ${error.message}; training goes on`);
        }
      };
      return { checkpoint: { everySeconds, save }, ...(resume ? { resume } : {}) };
    },
  };
}

const HISTORY_FORMATS = ['.json', '.csv', '.jsonl'];

/** The file `pretrained` stands for where it is there; the word itself where it is not (its reader then says how to make it). */
function pretrainedInput(value: string, kind: 'policy' | 'model'): string {
  return value === PRETRAINED ? pretrainedPaths()[kind] : value;
}

/** `--out` and `--history`, refused before any work when they cannot be written (their endings keep them apart, and apart from `--checkpoint`'s). */
async function checkOutputs(values: Values): Promise<void> {
  if (values.out !== undefined && !values.out.endsWith('.dgp')) throw new UsageError(`--out must name a .dgp file, got ${quoted(values.out)}`);
  if (values.history !== undefined && !HISTORY_FORMATS.some((ending) => values.history?.endsWith(ending))) {
    throw new UsageError(`--history must name a .json (the whole result), .csv or .jsonl (the curve) file, got ${quoted(values.history)}`);
  }
  if (values.out !== undefined) await checkOutputPath(values.out, 'out');
  if (values.history !== undefined) await checkOutputPath(values.history, 'history');
  const named = (pairs: [flag: string, path: string | undefined][]): CommandFile[] => pairs.filter((p): p is [string, string] => p[1] !== undefined).map(([flag, path]) => ({ flag, path }));
  // A checkpoint is read (with --resume) and written by the run itself; it may be neither another input nor another output.
  await refuseOverlaps(
    named([['--buffer', values.buffer], ['--model', typeof values.model === 'string' ? pretrainedInput(values.model, 'model') : undefined], ['--init', values.init === undefined ? undefined : pretrainedInput(values.init, 'policy')]]),
    named([['--out', values.out], ['--history', values.history], ['--checkpoint', values.checkpoint]]),
  );
}

/** The evaluation flags (every mode's, and bc and dpo's --eval-unseen, which the other modes' specs refuse by name), and the learning rate, as spec fields. */
const heldOutFields = (values: Values) => ({
  ...numberFlags(values, { seed: 'seed', evalEvery: 'eval-every', evalEpisodes: 'eval-episodes', finalEvalEpisodes: 'final-eval-episodes', learningRate: 'lr' }),
  ...stringFlags(values, { evalSplit: 'eval-split' }),
  ...(values['eval-unseen'] !== undefined ? { evalUnseen: values['eval-unseen'] } : {}),
});

function checkEvalEpisodes(settings: { evalEpisodes?: number | undefined; evalEvery: number }): void {
  if (settings.evalEpisodes !== undefined && settings.evalEvery === 0) {
    throw new UsageError('--eval-episodes sizes the evaluations during training: add --eval-every N, or size the final one with --final-eval-episodes');
  }
}

/** Modes real, dream and s2r: PPO or GRPO, in the real environment, the dream, or both. */
async function rlLaunch(io: CommandIO, env: string, mode: RlMode, values: Values): Promise<Launch> {
  const algo = requireOption(values.algo, 'algo', ALGORITHMS);
  const dreaming = mode !== 'real';
  if (mode === 'dream') {
    if (values['real-budget'] !== undefined && values['real-budget'] !== '0') throw new UsageError('--mode dream trains with 0 real transitions: drop --real-budget (or give 0) and set --synthetic-budget, or use --mode s2r');
  } else if (mode === 'real') {
    if (values['real-budget'] === undefined) throw new UsageError('--real-budget is required (real environment transitions, e.g. 80000)');
    if (values['synthetic-budget'] !== undefined || values.experience !== undefined) throw new UsageError('--synthetic-budget and --experience go with --mode dream or s2r');
    if (values.reasoning !== undefined) throw new UsageError('--reasoning goes with --mode dream or s2r (it ablates the experience model)');
    if (values.imagine !== undefined) throw new UsageError('--imagine goes with --mode dream or s2r (it sets how the experience model answers)');
    for (const flag of ['buffer', ...experienceFlags()]) {
      if (values[flag] !== undefined) throw new UsageError(`--${flag} goes with --mode dream or s2r (the experience model and its buffer); drop it`);
    }
  }
  if (values.epochs !== undefined) throw new UsageError(`--epochs is the budget of --mode bc and dpo; PPO/GRPO's passes over each update are --set epochs=N`);
  if (dreaming && values['synthetic-budget'] === undefined) throw new UsageError(`--mode ${mode} needs --synthetic-budget N (synthetic transitions, e.g. 80000)`);
  const experience = dreaming ? experienceEntry(values) : undefined;
  const input = {
    ...heldOutFields(values),
    ...numberFlags(values, {
      realBudget: 'real-budget',
      syntheticBudget: 'synthetic-budget',
      iterations: 'iterations',
      epochs: 'epochs',
      beta: 'beta',
      trainMaxSteps: 'train-max-steps',
      lambda: 'lambda',
      explorationFloor: 'exploration',
    }),
    ...stringFlags(values, { curriculum: 'curriculum', reasoning: 'reasoning', imagine: 'imagine', buffer: 'buffer', curriculumOutcome: 'curriculum-outcome', variations: 'variations' }),
    ...experienceFields(values),
  };
  const fieldName = flagNamer({ learningRate: '--lr', explorationFloor: '--exploration', ...experienceFlagNames() });
  const settings = parseFlags(trainSpec(mode, experience?.kind), input, fieldName, experience ? `with --experience ${experience.kind}` : `with --mode ${mode}`) as v.InferOutput<typeof TRAIN_SPECS.real> & DreamSettings;
  const { realBudget, seed } = settings;
  if (settings.curriculum === 'off' && (['lambda', 'exploration', 'curriculum-outcome', 'variations'] as const).some((flag) => values[flag] !== undefined)) {
    throw new UsageError('--lambda, --exploration, --curriculum-outcome and --variations set the curriculum; drop them or use --curriculum on');
  }
  checkEvalEpisodes(settings);
  await checkOutputs(values);
  const schedule = values['lr-schedule'] === undefined ? undefined : requireOption(values['lr-schedule'], 'lr-schedule', LR_SCHEDULES);
  if (values['loss-average'] !== undefined && algo !== 'grpo') throw new UsageError('--loss-average is a GRPO setting; drop it or use --algo grpo');
  const lossAverage = values['loss-average'] === undefined ? undefined : requireOption(values['loss-average'], 'loss-average', LOSS_AVERAGES);
  const trainOnly = values['train-only'] === undefined ? undefined : requireOption(values['train-only'], 'train-only', TRAIN_ONLY);
  const algoConfig: Partial<AlgoConfig> = {
    ...(values.set !== undefined ? parseConfigOverrides(values.set, algo) : {}),
    ...(settings.learningRate !== undefined ? { learningRate: settings.learningRate } : {}),
    ...(schedule !== undefined ? { learningRateSchedule: schedule } : {}),
    ...(lossAverage !== undefined ? { lossAverage } : {}),
    ...(trainOnly !== undefined ? { trainOnly } : {}),
  };
  const initialPolicy = await initialPolicyFile(values.init);
  const backend = await useBackend([parseBackend(values.backend)]);
  const dream = settings.syntheticBudget !== undefined && experience ? await dreamOptions(experience, settings, { env, buffer: values.buffer }, io) : undefined;
  const curriculum = settings.curriculum === 'on';
  const unusable = dream ? unusableOutputWatch(dream.model) : () => '';
  return {
    backend,
    describe: (trainer) =>
      (dream
        ? `train ${env}/${mode}/${algo} on ${backend}: ${dream.syntheticBudget} synthetic transitions from ${dream.model.name} (k=${dream.k}, ${dream.offlineTransitions} offline real transitions${dream.reasoning === false ? ', without reasoning' : ''}, ${dream.imagine ?? DEFAULT_IMAGINE}), ${realBudget} real, seed ${seed}`
        : `train ${env}/${mode}/${algo} on ${backend}: budget ${realBudget} real transitions, seed ${seed}`) +
      (curriculum ? `, curriculum λ=${trainer.curriculum?.config.lambda} by ${trainer.curriculum?.config.outcome}, ${trainer.curriculum?.config.variations} variations` : ', no curriculum') +
      settingsText(trainer.config as AlgoConfig, defaultConfig(algo)),
    iteration: (m) => {
      const c = m.curriculum;
      const curriculumText = c ? `, tasks ${c.byVariance} by variance (mean ${c.meanVariance.toFixed(3)}) + ${c.explored} new + ${c.generated} generated, pool ${c.pool}` : '';
      return (
        `iter ${m.iteration}: ${m.phase === 'dream' && dream ? `${m.syntheticTransitions}/${dream.syntheticBudget} synthetic` : `${m.realTransitions}/${realBudget} real`}, success ${(m.successRate * 100).toFixed(1)}%, ` +
        `score ${m.meanScore.toFixed(1)}, entropy ${m.entropy.toFixed(2)}, kl ${m.approxKl.toFixed(4)}, ${Math.round(m.samplesPerSecond)} samples/s${curriculumText}${unusable()}`
      );
    },
    start: (hooks) => train({ env, mode, algo, backend, run: settings, curriculum, algoConfig, dream, statsStore: dream?.buffer?.store, initialPolicy, onNotice: (text) => io.progress(text) }, hooks),
  };
}

/**
 * Modes bc and dpo: the policy trained on `--buffer`'s real episodes, no environment step but the
 * held-out evaluations. The flags of the RL modes are refused by name (the spec takes none of them).
 */
async function offlineLaunch(io: CommandIO, env: string, mode: OfflineMode, values: Values): Promise<Launch> {
  const seedCommand = `buffer seed --env ${env} --episodes 200 --mix ${OFFLINE_SEED_MIX} --out ${values.buffer ?? 'FILE.jsonl'}`;
  if (values.algo !== undefined) throw new UsageError(`--algo does not apply with --mode ${mode} (it trains with its own loss); drop it`);
  if (values['real-budget'] !== undefined || values['synthetic-budget'] !== undefined) {
    throw new UsageError(`--mode ${mode} takes no environment transition (it trains on --buffer's episodes for --epochs): drop --real-budget and --synthetic-budget`);
  }
  for (const flag of ['set', 'lr-schedule', 'loss-average', 'train-only'] as const) {
    if (values[flag] !== undefined) throw new UsageError(`--${flag} is a PPO/GRPO setting and does not apply with --mode ${mode}; drop it`);
  }
  if (values.iterations !== undefined) throw new UsageError(`--iterations does not apply with --mode ${mode}: its budget is --epochs N (passes over the buffer's episodes); drop it`);
  if (values.buffer === undefined) throw new UsageError(`--mode ${mode} trains on a replay buffer's real episodes: --buffer FILE.jsonl is required (make one with: ${seedCommand})`);
  const initialPolicy = await initialPolicyFile(values.init);
  const input = {
    ...heldOutFields(values),
    ...numberFlags(values, { epochs: 'epochs', beta: 'beta', iterations: 'iterations', trainMaxSteps: 'train-max-steps', lambda: 'lambda', explorationFloor: 'exploration' }),
    ...stringFlags(values, { curriculum: 'curriculum', reasoning: 'reasoning', imagine: 'imagine', buffer: 'buffer', curriculumOutcome: 'curriculum-outcome', variations: 'variations' }),
    ...experienceFields(values),
    ...(values.experience !== undefined ? { experience: values.experience } : {}),
  };
  const settings = parseFlags(TRAIN_SPECS[mode], input, flagNamer({ learningRate: '--lr', explorationFloor: '--exploration' }), `with --mode ${mode}`);
  checkEvalEpisodes(settings);
  await checkOutputs(values);
  const backend = await useBackend([parseBackend(values.backend)]);
  const buffer = await openBufferFile(values.buffer);
  const purpose = mode === 'bc' ? 'seed it with the oracle' : 'seed it with the oracle and agents that fail';
  const source: OfflineDataSource = { name: values.buffer, howToSeed: `${purpose}, into a new file, and import it: ${seedIntoExisting(values.buffer, env, `--episodes 200 --mix ${OFFLINE_SEED_MIX}`)}` };
  const data = await offlineEpisodes(buffer.store, env, source);
  const { seed } = settings;
  // The trainer settles the epochs (the flag, else the environment's, else the mode's); the progress lines read them from it.
  let epochs = 0;
  return {
    backend,
    describe: (trainer) => {
      const { config } = trainer as OfflineTrainer;
      epochs = config.epochs;
      const offline = (trainer as OfflineTrainer).summary();
      const what = offline.pairs
        ? `${offline.pairs.total} preference pairs (${offline.pairs.state} state-level, ${offline.pairs.trajectory} trajectory-level; ${offline.pairs.sameTask} same-task, ${offline.pairs.neighbour} by the nearest instruction)`
        : `${offline.steps} steps of ${offline.successes} successful episodes`;
      // Said once the trainer has accepted the data, so a refused buffer prints nothing but its refusal.
      io.progress(`buffer ${source.name}: ${data.offlineTransitions} offline real transitions, ${data.count.episodes} whole episodes (${data.count.successes} successful)`);
      return `train ${env}/${mode} on ${backend}: ${epochs} epochs over ${what}, lr ${config.learningRate}${config.algo === 'dpo' ? `, β ${config.beta}` : ''}, 0 environment transitions, seed ${seed}`;
    },
    iteration: (m) => {
      const o = m.offline;
      const measured = o ? (o.margin !== undefined ? `loss ${o.loss.toFixed(4)}, margin ${o.margin.toFixed(3)}, pairs ahead ${(o.accuracy * 100).toFixed(1)}%` : `loss ${o.loss.toFixed(4)}, agreement ${(o.accuracy * 100).toFixed(1)}%`) : '';
      return `epoch ${m.iteration}/${epochs}: ${measured}, entropy ${m.entropy.toFixed(2)}, ${Math.round(m.samplesPerSecond)} steps/s`;
    },
    start: (hooks) => train({ env, mode, backend, run: settings, data, initialPolicy }, hooks),
  };
}

/** `--init FILE.dgp | pretrained`: the saved policy a run (RL or offline) starts from, read whole before any work. */
async function initialPolicyFile(init: string | undefined): Promise<{ name: string; bytes: Uint8Array } | undefined> {
  if (init === undefined) return undefined;
  const path = pretrainedOr(init, 'policy');
  if (!path.endsWith('.dgp')) throw new UsageError(`--init must name a .dgp policy file (or the word pretrained), got ${quoted(init)}`);
  return { name: init === PRETRAINED ? `pretrained (${path})` : path, bytes: await readInputBytes(path, '--init') };
}

/** What a dreaming run's spec holds beyond the real mode's: the dream's settings and the model's (its registry entry's). */
type DreamSettings = Readonly<Record<string, unknown>> & { syntheticBudget?: number; reasoning?: 'on' | 'off'; imagine?: Imagine };

/** Mode dream's experience model and the offline buffer its retrieval reads, set up by the dream job. */
async function dreamOptions(experience: ExperienceModelEntry, settings: DreamSettings, files: { env: string; buffer: string | undefined }, io: CommandIO): Promise<DreamOptions> {
  const { env, buffer: bufferFile } = files;
  const chosen = experienceSettings(experience, settings);
  const context = await nodeBuildContextFor(experience, chosen, undefined, { predictions: settings.syntheticBudget as number, onWorkerLost: (reason) => io.progress(`warning: ${reason}`) });
  const buffer = await openBufferFile(bufferFile);
  const dream = await buildDream({
    env,
    experience: { kind: experience.kind, settings: chosen },
    context,
    store: buffer.store,
    openBuffer: async () => buffer,
    source: bufferFileSource(bufferFile, env),
    syntheticBudget: settings.syntheticBudget as number,
    reasoning: settings.reasoning,
    imagine: settings.imagine,
  });
  io.progress(`buffer ${bufferFile}: ${dream.offlineTransitions} offline real transitions`);
  return dream;
}

/** Where a quarter or more of an iteration's predictions were unusable, the share that was. */
const UNUSABLE_WARNING_SHARE = 0.25;

/**
 * A warning for the iteration's progress line when the experience model's output could not be used
 * in many of its predictions (an endpoint that answers in prose): each such step ends its episode
 * as a failure, so the run trains on nothing, and the figures alone would not say why.
 */
function unusableOutputWatch(model: ExperienceModel): () => string {
  let seen = model.stats();
  return () => {
    const now = model.stats();
    const predictions = now.predictions - seen.predictions;
    const invalid = now.invalidOutputs - seen.invalidOutputs;
    seen = now;
    if (predictions === 0 || invalid / predictions < UNUSABLE_WARNING_SHARE) return '';
    return ` | warning: the experience model's output could not be used in ${invalid} of its ${predictions} predictions (each ends its episode as a failure)`;
  };
}

/** The settings that differ from the algorithm's defaults (the environment's and the caller's), for the progress line. */
function settingsText(config: AlgoConfig, defaults: AlgoConfig): string {
  const changed = Object.entries(config).filter(([key, value]) => defaults[key as keyof AlgoConfig] !== value);
  return changed.length === 0 ? '' : `, settings ${changed.map(([key, value]) => `${key}=${value}`).join(' ')}`;
}

const COUNT_SETTINGS = new Set(['epochs', 'minibatchSize', 'parallelEnvs', 'episodesPerIteration', 'rolloutsPerTask', 'tasksPerIteration', 'groupSize']);

/**
 * The numeric settings with a narrower range than ≥ 0: a value outside it trains nothing (a rate or
 * a gradient clip of 0) or diverges, and would otherwise pass unnoticed. The learning rate's is
 * `--lr`'s. A clip or KL bound of "none" is the setting left unset, not 0.
 */
const SETTING_RANGES: Record<string, { min: number; max: number; minOpen?: boolean; text: string }> = {
  learningRate: { min: MIN_LEARNING_RATE, max: MAX_LEARNING_RATE, text: `in [${MIN_LEARNING_RATE}, ${MAX_LEARNING_RATE}] (as --lr)` },
  maxGradNorm: { min: 0, max: Infinity, minOpen: true, text: '> 0' },
  clip: { min: 0, max: Infinity, minOpen: true, text: '> 0' },
  targetKl: { min: 0, max: Infinity, minOpen: true, text: '> 0' },
  valueClip: { min: 0, max: Infinity, minOpen: true, text: '> 0' },
  gamma: { min: 0, max: 1, text: 'in [0, 1]' },
  gaeLambda: { min: 0, max: 1, text: 'in [0, 1]' },
};

/** `--set key=value,…`: numeric fields of the algorithm's config (see rl/config.ts), checked by name. */
function parseConfigOverrides(text: string, algo: AlgoName): Partial<AlgoConfig> {
  const defaults = defaultConfig(algo) as unknown as Record<string, unknown>;
  const numeric = Object.keys(defaults).filter((k) => typeof defaults[k] === 'number');
  const out: Record<string, number> = {};
  for (const part of text.split(',')) {
    const [key, value, ...extra] = part.split('=').map((x) => x.trim());
    if (!key || value === undefined || extra.length > 0) throw new UsageError(`--set takes key=value pairs separated by commas, got ${quoted(part)}`);
    if (!numeric.includes(key)) throw new UsageError(`--set: ${quoted(key)} is not a numeric ${algo} setting; use one of: ${numeric.join(', ')}`);
    const n = decimalNumber(value);
    if (COUNT_SETTINGS.has(key)) {
      if (!Number.isInteger(n) || n < 1 || n > MAX_SETTING_COUNT) throw new UsageError(`--set ${key} must be a positive integer ≤ ${MAX_SETTING_COUNT.toLocaleString('en-US')}, got ${quoted(value)}`);
    } else {
      const range = SETTING_RANGES[key] ?? { min: 0, max: Infinity, text: '≥ 0' };
      const inRange = Number.isFinite(n) && (range.minOpen ? n > range.min : n >= range.min) && n <= range.max;
      if (!inRange) throw new UsageError(`--set ${key} must be a number ${range.text}, got ${quoted(value)}`);
    }
    out[key] = n;
  }
  return out as Partial<AlgoConfig>;
}
