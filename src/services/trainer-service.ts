/**
 * What the trainer worker offers the page: training with live metrics, in the real environment or
 * in mode dream against the experience model chosen in the Experience view (by default the neural
 * one this browser keeps for the environment)
 * (optionally with the curriculum, whose task table the Curriculum view reads on demand), pause /
 * resume / stop, export of the current policy at any moment; and beside them the Evaluate view's
 * player of a saved policy (policy-player.ts). Plain class, no worker APIs, so it is tested in
 * Node and in a page.
 */
import { OpenedSite } from './opened-site.ts';
import { PolicyPlayer } from './policy-player.ts';
import { attachPageFrames } from '../envs/web/page-frames.ts';
import { DreamGymError, errorMessage, UsageError } from '../core/errors.ts';
import { ModelFileError } from '../experience/neural/model-file.ts';
import { ROOM_CLIENT_HEADER } from '../experience/llm/chat.ts';
import { buildDream, disposeModel } from '../jobs/dream.ts';
import type { PredictionWorkers } from '../experience/neural/prediction-pool.ts';
import { defaultPredictionWorkers } from '../jobs/prediction-worker-count.ts';
import { checkFormSettings, experienceModel } from '../jobs/experience-models/registry.ts';
import type { ExperienceChoice } from '../jobs/experience-models/create.ts';
import type { CurriculumRow, CurriculumSummary } from '../curriculum/curriculum.ts';
import { exportTrainedPolicy } from '../jobs/policy-export.ts';
import { Once } from './once.ts';
import { checkAppTrainRun } from '../jobs/train-spec.ts';
import { IdbReplayStore } from '../replay/idb-store.ts';
import { ReplayBuffer } from '../replay/retrieval.ts';
import type { ReplayStore, StoreLimits } from '../replay/store.ts';
import type { AlgoConfig, AlgoName } from '../rl/config.ts';
import { probeUpdates, type ProbeResult } from '../train/consistency.ts';
import { TrainControl } from '../train/control.ts';
import type { IterationMetrics } from '../train/metrics.ts';
import type { DreamOptions, Trainer, TrainResult } from '../train/trainer.ts';
import { createTrainer, train, type TrainJob } from '../jobs/train.ts';
import { fetchPretrained } from './pretrained-fetch.ts';
import type { EvalResult } from '../train/evaluate.ts';
import { IdbNeuralModelStore, type NeuralModelStore, type SavedNeuralModel } from './neural-model-store.ts';
import type { BackendName } from '../platform/tf.ts';
import type { BackendProbe } from '../platform/backend-probe.ts';
import { startBackend } from '../jobs/probe-workload.ts';
import { IdbCheckpointStore, type CheckpointStore, type SavedTrainRun } from './checkpoint-store.ts';
import { CheckpointError, decodeCheckpoint, encodeCheckpoint, type TrainCheckpoint } from '../train/checkpoint.ts';

/** Where the app trains: the real environment, or the neural experience model (0 real transitions). */
export type AppTrainMode = 'real' | 'dream';

export interface TrainRequest {
  env: string;
  algo: AlgoName;
  /** Default real. */
  mode?: AppTrainMode;
  /** Real transitions the run may take (mode real; 0 or absent in mode dream). */
  realBudget: number;
  /** Mode dream: synthetic transitions the run may take. */
  syntheticBudget?: number;
  /** Mode dream: real transitions retrieved as examples for each prediction (default 3). */
  k?: number;
  /**
   * Mode dream: the experience model, as the Experience view chose it (a kind of the registry,
   * jobs/experience-models/, that runs in a worker, and its settings); default the neural model
   * this browser keeps for the env.
   */
  experience?: ExperienceChoice & { participant?: string };
  /** Mode dream: the Buffer view's cap, which the synthetic transitions written back respect (default: none). */
  storeLimits?: StoreLimits;
  seed: number;
  /** Evaluate on the held-out split every this many iterations (0: only at the end). */
  evalEvery?: number;
  evalEpisodes?: number;
  /** Episodes of the final held-out evaluation (default: the whole split). */
  finalEvalEpisodes?: number;
  algoConfig?: Partial<AlgoConfig>;
  /** Train only on tasks at most this difficult (quick demos, tests). */
  maxDifficulty?: number;
  /**
   * Start from the policy at this URL (the shipped pretrained web policy, resolved by the page
   * against its base) instead of the seed's fresh network; fetched when the run starts.
   */
  init?: { url: string };
  /**
   * Env web: train and evaluate on these tasks of the site (ids, or the groups `@app` and
   * `@widgets`), as the CLI's `--tasks`; absent or empty: all of them.
   */
  tasks?: string[];
  /** Choose tasks with the curriculum (by outcome variance, λ cap on generated tasks); null/absent: uniformly. */
  curriculum?: { lambda: number; explorationFloor?: number } | null;
  /**
   * Record per-task outcomes (by policy version) and generated tasks in the replay store, where the
   * Buffer view's data lives. Off by default; a store that cannot be opened only skips the recording.
   */
  recordStats?: boolean;
  /**
   * Save the run to this browser every this many seconds (0: after every iteration), so that after
   * a reload, a crashed worker or a closed tab the Train view offers to resume it; default
   * DEFAULT_CHECKPOINT_SECONDS. A run that ends, done or stopped, removes its checkpoint.
   */
  checkpointEverySeconds?: number;
  /**
   * Where the run's checkpoint is kept (checkpoint-store.ts): the Train view's slot by default; the
   * guided run's two runs, which train at once in two workers, each in a slot of its own.
   */
  checkpointSlot?: string;
}

/** An interrupted run as the Train view offers it: what it was, how far it got, and its curve so far. */
export interface SavedRunInfo {
  request: TrainRequest;
  backend: string;
  iteration: number;
  realTransitions: number;
  syntheticTransitions: number;
  savedAt: string;
  history: IterationMetrics[];
}

/** A curriculum row as the page gets it: with the parent's instruction, since the parent may be far down the list. */
export interface CurriculumViewRow extends CurriculumRow {
  parentInstruction: string | null;
}

/** The curriculum of the live (or last) run: its summary and its most varied tasks. */
export interface CurriculumSnapshot {
  summary: CurriculumSummary;
  /** Tasks in the pool, all of them, whatever `rows` holds. */
  total: number;
  rows: CurriculumViewRow[];
  /** Iterations the run has completed when the snapshot was taken. */
  iterations: number;
}

export interface TrainerServiceOptions {
  /** The app's replay store (default: its IndexedDB one): where `recordStats` writes, and what mode dream retrieves from. */
  openReplayStore?: () => Promise<ReplayStore>;
  /** Where the Experience view keeps its neural models (default: their IndexedDB database). */
  openModelStore?: () => Promise<NeuralModelStore>;
  /** Where the run in progress keeps its checkpoint (default: its IndexedDB database). */
  openCheckpointStore?: () => Promise<CheckpointStore<TrainRequest>>;
  /** The backends `auto` measures (default: the platform's). */
  probeCandidates?: readonly BackendName[];
  /**
   * Where a dream's neural model may also predict: how a nested Web Worker is started
   * (workers/trainer.worker.ts) and the cores there are; a dream starts as many as
   * `defaultPredictionWorkers` gives for them and its budget. Absent, it predicts on this thread alone.
   */
  predictionWorkers?: { cores: number; spawn: PredictionWorkers['spawn'] };
}

export type TrainerEvent =
  | { kind: 'iteration'; metrics: IterationMetrics }
  | { kind: 'evaluating'; done: number; total: number }
  | { kind: 'done'; result: TrainResult }
  | { kind: 'error'; message: string }
  /** The run saved itself (after iteration `iteration`), or could not (it trains on, unsaved). */
  | { kind: 'checkpoint'; iteration: number; savedAt: string }
  | { kind: 'checkpoint-failed'; message: string }
  /** A dream's prediction worker could not start, failed, stopped or hung: the run predicts on without it, only slower. */
  | { kind: 'prediction-worker-lost'; message: string };

/** `starting`: a run is being set up (a dream run indexes the buffer first); Stop already applies. */
export type TrainerState = 'idle' | 'starting' | 'running' | 'paused' | 'done' | 'stopped' | 'error';


/**
 * The Web Lock a run holds while it trains (in any tab of this origin): the checkpoint it saves is
 * the run in progress, not an interrupted one, until the lock is let go (the run ended, or its tab
 * or worker is gone).
 */
export const TRAINING_LOCK = 'dreamgym-training-run';

/**
 * Held by the tab that resumes the interrupted run, for as long as the resumed run goes on: two tabs
 * offered the same run at once (both waited for the lock its crashed tab let go) cannot both resume it.
 */
export const RESUME_LOCK = 'dreamgym-resume-run';

function webLocks(): LockManager | undefined {
  return (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
}

/** Run `work` holding the training lock (where the platform has Web Locks). */
function whileTraining<T>(work: () => Promise<T>): Promise<T> {
  const locks = webLocks();
  // Shared: two tabs may each train (one does not wait for the other); the lock only says one is.
  return locks ? locks.request(TRAINING_LOCK, { mode: 'shared' }, work) : work();
}

async function someRunTrains(): Promise<boolean> {
  const locks = webLocks();
  if (!locks) return false;
  const { held = [] } = await locks.query();
  return held.some((lock) => lock.name === TRAINING_LOCK);
}

/** How often `savedRun` looks again whether the training lock was let go. */
const LOCK_POLL_MS = 500;

/**
 * Resolves once no run holds the training lock. It asks rather than queueing for the lock: a
 * waiting exclusive request would hold back every other tab's new run (Web Locks are granted in order).
 */
async function untilNoRunTrains(): Promise<void> {
  while (await someRunTrains()) await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
}

export class TrainerService {
  private backend: BackendName | null = null;
  /** The probe behind an `auto` choice (measured once per worker, jobs/probe-workload.ts). */
  private probe: BackendProbe | null = null;
  private trainer: Trainer | null = null;
  private control: TrainControl | null = null;
  private state: TrainerState = 'idle';
  private readonly opened = new OpenedSite();
  /** `savedRun`'s wait for the training lock to be let go, while one is pending. */
  private noRunTrains: Promise<void> | null = null;
  /** The Tasks of the run going on (the web environment is narrowed to them until it ends). */
  private activeTasks: string[] | null = null;
  private readonly replayStore = new Once(() => (this.options.openReplayStore ?? (() => IdbReplayStore.open()))());
  private readonly checkpointStore = new Once(() => (this.options.openCheckpointStore ?? (() => IdbCheckpointStore.open<TrainRequest>()))());

  /**
   * The Evaluate view's player of a saved policy (policy-player.ts): it shares this worker's tfjs
   * backend, and waits while a run narrows the web environment to some tasks. The page reaches it
   * as `trainerClient().player` (comlink follows the property).
   */
  readonly player: PolicyPlayer;

  constructor(private readonly options: TrainerServiceOptions = {}) {
    this.player = new PolicyPlayer({ ensureBackend: async () => void (this.backend ?? (await this.init())), activeTasks: () => this.activeTasks });
  }

  /** The page's frames, where web pages live (the app attaches them when it starts this worker). */
  attachPages(port: MessagePort): void {
    attachPageFrames(port);
  }

  /**
   * A folder the person opened (in the Play view) is the `web` environment here too, so a run
   * trains and a policy plays on its pages; `closeSite` puts the bundled suite back.
   */
  openSite(json: unknown, files: readonly string[], folder: string): void {
    if (this.state === 'starting' || this.state === 'running' || this.state === 'paused') throw new UsageError('a training run is going on; stop it before opening another site');
    this.opened.open(json, files, folder);
  }

  closeSite(): void {
    // A run's Tasks stand on the open site until it ends: closing it under them would leave the run's restore putting it back.
    if (this.state === 'starting' || this.state === 'running' || this.state === 'paused') throw new UsageError('a training run is going on; stop it before going back to the bundled suite');
    this.opened.close();
  }

  /**
   * Start tfjs on the named backend (the first of `preference` that works), or, with none named,
   * on the fastest the platform offers, measured by a short probe on the real shapes
   * (jobs/probe-workload.ts); the probe runs once per worker and later inits reuse its figures.
   */
  async init(preference?: BackendName[]): Promise<BackendName> {
    ({ backend: this.backend, probe: this.probe } = await startBackend(preference, this.options.probeCandidates));
    return this.backend;
  }

  /** How `auto` chose this worker's backend (null when the backend was named). */
  backendProbe(): BackendProbe | null {
    return this.probe;
  }

  status(): { state: TrainerState; backend: BackendName | null; realTransitions: number } {
    return { state: this.state, backend: this.backend, realTransitions: this.trainer?.realTransitions ?? 0 };
  }

  /**
   * Train until the budget is spent or `stop()`; events stream to `onEvent` (a comlink proxy in
   * the app). Resolves with the final result; a second start while one runs is refused.
   */
  train(request: TrainRequest, onEvent: (event: TrainerEvent) => void): Promise<TrainResult> {
    return this.runJob(request, onEvent, null);
  }

  /**
   * The run a reload, a crashed worker or a closed tab interrupted, if this browser keeps one. A run
   * some tab is still training is not interrupted: while its lock is held the answer waits, so the
   * run is offered once that tab is closed. A reload needs this too: the reloaded page asks before
   * the old page's worker is gone (Chromium lets it go some time after the new page has started).
   */
  async savedRun(slot?: string): Promise<SavedRunInfo | null> {
    // One wait however often the Train view asks (each visit to it does). A named slot's owner (the
    // guided run, whose two runs train at once) asks without waiting: the wait would last as long
    // as its other run trains.
    if (slot === undefined) {
      this.noRunTrains ??= untilNoRunTrains().finally(() => {
        this.noRunTrains = null;
      });
      await this.noRunTrains;
    }
    const saved = await (await this.checkpointStore.get()).get(slot);
    if (!saved) return null;
    let history: IterationMetrics[] = [];
    try {
      history = decodeCheckpoint(saved.bytes).progress.history;
    } catch {
      // Offered all the same: resuming says what is wrong with it, and it can be discarded.
    }
    const { bytes: _bytes, ...info } = saved;
    return { ...info, history };
  }

  /** Forget the interrupted run. */
  async discardSavedRun(slot?: string): Promise<void> {
    await (await this.checkpointStore.get()).delete(slot);
  }

  /**
   * Go on with the interrupted run from its checkpoint, with the request that started it: it ends
   * where it would have ended uninterrupted (on the same backend). Events and result as `train`'s.
   */
  async resumeSavedRun(onEvent: (event: TrainerEvent) => void, slot?: string): Promise<TrainResult> {
    const locks = webLocks();
    if (!locks) return this.resumeClaimed(onEvent, slot);
    return locks.request(slot === undefined ? RESUME_LOCK : `${RESUME_LOCK}:${slot}`, { ifAvailable: true }, async (claim) => {
      if (claim === null) throw new UsageError('the interrupted run is being resumed in another tab of this browser; it is offered again if that tab is closed before the run ends');
      return this.resumeClaimed(onEvent, slot);
    });
  }

  private async resumeClaimed(onEvent: (event: TrainerEvent) => void, slot?: string): Promise<TrainResult> {
    const saved = await (await this.checkpointStore.get()).get(slot);
    if (!saved) throw new UsageError('there is no interrupted run to resume in this browser');
    let checkpoint: TrainCheckpoint;
    try {
      checkpoint = decodeCheckpoint(saved.bytes);
    } catch (error) {
      if (error instanceof CheckpointError) throw new CheckpointError(error.problem, `the saved run cannot be resumed: ${error.message}. Discard it and start the run again.`, { cause: error });
      throw error;
    }
    return this.runJob(saved.request, onEvent, checkpoint);
  }

  private async runJob(request: TrainRequest, onEvent: (event: TrainerEvent) => void, resume: TrainCheckpoint | null): Promise<TrainResult> {
    if (this.state === 'starting' || this.state === 'running' || this.state === 'paused') {
      throw new DreamGymError('busy', 'a training run is already in progress; stop it first');
    }
    // The run counts as started from here: Stop reaches its control while a dream run indexes the
    // buffer, and a second start is refused.
    const previous = this.state;
    const control = new TrainControl();
    this.control = control;
    this.state = 'starting';
    let dream: DreamOptions | null = null;
    let job: TrainJob;
    let checkpointEverySeconds: number;
    // The run's tasks are the environment's until it ends (its evaluations included).
    let restoreTasks = (): void => undefined;
    try {
      if (request.tasks && request.tasks.length > 0) {
        if (request.env !== 'web') throw new UsageError(`Tasks chooses pages of the web environment; ${request.env} trains on all its tasks`);
        const restore = this.opened.chooseTasks(request.tasks);
        this.activeTasks = request.tasks;
        restoreTasks = () => {
          restore();
          this.activeTasks = null;
        };
      }
      const backend = this.backend ?? (await this.init());
      const mode = request.mode ?? 'real';
      if (mode !== 'real' && mode !== 'dream') throw new UsageError(`unknown mode "${String(mode)}"; the app trains in: real, dream`);
      const run = mode === 'dream' ? checkAppTrainRun('dream', request) : checkAppTrainRun('real', request);
      checkpointEverySeconds = run.checkpointEverySeconds;
      dream = 'syntheticBudget' in run ? await this.dreamOptions(request, run, (message) => onEvent({ kind: 'prediction-worker-lost', message })) : null;
      // Statistics alone never stop a run; a dream run records them in the store it retrieves from.
      const statsStore = request.recordStats ? (dream?.buffer?.store ?? (await this.openReplayStore().catch(() => null))) : null;
      const initialPolicy = request.init ? await fetchPretrained(request.init.url, 'policy') : undefined;
      job = { env: request.env, mode, algo: request.algo, backend, run, curriculum: Boolean(request.curriculum), algoConfig: request.algoConfig, dream: dream ?? undefined, statsStore, maxDifficulty: request.maxDifficulty, initialPolicy };
    } catch (error) {
      if (dream) disposeModel(dream.model);
      restoreTasks();
      this.state = previous;
      throw error;
    }
    let running = false;
    try {
      // A Stop during set-up ends the run at its first check, with the usual (stopped) result.
      const { result: trained } = await whileTraining(async () => {
        const outcome = await train(job, {
          control,
          checkpoint: { everySeconds: checkpointEverySeconds, save: (checkpoint) => this.saveCheckpoint(request, checkpoint, onEvent) },
          ...(resume ? { resume } : {}),
          // Only a trainer built from a good request replaces the old one, so a bad request (λ out of range…) leaves the last run readable.
          onStart: (trainer) => {
            running = true;
            this.trainer?.dispose();
            this.trainer = trainer;
            this.state = 'running';
          },
          onIteration: (metrics) => onEvent({ kind: 'iteration', metrics }),
          onEvalProgress: (done, total) => onEvent({ kind: 'evaluating', done, total }),
        });
        // A run that ended is not to be resumed: done, or stopped on purpose (its policy can still be
        // exported). Forgotten before the lock is let go, so a tab waiting for the lock never offers it.
        await this.checkpointStore
          .get()
          .then((store) => store.delete(request.checkpointSlot))
          .catch(() => undefined);
        return outcome;
      });
      // Every result says how its backend was chosen: the probe's figures, or none when it was named.
      const result: TrainResult = this.probe ? { ...trained, backendProbe: this.probe } : trained;
      this.state = result.stopped ? 'stopped' : 'done';
      onEvent({ kind: 'done', result });
      return result;
    } catch (error) {
      if (!running) {
        this.state = previous;
        throw error;
      }
      this.state = 'error';
      const message = errorMessage(error);
      onEvent({ kind: 'error', message });
      throw error;
    } finally {
      // The run's own copy of the model: the Experience view keeps (and may replace) the saved file.
      if (dream) disposeModel(dream.model);
      restoreTasks();
    }
  }

  /** Keep the run's checkpoint; a store that refuses (quota, a closed database) is reported and the run trains on. */
  private async saveCheckpoint(request: TrainRequest, checkpoint: TrainCheckpoint, onEvent: (event: TrainerEvent) => void): Promise<void> {
    const { progress } = checkpoint;
    const saved: SavedTrainRun<TrainRequest> = {
      request,
      backend: checkpoint.backend,
      iteration: progress.iteration,
      realTransitions: progress.realTransitions,
      syntheticTransitions: progress.syntheticTransitions,
      savedAt: checkpoint.savedAt,
      bytes: encodeCheckpoint(checkpoint),
    };
    try {
      await (await this.checkpointStore.get()).put(saved, request.checkpointSlot);
      onEvent({ kind: 'checkpoint', iteration: progress.iteration, savedAt: checkpoint.savedAt });
    } catch (error) {
      onEvent({ kind: 'checkpoint-failed', message: `the run could not be saved to this browser (${errorMessage(error)}); it trains on, but a reload would lose it` });
    }
  }

  /**
   * Mode dream's model and retrieval, set up by the dream job: the experience model chosen in the
   * Experience view (any kind that runs in a worker; the neural one is the model saved for the env,
   * which that view fits or imports) over the replay store's real transitions of that env (the
   * Buffer view seeds them). Synthetic transitions are written back to the same store, as the CLI
   * writes them to its buffer file; retrieval reads only the real ones. Each missing part is named
   * with where to get it.
   */
  private async dreamOptions(request: TrainRequest, run: { syntheticBudget: number; k: number }, onWorkerLost: (reason: string) => void): Promise<DreamOptions> {
    const choice = request.experience ?? { kind: 'neural' };
    const entry = experienceModel(choice.kind, 'worker');
    const settings = checkFormSettings(entry, choice.settings, run.k);
    let store: ReplayStore;
    try {
      store = await this.openReplayStore();
    } catch (error) {
      throw new DreamGymError('storage', `mode dream retrieves from this browser's replay buffer, which could not be opened (${errorMessage(error)})`, { cause: error });
    }
    store.setLimits(request.storeLimits ?? { cap: null, evictReal: false });
    return buildDream({
      env: request.env,
      experience: { kind: entry.kind, settings },
      context: {
        runtime: 'worker',
        readFile: () => this.savedModelBytes(request.env),
        ...(this.options.predictionWorkers
          ? { predictionWorkers: { count: defaultPredictionWorkers(this.options.predictionWorkers.cores, run.syntheticBudget), spawn: this.options.predictionWorkers.spawn, onWorkerLost } }
          : {}),
        ...(choice.participant !== undefined ? { headers: { [ROOM_CLIENT_HEADER]: choice.participant } } : {}),
      },
      store,
      openBuffer: () => ReplayBuffer.open(store, { filter: { env: request.env, source: 'real' } }),
      source: { name: 'the replay buffer', howToSeed: 'seed it in the Buffer view first' },
      syntheticBudget: run.syntheticBudget,
    }).catch((error: unknown) => {
      if (entry.kind === 'neural' && error instanceof ModelFileError) {
        throw new UsageError(`the saved neural model for ${request.env} cannot be used (${errorMessage(error)}); fit it again or import a .dgx file in the Experience view`, { cause: error });
      }
      throw error;
    });
  }

  /** The neural model this browser keeps for `env` (the Experience view fits or imports it), as bytes. */
  private async savedModelBytes(env: string): Promise<Uint8Array> {
    let saved: SavedNeuralModel | undefined;
    try {
      saved = await this.savedModel(env);
    } catch (error) {
      throw new DreamGymError('storage', `the saved neural models could not be read (${errorMessage(error)}); fit or import one in the Experience view`, { cause: error });
    }
    if (!saved) throw new UsageError(`no neural experience model is fitted for ${env} in this browser: fit one (or import a .dgx file) in the Experience view first`);
    return saved.bytes;
  }

  /** Pause a running run; returns the state after (a run that already ended is not 'paused'). */
  pause(): TrainerState {
    if (this.state === 'running') {
      this.control?.pause();
      this.state = 'paused';
    }
    return this.state;
  }

  resume(): void {
    if (this.state !== 'paused') return;
    this.control?.resume();
    this.state = 'running';
  }

  stop(): void {
    this.control?.stop();
  }

  /**
   * The live (or last) run's curriculum: its summary and its tasks, the most varied first (at most
   * `limit`); null when that run has none. Sorting a few thousand tasks is cheap once, so the page
   * asks when it shows them, not on every iteration.
   */
  curriculumSnapshot(limit?: number): CurriculumSnapshot | null {
    const trainer = this.trainer;
    const curriculum = trainer?.curriculum;
    if (!trainer || !curriculum) return null;
    const all = curriculum.rows();
    const rows = (limit === undefined ? all : all.slice(0, Math.max(0, limit))).map((row) => ({
      ...row,
      parentInstruction: row.parentId ? (curriculum.task(row.parentId)?.instruction ?? null) : null,
    }));
    return { summary: curriculum.summary(), total: all.length, rows, iterations: trainer.history.length };
  }

  /** The live (or last) run's curriculum rows, the most varied first; [] when it has no curriculum. */
  curriculumRows(limit?: number): CurriculumViewRow[] {
    return this.curriculumSnapshot(limit)?.rows ?? [];
  }

  /** The app's replay store, opened once; a failed opening is tried again on the next call. */
  private openReplayStore(): Promise<ReplayStore> {
    return this.replayStore.get();
  }

  /**
   * The env's saved neural model, read afresh for each dream run (the Experience view may have
   * fitted another meanwhile) from a connection opened for the read alone, so another tab's
   * schema upgrade never leaves this worker holding a closed one.
   */
  private async savedModel(env: string): Promise<SavedNeuralModel | undefined> {
    const store = await (this.options.openModelStore ?? (() => IdbNeuralModelStore.open()))();
    try {
      return (await store.all()).find((m) => m.env === env);
    } finally {
      store.close?.();
    }
  }

  /**
   * The policy every run with `seed` starts from, judged greedily on `episodes` held-out tasks of
   * `env` (the CLI's `train --iterations 0`): the baseline a trained policy's gain is measured from.
   */
  async evaluateUntrained(env: string, seed: number, episodes: number, onProgress?: (done: number, total: number) => void): Promise<EvalResult> {
    if (this.state === 'starting' || this.state === 'running' || this.state === 'paused') throw new DreamGymError('busy', 'a training run is going on; stop it first');
    const backend = this.backend ?? (await this.init());
    const trainer = createTrainer({ env, mode: 'real', algo: 'grpo', backend, curriculum: false, run: { seed, realBudget: 1, evalEvery: 0, iterations: 0, finalEvalEpisodes: episodes, lambda: 0, explorationFloor: 0 } });
    try {
      const result = await trainer.run(onProgress ? { onEvalProgress: onProgress } : {});
      if (!result.eval) throw new DreamGymError('no-eval', 'the untrained policy was not evaluated');
      return result.eval;
    } finally {
      trainer.dispose();
    }
  }

  /** A few seeded updates on a fixed batch, for comparing backends (see train/consistency.ts). */
  async probeUpdates(seed: number, updates: number): Promise<ProbeResult> {
    const backend = this.backend ?? (await this.init());
    return probeUpdates({ backend, seed, updates });
  }

  /** The current policy as a `.dgp` file: safe to call mid-run (weights are read in one pass). */
  async exportPolicy(): Promise<Uint8Array> {
    const trainer = this.trainer;
    if (!trainer || !this.backend) throw new UsageError('nothing to export yet: start a training run first');
    return exportTrainedPolicy(trainer, this.backend);
  }


}
