/**
 * The training loop. Mode `real` samples train-split tasks, collects episodes in the real
 * environment, updates with PPO or GRPO, and evaluates greedily on the held-out split at intervals:
 * the baseline every synthetic-experience result is compared with.
 *
 * Mode `dream` does the same against a `SyntheticWorld` (an experience model over the replay
 * buffer's offline real data) with 0 real transitions; only the evaluation plays the real
 * environment. A task's first observation comes from the real environment's `reset` (no step is
 * taken; the resets are counted and reported), since a start page is not something to predict.
 * A synthetic-only generated task starts from its nearest real ancestor's first page, with its own
 * instruction in place of the ancestor's.
 *
 * Mode `s2r` (sim-to-real) trains in the dream first and then in the real environment with a small
 * real budget, one policy and one optimiser throughout.
 *
 * With a curriculum (`src/curriculum`), each iteration's tasks are chosen by outcome variance and
 * variations of the most varied ones join the pool; without one, tasks are drawn uniformly.
 */
import type { BackendProbe } from '../platform/backend-probe.ts';
import { UsageError } from '../core/errors.ts';
import { startFromSaved, type InitialPolicyInfo } from './initial-policy.ts';
import { Rng, type RngState } from '../core/rng.ts';
import type { Env, Task } from '../core/types.ts';
import { SyntheticWorld, type SyntheticStats } from '../experience/synthetic-env.ts';
import type { ExperienceModel, ExperienceStats } from '../experience/types.ts';
import type { ReplayBuffer } from '../replay/retrieval.ts';
import { taskRecord, type ReplayStore } from '../replay/store.ts';
import { Curriculum, DEFAULT_CURRICULUM, type CurriculumConfig, type CurriculumSummary } from '../curriculum/curriculum.ts';
import { BufferTaskGenerator, LlmTaskGenerator, type TaskGenerator } from '../curriculum/generator.ts';
import { LlmExperienceModel } from '../experience/llm/llm-model.ts';
import { closeEnvs } from '../envs/episode.ts';
import { envSpec } from '../envs/registry.ts';
import type { EnvSpec } from '../envs/spec.ts';
import { DEFAULT_POLICY, Policy, type PolicyConfig } from '../policy/policy.ts';
import type { PolicyNetwork } from '../policy/network.ts';
import { Adam } from '../rl/adam.ts';
import { ALGORITHMS, defaultConfig, rolloutsPerTask, type AlgoConfig, type AlgoName } from '../rl/config.ts';
import { envSettings } from './env-settings.ts';
import { DEFAULT_IMAGINE, RL_MODES, type Imagine, type Phase, type RlMode, type TrainAlgo, type TrainMode } from './modes.ts';
import type { OfflineConfig } from './offline/config.ts';
import { collectTrajectories, type Trajectory } from '../rl/rollout.ts';
import { attachReferenceLogProbs } from '../rl/reference.ts';
import { grpoSamples, ppoSamples } from '../rl/samples.ts';
import { optimize } from '../rl/update.ts';
import { guardedUpdate, type Divergence } from '../rl/divergence.ts';
import { TrainControl } from './control.ts';
import { lanesFor } from '../envs/web/tab-budget.ts';
import { evaluateHeldOut, type EvalResult } from './evaluate.ts';
import { checkSameRun, type TrainCheckpoint, type TrainProgress } from './checkpoint.ts';
import type { IterationMetrics } from './metrics.ts';


/** What mode `dream` trains against. */
export interface DreamOptions {
  model: ExperienceModel;
  /** Offline real data the model retrieves from (and synthetic transitions are written back to). */
  buffer: ReplayBuffer | null;
  /** Retrieved examples per step. */
  k: number;
  /** Synthetic transitions the run may take. */
  syntheticBudget: number;
  /** Real transitions in the buffer when training started (offline data, reported separately). */
  offlineTransitions: number;
  writeBack?: boolean;
  /** False for the "without reasoning" ablation (see `SyntheticWorldOptions.reasoning`). */
  reasoning?: boolean;
  /**
   * `sample`: the model draws each step's next state where it is unsure (PredictOptions.random), from
   * the run's seed; `likeliest`: it always predicts its likeliest. Default DEFAULT_IMAGINE.
   */
  imagine?: Imagine;
}

/** The curriculum a run uses; absent: tasks are drawn uniformly from the train split. */
export interface CurriculumOptions {
  config?: Partial<CurriculumConfig>;
  /**
   * Default: with an LLM experience model, the task-generation prompt to the same endpoint
   * (`LlmTaskGenerator`); otherwise variations from the train split's constraints (`BufferTaskGenerator`).
   */
  generator?: TaskGenerator;
}

export interface TrainOptions {
  env: string;
  /** Told (once per sentence) when memory lowers the web pages played at once below those asked (tab-budget.ts). */
  onNotice?: (text: string) => void;
  /** The offline modes (bc, dpo) have their own trainer (offline/trainer.ts). */
  mode: RlMode;
  algo: AlgoName;
  /** Real environment steps the run may take, evaluation excluded (0 in mode dream; s2r's real phase). */
  realBudget: number;
  /** Modes dream and s2r: the experience model and its budget. */
  dream?: DreamOptions;
  curriculum?: CurriculumOptions;
  /** Where per-task outcomes (by policy version) and generated tasks are recorded, if anywhere. */
  statsStore?: ReplayStore;
  seed: number;
  /** The tfjs backend in use, recorded in every result. */
  backend: string;
  algoConfig?: Partial<AlgoConfig>;
  policy?: Partial<PolicyConfig>;
  trainSplit?: string;
  evalSplit?: string;
  /** Held-out episodes per evaluation during training; default every task of the split once. */
  evalEpisodes?: number;
  /** Held-out episodes of the final evaluation; default every task of the split once. */
  finalEvalEpisodes?: number;
  /**
   * Step limit of training episodes (default: the environment's own). A shorter horizon spends
   * fewer steps on episodes that are already lost; held-out evaluation always uses the env's limit.
   */
  trainMaxSteps?: number;
  /** Stop after this many updates even if budget is left (to compare runs at the same number of updates). */
  maxIterations?: number;
  /** Evaluate every this many iterations (0: only at the end). */
  evalEvery?: number;
  /** Train only on tasks at most this difficult (for smoke runs and tests). */
  maxDifficulty?: number;
  /**
   * Start from this saved policy's weights instead of a fresh network (`train --init FILE.dgp`):
   * fine-tuning, or transfer from a policy trained on another environment. Its network must be the
   * one this run trains.
   */
  initialPolicy?: { name: string; bytes: Uint8Array };
}

export type { InitialPolicyInfo } from './initial-policy.ts';

/** What an offline run (modes bc and dpo) trained on: the buffer's episodes and what became of them. */
export interface OfflineSummary {
  /** Real transitions the buffer held for the environment. */
  offlineTransitions: number;
  /** Whole real episodes among them, and how many succeeded. */
  episodes: number;
  successes: number;
  failures: number;
  /** Policy steps the loss reads (each once). */
  steps: number;
  /** Steps of the episodes used whose action the policy could not have taken (left out). */
  skippedSteps: number;
  /** Steps whose stored search the policy could not type, taken as the nearest proposed query (offline/steps.ts). */
  nearestQuerySteps: number;
  /** DPO: the pairs trained on, by kind and by where the chosen side came from, and the pairs left out. */
  pairs?: { total: number; state: number; trajectory: number; sameTask: number; neighbour: number; dropped: number };
}

export interface TrainResult {
  env: string;
  mode: TrainMode;
  algo: TrainAlgo;
  backend: string;
  /** How the app's `auto` chose the backend: each candidate's probe figures (absent when it was named). */
  backendProbe?: BackendProbe;
  seed: number;
  /** The settings as the run used them: the algorithm's defaults, then the environment's, then the caller's (an offline mode's own settings there). */
  config: AlgoConfig | OfflineConfig;
  realTransitions: number;
  syntheticTransitions: number;
  /** Modes dream and s2r: offline real transitions the buffer held, real resets used for first observations, and the model's counters. */
  dream?: { experience: string; k: number; reasoning: boolean; imagine: Imagine; offlineTransitions: number; realResets: number; model: ExperienceStats; synthetic: SyntheticStats };
  curriculum?: CurriculumSummary;
  /** Mode s2r: the first iteration of the real phase (null if the dream phase used every iteration). */
  realPhaseFrom?: number | null;
  /** Modes bc and dpo. */
  offline?: OfflineSummary;
  /** The saved policy the run started from (`--init`), where it did not start from its seed's network. */
  initialPolicy?: InitialPolicyInfo;
  wallSeconds: number;
  iterations: number;
  stopped: boolean;
  /**
   * The update that went non-finite (a NaN or infinite loss, gradient or weight), where one did:
   * the run ended there, its policy and history those of the iterations before it, unevaluated.
   */
  diverged?: Divergence;
  eval: EvalResult | null;
  history: IterationMetrics[];
}

/** Where and how often a run saves its checkpoint (checkpoint.ts). */
export interface CheckpointHooks {
  /** Wall seconds between saves, checked after each iteration (0: after every iteration). */
  everySeconds: number;
  save: (checkpoint: TrainCheckpoint) => Promise<void>;
}

export interface TrainHooks {
  control?: TrainControl;
  /**
   * Save a checkpoint at this interval, and once more when the last iteration is done (before the
   * final evaluation). Never after a stop: a stopped iteration may have been cut short, and a resume
   * must replay it whole.
   */
  checkpoint?: CheckpointHooks;
  onIteration?: (metrics: IterationMetrics) => void;
  /** Called while evaluating, with episodes done so far. */
  onEvalProgress?: (done: number, total: number) => void;
}

export function validateTrainOptions(options: TrainOptions): void {
  if (!RL_MODES.includes(options.mode)) {
    throw new UsageError(`unknown mode "${options.mode}"; this trainer trains in: ${RL_MODES.join(', ')} (the offline modes have their own, offline/trainer.ts)`);
  }
  if (!ALGORITHMS.includes(options.algo)) throw new UsageError(`unknown algorithm "${options.algo}"; use one of: ${ALGORITHMS.join(', ')}`);
  if (options.mode !== 'real') {
    if (!options.dream) throw new UsageError(`mode ${options.mode} needs an experience model (and a buffer for its retrieval)`);
    if (options.mode === 'dream' && options.realBudget !== 0) throw new UsageError(`mode dream trains with 0 real transitions; got a real budget of ${options.realBudget}`);
    const budget = options.dream.syntheticBudget;
    if (!Number.isInteger(budget) || budget < 1) throw new UsageError(`the synthetic budget must be a positive integer number of transitions, got ${budget}`);
  } else if (options.dream) throw new UsageError('mode real trains without an experience model; use mode dream or s2r');
  if (options.mode !== 'dream' && (!Number.isInteger(options.realBudget) || options.realBudget < 1)) {
    throw new UsageError(`the real budget must be a positive integer number of transitions, got ${options.realBudget}`);
  }
  if (!Number.isInteger(options.seed)) throw new UsageError(`the seed must be an integer, got ${options.seed}`);
}

/** The run's random streams: which tasks, which actions, which minibatches, which variations. */
interface TrainRngs {
  tasks: Rng;
  act: Rng;
  update: Rng;
  curriculum: Rng;
}

export class Trainer {
  readonly spec: EnvSpec;
  readonly policy: Policy;
  readonly config: AlgoConfig;
  readonly policyConfig: PolicyConfig;
  /** The saved policy the run started from, if any (`TrainOptions.initialPolicy`). */
  readonly initialPolicy: InitialPolicyInfo | null;
  private readonly optimizer: Adam;
  /** GRPO with klCoef > 0: the policy as it was before training, frozen. */
  private readonly reference: PolicyNetwork | null;
  private readonly trainTasks: readonly Task[];
  /** Which of a site's tasks the run trains on (null where the environment has no fixed list): its checkpoints record them. */
  private readonly taskKinds: string[] | null;
  private readonly evalSplit: string;
  readonly history: IterationMetrics[] = [];
  realTransitions = 0;
  syntheticTransitions = 0;
  private realResets = 0;
  private world: SyntheticWorld | null = null;
  /** The real envs `trainingEnvs` opened and `closeTrainingEnvs` has not yet closed. */
  private readonly realEnvs: Env[] = [];
  /** The curriculum, when the run has one (the Curriculum view reads its rows). */
  readonly curriculum: Curriculum | null;
  lastEval: EvalResult | null = null;
  /** Where the run is: set by `run`, or by `resumeFrom` before it. */
  private phaseIndex = 0;
  private iteration = 0;
  private realPhaseFrom: number | null = null;
  private elapsedBefore = 0;
  private rngs: TrainRngs;
  /** Mode dream with `imagine: sample`: the model's draws (see `imagination`). */
  private imagineRng: Rng | null = null;
  /** A checkpoint's state for what `trainingEnvs` builds later (the world, the imagination stream). */
  private restored: TrainProgress | null = null;
  /** The experience model's counters before a resume (its fresh instance counts from zero). */
  private modelStatsBefore: ExperienceStats | null = null;
  /** performance.now() when `run` started (null before). */
  private startedAt: number | null = null;
  /** An update is changing the weights (they are no iteration's policy until it ends). */
  private updating = false;
  /** The update that went non-finite, if one did: the run ends there. */
  private diverged: Divergence | null = null;
  private readonly noticed = new Set<string>();
  /** options.onNotice, each sentence once: every phase and every evaluation opens its pages anew. */
  private readonly notice = (text: string): void => {
    if (this.noticed.has(text)) return;
    this.noticed.add(text);
    this.options.onNotice?.(text);
  };

  constructor(readonly options: TrainOptions) {
    validateTrainOptions(options);
    this.spec = envSpec(options.env);
    this.config = { ...defaultConfig(options.algo), ...envSettings(this.spec, options.algo, options.mode), ...options.algoConfig } as AlgoConfig;
    if (this.config.algo === 'ppo') {
      const { episodesPerIteration: episodes, rolloutsPerTask: repeats } = this.config;
      if (!Number.isInteger(repeats) || repeats < 1 || episodes % repeats !== 0) {
        // A caller who changes only the episode count can meet an environment's setting here
        // (shop's dream PPO plays 8 episodes of a task): say where the other number came from.
        const fromEnv = options.algoConfig === undefined || !('rolloutsPerTask' in options.algoConfig) ? ` (${options.env}'s ${options.mode} setting, its spec's training settings)` : '';
        throw new UsageError(`rolloutsPerTask must be a positive integer that divides episodesPerIteration (${episodes}), got ${repeats}${fromEnv}; set the two together`);
      }
    }
    this.policyConfig = { ...DEFAULT_POLICY, ...options.policy };
    this.policy = new Policy(this.policyConfig, options.seed);
    this.initialPolicy = options.initialPolicy ? startFromSaved(this.policy, this.policyConfig, options.initialPolicy) : null;
    this.optimizer = new Adam(this.policy.network.variables);
    this.reference = this.config.algo === 'grpo' && this.config.klCoef > 0 ? this.policy.network.clone() : null;
    const trainSplit = options.trainSplit ?? this.spec.splits[0]?.name ?? 'train';
    const tasks = this.spec.tasks(trainSplit);
    this.trainTasks = options.maxDifficulty === undefined ? tasks : tasks.filter((t) => t.difficulty <= (options.maxDifficulty as number));
    const kindOf = this.spec.taskKind;
    this.taskKinds = kindOf ? [...new Set(this.trainTasks.map((task) => kindOf(task)))].sort() : null;
    if (this.trainTasks.length === 0) throw new UsageError(`no ${trainSplit} tasks with difficulty ≤ ${options.maxDifficulty}`);
    this.evalSplit = options.evalSplit ?? this.spec.testSplit;
    // An unknown split is refused now, not after the budget is spent.
    this.spec.tasks(this.evalSplit);
    this.curriculum = options.curriculum
      ? new Curriculum(this.trainTasks, {
          // A task's own outcomes measure its variance only where it is played more than once an iteration.
          grouping: rolloutsPerTask(this.config) > 1 ? 'task' : 'cluster',
          ...(options.curriculum.config ? { config: options.curriculum.config } : {}),
          generator: options.curriculum.generator ?? this.defaultGenerator(),
          rng: new Rng(`curriculum:${options.env}:${options.algo}:${options.seed}`),
        })
      : null;
    const root = new Rng(`train:${options.env}:${options.algo}:${options.seed}`);
    this.rngs = { tasks: root.fork('tasks'), act: root.fork('act'), update: root.fork('update'), curriculum: root.fork('curriculum') };
  }

  /**
   * The run's settings as resolved, JSON only: what a checkpoint records and a resume must match.
   * The backend is left out (a run may go on on another one, with what that does to its numbers).
   */
  runSettings(): Record<string, unknown> {
    const o = this.options;
    const dream = o.dream;
    return {
      env: o.env,
      mode: o.mode,
      algo: o.algo,
      seed: o.seed,
      realBudget: o.realBudget,
      config: this.config,
      policy: this.policyConfig,
      trainSplit: o.trainSplit ?? null,
      evalSplit: this.evalSplit,
      evalEpisodes: o.evalEpisodes ?? null,
      finalEvalEpisodes: o.finalEvalEpisodes ?? null,
      trainMaxSteps: o.trainMaxSteps ?? null,
      maxIterations: o.maxIterations ?? null,
      evalEvery: o.evalEvery ?? 0,
      maxDifficulty: o.maxDifficulty ?? null,
      // Only where there is one, so checkpoints saved before `--init` existed still match their runs.
      ...(this.initialPolicy ? { initialPolicy: this.initialPolicy } : {}),
      // Which of a site's tasks the run trains on (`--tasks`, the app's Tasks): a resume must choose the same.
      ...(this.taskKinds ? { taskKinds: this.taskKinds } : {}),
      curriculum: this.curriculum ? { ...this.curriculum.config, generator: this.curriculum.summary().generator } : null,
      dream: dream
        ? {
            experience: dream.model.name,
            k: dream.k,
            syntheticBudget: dream.syntheticBudget,
            offlineTransitions: dream.offlineTransitions,
            writeBack: dream.writeBack ?? true,
            reasoning: dream.reasoning !== false,
            imagine: dream.imagine ?? DEFAULT_IMAGINE,
          }
        : null,
    };
  }

  /** The run as it stands between iterations, to go on from later (`resumeFrom`). */
  async checkpoint(): Promise<TrainCheckpoint> {
    const stream = (r: Rng): RngState => r.state();
    const optimizer = await this.optimizer.snapshot();
    const progress: TrainProgress = {
      run: this.runSettings(),
      env: this.options.env,
      iteration: this.iteration,
      phaseIndex: this.phaseIndex,
      realPhaseFrom: this.realPhaseFrom,
      realTransitions: this.realTransitions,
      syntheticTransitions: this.syntheticTransitions,
      realResets: this.realResets,
      elapsedSeconds: this.elapsedBefore + (this.startedAt === null ? 0 : (performance.now() - this.startedAt) / 1000),
      rngs: {
        tasks: stream(this.rngs.tasks),
        act: stream(this.rngs.act),
        update: stream(this.rngs.update),
        curriculum: stream(this.rngs.curriculum),
        imagine: this.imagineRng ? stream(this.imagineRng) : (this.restored?.rngs.imagine ?? null),
      },
      optimizerSteps: optimizer.t,
      history: this.history,
      lastEval: this.lastEval,
      curriculum: this.curriculum ? this.curriculum.snapshot() : null,
      world: this.world ? this.world.snapshot() : (this.restored?.world ?? null),
      modelStats: this.options.dream ? this.modelStats() : null,
    };
    return {
      // A deep copy: the history and counters go on changing after the checkpoint is handed out.
      progress: JSON.parse(JSON.stringify(progress)) as TrainProgress,
      backend: this.options.backend,
      savedAt: new Date().toISOString(),
      policy: (await this.policy.network.getWeights()).map((w) => ({ name: w.name, shape: [...w.shape], data: w.data })),
      moments: { m: optimizer.m, v: optimizer.v },
    };
  }

  /**
   * Go on from a checkpoint of this same run (refused, with the settings that differ, if it is
   * another's): call before `run`, which then starts at the checkpoint's iteration.
   */
  resumeFrom(checkpoint: TrainCheckpoint): void {
    if (this.startedAt !== null || this.iteration > 0) throw new Error('resumeFrom is called before the run starts');
    const { progress } = checkpoint;
    checkSameRun(progress.run, this.runSettings());
    this.policy.network.setWeights(checkpoint.policy);
    this.optimizer.restore({ t: progress.optimizerSteps, m: checkpoint.moments.m, v: checkpoint.moments.v });
    this.rngs = {
      tasks: Rng.fromState(progress.rngs.tasks),
      act: Rng.fromState(progress.rngs.act),
      update: Rng.fromState(progress.rngs.update),
      curriculum: Rng.fromState(progress.rngs.curriculum),
    };
    if (progress.curriculum) this.curriculum?.restore(progress.curriculum);
    this.iteration = progress.iteration;
    this.phaseIndex = progress.phaseIndex;
    this.realPhaseFrom = progress.realPhaseFrom;
    this.realTransitions = progress.realTransitions;
    this.syntheticTransitions = progress.syntheticTransitions;
    this.realResets = progress.realResets;
    this.elapsedBefore = progress.elapsedSeconds;
    this.history.push(...progress.history);
    this.lastEval = progress.lastEval;
    this.modelStatsBefore = progress.modelStats;
    this.restored = progress;
  }

  /** The experience model's counters over the whole run, a resumed one's included. */
  private modelStats(): ExperienceStats {
    const now = (this.options.dream as DreamOptions).model.stats();
    const before = this.modelStatsBefore;
    if (!before) return now;
    const sum = { ...now } as Record<string, unknown>;
    for (const [key, value] of Object.entries(before)) {
      if (typeof value === 'number' && typeof sum[key] === 'number') sum[key] = (sum[key] as number) + value;
    }
    return sum as unknown as ExperienceStats;
  }

  private defaultGenerator(): TaskGenerator {
    const model = this.options.dream?.model;
    const sameKind = (this.options.curriculum?.config?.variations ?? DEFAULT_CURRICULUM.variations) === 'same-kind';
    return model instanceof LlmExperienceModel
      ? new LlmTaskGenerator(this.spec, this.trainTasks, model.client, { sameKind })
      : new BufferTaskGenerator(this.spec, this.trainTasks, { sameKind });
  }

  /** Distinct tasks one iteration plays: PPO's episodes over its rollouts per task, or GRPO's tasks (each played G times). */
  private get tasksPerIteration(): number {
    return this.config.algo === 'ppo' ? this.config.episodesPerIteration / this.config.rolloutsPerTask : this.config.tasksPerIteration;
  }

  /**
   * Distinct tasks that fit what is left of the budget, at the mean episode length seen so far: a
   * small real budget (s2r's) must still buy whole episodes and an update, not lanes cut short.
   */
  private tasksThatFit(remaining: number, phase: Phase): number {
    const n = this.tasksPerIteration;
    // Only s2r's real phase: elsewhere a budget is large and published runs stay reproducible.
    if (this.options.mode !== 's2r' || phase !== 'real') return n;
    const last = [...this.history].reverse().find((m) => m.phase === phase) ?? this.history.at(-1);
    if (!last || last.episodes === 0) return n;
    const stepsPerEpisode = Math.max(1, last.samplesPerIteration / last.episodes);
    const perTask = stepsPerEpisode * rolloutsPerTask(this.config);
    return Math.max(1, Math.min(n, Math.floor(remaining / perTask)));
  }

  private iterationTasks(rng: Rng, phase: Phase, remaining: number): Task[] {
    const n = this.tasksThatFit(remaining, phase);
    const picked = this.curriculum
      ? this.curriculum.next(n, rng, { realOnly: phase === 'real' })
      : this.config.algo === 'ppo' && this.config.rolloutsPerTask === 1
        ? Array.from({ length: n }, () => rng.pick(this.trainTasks))
        : rng.sample(this.trainTasks, n);
    const repeats = rolloutsPerTask(this.config);
    return repeats === 1 ? picked : picked.flatMap((t) => Array.from({ length: repeats }, () => t));
  }

  /**
   * The lanes training collects in: real environments, or synthetic ones over the experience model.
   * Public so that an experiment can play a policy in the very envs training uses (curriculum-variance).
   */
  trainingEnvs(count: number, phase: Phase): Env[] {
    const dream = this.options.dream;
    const maxSteps = this.options.trainMaxSteps;
    if (phase === 'real' || !dream) {
      const lanes = lanesFor(this.spec.name, count, this.notice);
      const envs = Array.from({ length: lanes }, () => this.spec.createEnv(maxSteps !== undefined ? { maxSteps } : {}));
      this.realEnvs.push(...envs);
      return envs;
    }
    const starter = this.spec.createEnv();
    this.realEnvs.push(starter);
    const curriculum = this.curriculum;
    this.world = new SyntheticWorld({
      env: this.spec.name,
      model: dream.model,
      buffer: dream.buffer,
      k: dream.k,
      runId: `dream-${this.spec.name}-${this.options.algo}-${this.options.seed}`,
      ...(dream.writeBack !== undefined ? { writeBack: dream.writeBack } : {}),
      ...(dream.reasoning !== undefined ? { reasoning: dream.reasoning } : {}),
      ...((dream.imagine ?? DEFAULT_IMAGINE) === 'sample' ? { random: this.imagination() } : {}),
      ...(maxSteps !== undefined ? { maxSteps } : {}),
      initialObservation: async (task) => {
        this.realResets++;
        const start = curriculum?.realAncestor(task) ?? task;
        const first = await starter.reset(start);
        return start === task ? first : { ...first, text: first.text.split(start.instruction).join(task.instruction) };
      },
    });
    const world = this.world;
    if (this.restored?.world) world.restore(this.restored.world);
    return Array.from({ length: count }, () => world.createEnv());
  }

  /** Close the real envs `trainingEnvs` opened (a dream's starter among them): a web env's tabs. */
  async closeTrainingEnvs(): Promise<void> {
    await closeEnvs(this.realEnvs.splice(0));
  }

  /** The draws a sampling dream imagines with: its own stream of the run's seed, so a run repeats. */
  private imagination(): () => number {
    const saved = this.restored?.rngs.imagine;
    const rng = saved ? Rng.fromState(saved) : new Rng(`imagine:${this.options.env}:${this.options.algo}:${this.options.seed}`);
    this.imagineRng = rng;
    return () => rng.next();
  }

  /**
   * Whether the weights are those of the last finished iteration (or the start), not halfway
   * through an update: what a command that must quit at once can still write as the run's policy.
   */
  get settled(): boolean {
    return !this.updating;
  }

  /** Greedy held-out evaluation; `episodes` undefined means every task of the split once. */
  async evaluate(hooks: TrainHooks, episodes: number | undefined): Promise<EvalResult> {
    this.lastEval = await evaluateHeldOut({ spec: this.spec, policy: this.policy, split: this.evalSplit, seed: this.options.seed, onNotice: this.notice }, episodes, hooks);
    return this.lastEval;
  }

  /**
   * Free the policy, the optimiser's moments and the frozen reference (tensors: GPU memory on
   * webgpu). The app keeps a finished run's trainer for export and disposes it when the next starts.
   */
  dispose(): void {
    this.policy.dispose();
    this.optimizer.dispose();
    this.reference?.dispose();
  }

  async run(hooks: TrainHooks = {}): Promise<TrainResult> {
    const { options } = this;
    const control = hooks.control ?? new TrainControl();
    this.startedAt = performance.now();
    // A resumed run's clock goes on from the checkpoint's.
    const started = this.startedAt - this.elapsedBefore * 1000;
    const phases: Phase[] = options.mode === 's2r' ? ['dream', 'real'] : [options.mode === 'dream' ? 'dream' : 'real'];
    const resumedInPhase = this.restored !== null;
    for (; this.phaseIndex < phases.length; this.phaseIndex++) {
      const phase = phases[this.phaseIndex] as Phase;
      // Entering s2r's real phase (a run resumed inside it entered it before the checkpoint).
      if (phase === 'real' && options.mode === 's2r' && !(resumedInPhase && this.phaseIndex === this.restored?.phaseIndex)) this.realPhaseFrom = this.iteration + 1;
      await this.runPhase(phase, hooks, control, started);
      if (control.isStopped || this.diverged) break;
    }
    this.phaseIndex = Math.min(this.phaseIndex, phases.length - 1);
    const diverged = this.diverged;
    // A diverged run saves no checkpoint: the last one saved holds finite weights, and a resume from here would diverge again.
    if (!control.isStopped && !diverged && hooks.checkpoint) await hooks.checkpoint.save(await this.checkpoint());
    const iteration = this.iteration;
    let realPhaseFrom = this.realPhaseFrom;
    if (realPhaseFrom !== null && realPhaseFrom > iteration) realPhaseFrom = null;
    const stopped = control.isStopped;
    // A run resumed in s2r's real phase built no world; its dream's counters are the checkpoint's.
    const synthetic = this.world?.stats() ?? this.restored?.world?.counters ?? null;
    const finalEval = stopped || diverged ? this.lastEval : await this.evaluate({ ...hooks, control: new TrainControl() }, options.finalEvalEpisodes);
    return {
      env: options.env,
      mode: options.mode,
      algo: options.algo,
      backend: options.backend,
      seed: options.seed,
      config: this.config,
      realTransitions: this.realTransitions,
      syntheticTransitions: this.syntheticTransitions,
      ...(options.dream && synthetic
        ? {
            dream: {
              experience: options.dream.model.name,
              k: options.dream.k,
              reasoning: options.dream.reasoning !== false,
              imagine: options.dream.imagine ?? DEFAULT_IMAGINE,
              offlineTransitions: options.dream.offlineTransitions,
              realResets: this.realResets,
              model: this.modelStats(),
              synthetic,
            },
          }
        : {}),
      ...(this.curriculum ? { curriculum: this.curriculum.summary() } : {}),
      ...(this.initialPolicy ? { initialPolicy: this.initialPolicy } : {}),
      ...(options.mode === 's2r' ? { realPhaseFrom } : {}),
      wallSeconds: (performance.now() - started) / 1000,
      iterations: iteration,
      stopped,
      ...(diverged ? { diverged } : {}),
      eval: finalEval,
      history: this.history,
    };
  }

  /** Train in one phase until its budget is spent (or the run is stopped), counting `this.iteration` on; its real envs are closed when it ends. */
  private async runPhase(phase: Phase, hooks: TrainHooks, control: TrainControl, started: number): Promise<void> {
    const envs = this.trainingEnvs(this.config.parallelEnvs, phase);
    try {
      await this.playPhase(envs, phase, hooks, control, started);
    } finally {
      await this.closeTrainingEnvs();
    }
  }

  private async playPhase(envs: readonly Env[], phase: Phase, hooks: TrainHooks, control: TrainControl, started: number): Promise<void> {
    const { options, config, rngs } = this;
    const evalEvery = options.evalEvery ?? 0;
    const dreaming = phase === 'dream';
    const budget = dreaming ? (options.dream as DreamOptions).syntheticBudget : options.realBudget;
    const used = (): number => (dreaming ? this.syntheticTransitions : this.realTransitions);
    const maxIterations = options.maxIterations ?? Infinity;
    const lastPhase = phase === 'real' || options.mode === 'dream';
    let iteration = this.iteration;
    let lastSave = performance.now();
    while (used() < budget && iteration < maxIterations && !control.isStopped) {
      await control.checkpoint();
      if (control.isStopped) break;
      const iterationStart = performance.now();
      const tasks = this.iterationTasks(rngs.tasks, phase, budget - used());
      const selection = this.curriculum?.lastSelection ?? null;
      const { trajectories, steps } = await collectTrajectories({
        envs: envs.slice(0, Math.min(envs.length, tasks.length)),
        tasks,
        policy: this.policy,
        greedy: false,
        rng: rngs.act,
        stepBudget: budget - used(),
        shouldStop: () => control.isStopped,
        beforeRound: () => control.checkpoint(),
      });
      if (dreaming) this.syntheticTransitions += steps;
      else this.realTransitions += steps;
      if (trajectories.length === 0) break; // the budget cannot fit another episode
      // An episode a failing page ended (info.error: it stopped answering, its renderer crashed)
      // says nothing of the policy: its last reward is the machine's failure. It is left out of the
      // update and the curriculum, as the evaluations leave it out of what they score; its steps
      // still count against the budget. An iteration that kept none updates nothing.
      const failed = trajectories.filter((t) => t.envError !== undefined).length;
      const learnable = failed === 0 ? trajectories : trajectories.filter((t) => t.envError === undefined);
      if (learnable.length === 0) continue;
      const newTasks = await this.observeOutcomes(learnable, iteration, rngs.curriculum);
      iteration++;
      const learningRate =
        config.learningRateSchedule === 'linear' ? config.learningRate * Math.max(0.05, 1 - used() / budget) : config.learningRate;
      const samples = config.algo === 'ppo' ? ppoSamples(learnable, config) : grpoSamples(learnable, config);
      if (this.reference) await attachReferenceLogProbs(this.reference, this.policyConfig.featurizer, samples, config.minibatchSize);
      this.updating = true;
      const update = await guardedUpdate(this.optimizer, this.policy.network.variables, () => optimize(this.policy, this.optimizer, samples, config, learningRate, rngs.update), (u) => ({
        policyLoss: u.policyLoss,
        valueLoss: u.valueLoss,
        entropy: u.entropy,
        approxKl: u.approxKl,
        referenceKl: u.referenceKl,
        gradNorm: u.gradNorm,
      })).finally(() => (this.updating = false));
      if (update.nonFinite.length > 0) {
        // The weights are the previous iteration's again; the run ends here, its history without this iteration.
        this.diverged = { iteration, nonFinite: update.nonFinite, learningRate };
        break;
      }
      const { stats } = update;
      const metrics: IterationMetrics = {
        iteration,
        phase,
        realTransitions: this.realTransitions,
        syntheticTransitions: this.syntheticTransitions,
        episodes: learnable.length,
        ...(failed > 0 ? { envErrors: failed } : {}),
        samplesPerIteration: steps,
        ...episodeStats(learnable),
        entropy: stats.entropy,
        approxKl: stats.approxKl,
        clipFraction: stats.clipFraction,
        policyLoss: stats.policyLoss,
        valueLoss: stats.valueLoss,
        // Without a reference the term compares with nothing; report it only when it is trained on.
        referenceKl: this.reference ? stats.referenceKl : 0,
        gradNorm: stats.gradNorm,
        learningRate,
        samplesPerSecond: steps / ((performance.now() - iterationStart) / 1000),
        wallSeconds: (performance.now() - started) / 1000,
        ...(selection && this.curriculum
          ? {
              curriculum: {
                generated: selection.generated,
                explored: selection.explored,
                byVariance: selection.byVariance,
                meanVariance: selection.meanVariance,
                newTasks: newTasks.length,
                pool: this.curriculum.summary().pool,
              },
            }
          : {}),
      };
      const last = lastPhase && (used() >= budget || iteration >= maxIterations || control.isStopped);
      if (!last && evalEvery > 0 && iteration % evalEvery === 0) metrics.eval = await this.evaluate(hooks, options.evalEpisodes);
      this.history.push(metrics);
      this.iteration = iteration;
      hooks.onIteration?.(metrics);
      const saving = hooks.checkpoint;
      if (saving && !control.isStopped && !last && (performance.now() - lastSave) / 1000 >= saving.everySeconds) {
        await saving.save(await this.checkpoint());
        lastSave = performance.now();
      }
    }
  }

  /**
   * Feed an iteration's outcomes to the curriculum (played by policy version `version`, the number
   * of updates so far) and to the stats store; returns the tasks the curriculum generated.
   */
  private async observeOutcomes(trajectories: readonly Trajectory[], version: number, rng: Rng): Promise<Task[]> {
    const results = trajectories.map((t) => ({ taskId: t.task.id, return: t.totalReward, won: t.won }));
    const made = this.curriculum ? await this.curriculum.observe(results, version, this.tasksPerIteration, rng) : [];
    const store = this.options.statsStore;
    if (store) {
      const now = Date.now();
      if (made.length > 0) await store.putTasks(made.map((t) => taskRecord(t, now)));
      await store.recordOutcomes(trajectories.map((t) => ({ taskId: t.task.id, env: t.task.env, won: t.won, return: t.totalReward, policyVersion: version })));
    }
    return made;
  }
}

function episodeStats(trajectories: readonly Trajectory[]): { successRate: number; meanScore: number; meanReturn: number } {
  const n = trajectories.length;
  if (n === 0) return { successRate: 0, meanScore: 0, meanReturn: 0 };
  const ret = trajectories.reduce((a, t) => a + t.totalReward, 0) / n;
  return { successRate: trajectories.filter((t) => t.won).length / n, meanScore: 100 * ret, meanReturn: ret };
}
