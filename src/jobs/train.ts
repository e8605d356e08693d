/**
 * `train`: the one entry point that turns a checked training run into a Trainer and runs it, for
 * the CLI's `train` (and through it the experiments) and the app's trainer worker. The caller maps
 * its flags or form onto the job's spec (train-spec.ts), which owns every default and bound, and
 * brings what only it can open: the tfjs backend, the experience model and the offline buffer.
 */
import type { CurriculumOutcome, VariationScope } from '../curriculum/curriculum.ts';
import type { ReplayStore } from '../replay/store.ts';
import type { AlgoConfig, AlgoName } from '../rl/config.ts';
import { TrainControl } from '../train/control.ts';
import type { IterationMetrics } from '../train/metrics.ts';
import { isOfflineMode, type OfflineMode, type RlMode } from '../train/modes.ts';
import { OfflineTrainer, type OfflineTrainOptions } from '../train/offline/trainer.ts';
import { Trainer, type CheckpointHooks, type DreamOptions, type TrainResult } from '../train/trainer.ts';
import type { TrainCheckpoint } from '../train/checkpoint.ts';
import { UsageError } from '../core/errors.ts';

/** The numbers a run's spec checked, defaults filled in: the CLI's `TRAIN_SPECS` or the app's `APP_TRAIN_SPECS`. */
export interface CheckedTrainRun {
  seed: number;
  /** Absent or 0 in mode dream. */
  realBudget?: number;
  evalEvery: number;
  /** The split evaluations play; default the environment's test split. */
  evalSplit?: string | undefined;
  evalEpisodes?: number | undefined;
  finalEvalEpisodes?: number | undefined;
  iterations?: number | undefined;
  trainMaxSteps?: number | undefined;
  /** The curriculum's settings (read only when `curriculum` is on; the app's form leaves the last two at their defaults). */
  lambda: number;
  explorationFloor: number;
  curriculumOutcome?: CurriculumOutcome | undefined;
  variations?: VariationScope | undefined;
}

export interface TrainJob {
  env: string;
  mode: RlMode;
  algo: AlgoName;
  /** The tfjs backend the caller started (recorded in the result). */
  backend: string;
  run: CheckedTrainRun;
  /** Choose tasks with the curriculum (by outcome variance, λ cap on generated tasks); otherwise uniformly. */
  curriculum: boolean;
  /** The algorithm's settings the caller changes (the environment's own are applied by the trainer). */
  algoConfig?: Partial<AlgoConfig> | undefined;
  /** Told when memory lowers the web pages played at once (TrainOptions.onNotice): the CLI's stderr. */
  onNotice?: ((text: string) => void) | undefined;
  /** Modes dream and s2r: the experience model and the offline data it retrieves from (see offline-data.ts). */
  dream?: DreamOptions | undefined;
  /** Where per-task outcomes and generated tasks are recorded, if anywhere. */
  statsStore?: ReplayStore | null | undefined;
  /** Train only on tasks at most this difficult (quick demos, tests). */
  maxDifficulty?: number | undefined;
  /** Start from this saved policy (`--init`; TrainOptions.initialPolicy). */
  initialPolicy?: { name: string; bytes: Uint8Array } | undefined;
}

/** An offline run's numbers as the CLI's `TRAIN_SPECS.bc` / `.dpo` checked them, defaults filled in. */
export interface CheckedOfflineRun {
  seed: number;
  /** Passes over the data: the run's iterations. Default: the environment's, else the offline modes' (offline/config.ts). */
  epochs?: number | undefined;
  evalEvery: number;
  evalSplit?: string | undefined;
  /** Evaluate only on the split's tasks the data holds no episode of. */
  evalUnseen?: boolean | undefined;
  evalEpisodes?: number | undefined;
  finalEvalEpisodes?: number | undefined;
  /** Default: the offline modes' (offline/config.ts). */
  learningRate?: number | undefined;
  /** DPO's β. */
  beta?: number | undefined;
}

/** Modes bc and dpo: the same policy, trained on the offline buffer's real episodes. */
export interface OfflineTrainJob {
  env: string;
  mode: OfflineMode;
  backend: string;
  run: CheckedOfflineRun;
  /** The buffer's episodes, read by `offlineEpisodes` (offline-data.ts). */
  data: OfflineTrainOptions['data'];
  /** Start from this saved policy (`--init`; OfflineTrainOptions.initialPolicy). */
  initialPolicy?: { name: string; bytes: Uint8Array } | undefined;
}

export interface TrainJobHooks<T extends Trainer | OfflineTrainer = Trainer | OfflineTrainer> {
  /** The trainer, built and checked, before its first iteration: the place to announce the run or keep a handle on it. */
  onStart?: (trainer: T) => void;
  onIteration?: (metrics: IterationMetrics) => void;
  onEvalProgress?: (done: number, total: number) => void;
  /** Pause and resume as well as stop (the app's buttons). */
  control?: TrainControl;
  /** Stop after the current iteration; the run still returns its result (and its policy can be exported). */
  signal?: AbortSignal;
  /** RL modes: save a checkpoint at an interval (train/checkpoint.ts), for `resume` after a crash or a reload. */
  checkpoint?: CheckpointHooks;
  /** RL modes: go on from this checkpoint of the same run (refused, before `onStart`, if it is another run's). */
  resume?: TrainCheckpoint;
}

/** The job's settings mapped onto the trainer's options, in one place for every caller. Throws on settings the trainer refuses. */
export function createTrainer(job: TrainJob): Trainer {
  const { run } = job;
  return new Trainer({
    env: job.env,
    mode: job.mode,
    algo: job.algo,
    realBudget: run.realBudget ?? 0,
    seed: run.seed,
    backend: job.backend,
    evalEvery: run.evalEvery,
    ...(job.algoConfig ? { algoConfig: job.algoConfig } : {}),
    ...(job.onNotice ? { onNotice: job.onNotice } : {}),
    ...(job.curriculum
      ? {
          curriculum: {
            config: {
              lambda: run.lambda,
              explorationFloor: run.explorationFloor,
              ...(run.curriculumOutcome !== undefined ? { outcome: run.curriculumOutcome } : {}),
              ...(run.variations !== undefined ? { variations: run.variations } : {}),
            },
          },
        }
      : {}),
    ...(job.dream ? { dream: job.dream } : {}),
    ...(job.statsStore ? { statsStore: job.statsStore } : {}),
    ...(run.iterations !== undefined ? { maxIterations: run.iterations } : {}),
    ...(run.trainMaxSteps !== undefined ? { trainMaxSteps: run.trainMaxSteps } : {}),
    ...(run.evalSplit !== undefined ? { evalSplit: run.evalSplit } : {}),
    ...(run.evalEpisodes !== undefined ? { evalEpisodes: run.evalEpisodes } : {}),
    ...(run.finalEvalEpisodes !== undefined ? { finalEvalEpisodes: run.finalEvalEpisodes } : {}),
    ...(job.maxDifficulty !== undefined ? { maxDifficulty: job.maxDifficulty } : {}),
    ...(job.initialPolicy ? { initialPolicy: job.initialPolicy } : {}),
  });
}

/** An offline job's settings mapped onto its trainer's options. Throws when the data holds nothing the mode can learn from. */
export function createOfflineTrainer(job: OfflineTrainJob): OfflineTrainer {
  const { run } = job;
  return new OfflineTrainer({
    env: job.env,
    mode: job.mode,
    seed: run.seed,
    backend: job.backend,
    data: job.data,
    config: {
      ...(run.epochs !== undefined ? { epochs: run.epochs } : {}),
      ...(run.learningRate !== undefined ? { learningRate: run.learningRate } : {}),
      ...(run.beta !== undefined ? { beta: run.beta } : {}),
    },
    evalEvery: run.evalEvery,
    ...(run.evalSplit !== undefined ? { evalSplit: run.evalSplit } : {}),
    ...(run.evalUnseen ? { evalUnseen: true } : {}),
    ...(run.evalEpisodes !== undefined ? { evalEpisodes: run.evalEpisodes } : {}),
    ...(run.finalEvalEpisodes !== undefined ? { finalEvalEpisodes: run.finalEvalEpisodes } : {}),
    ...(job.initialPolicy ? { initialPolicy: job.initialPolicy } : {}),
  });
}

/**
 * Build the trainer (an RL mode's or an offline mode's) and run it until its budget is spent, its
 * iterations or epochs are done, or `signal` (or `control`) stops it. A job the trainer refuses
 * throws before `onStart`, so a caller can tell a bad request (nothing started) from a run that failed.
 */
export function train(job: TrainJob, hooks?: TrainJobHooks<Trainer>): Promise<{ trainer: Trainer; result: TrainResult }>;
export function train(job: OfflineTrainJob, hooks?: TrainJobHooks<OfflineTrainer>): Promise<{ trainer: OfflineTrainer; result: TrainResult }>;
export function train(job: TrainJob | OfflineTrainJob, hooks?: TrainJobHooks<Trainer> | TrainJobHooks<OfflineTrainer>): Promise<{ trainer: Trainer | OfflineTrainer; result: TrainResult }>;
export async function train(
  job: TrainJob | OfflineTrainJob,
  hooks: TrainJobHooks<Trainer> | TrainJobHooks<OfflineTrainer> = {},
): Promise<{ trainer: Trainer | OfflineTrainer; result: TrainResult }> {
  const trainer = isOfflineJob(job) ? createOfflineTrainer(job) : createTrainer(job);
  if (trainer instanceof Trainer) {
    if (hooks.resume) trainer.resumeFrom(hooks.resume);
  } else if (hooks.checkpoint || hooks.resume) {
    throw new UsageError(`mode ${job.mode} runs its epochs without checkpoints (they are minutes long); checkpoints are for the RL modes`);
  }
  const control = hooks.control ?? new TrainControl();
  const stop = () => control.stop();
  if (hooks.signal?.aborted) stop();
  hooks.signal?.addEventListener('abort', stop, { once: true });
  try {
    // The overloads pair each job with hooks for its own trainer.
    (hooks.onStart as ((trainer: Trainer | OfflineTrainer) => void) | undefined)?.(trainer);
    const result = await trainer.run({
      control,
      ...(hooks.onIteration ? { onIteration: hooks.onIteration } : {}),
      ...(hooks.onEvalProgress ? { onEvalProgress: hooks.onEvalProgress } : {}),
      ...(hooks.checkpoint && trainer instanceof Trainer ? { checkpoint: hooks.checkpoint } : {}),
    });
    return { trainer, result };
  } finally {
    hooks.signal?.removeEventListener('abort', stop);
  }
}

function isOfflineJob(job: TrainJob | OfflineTrainJob): job is OfflineTrainJob {
  return isOfflineMode(job.mode);
}
