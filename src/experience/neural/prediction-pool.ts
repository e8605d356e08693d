/**
 * `PredictionPool`: the neural experience model spread over the machine's cores. A dream asks the
 * model for one prediction per lane each step, and most of a prediction is plain JavaScript (its
 * candidates and their features, per input) that one thread runs one input at a time: on shop, at
 * batch 32, one thread predicts at about half the pace the policy rolls out (`npm run bench --
 * pace`). The inputs of a batch are independent, so the pool splits each batch into contiguous
 * shards: this thread predicts the first, and each worker one of the others, with its own copy of
 * the same model loaded from the same file.
 *
 * What it returns is what the model alone returns, input for input: every shard is predicted by
 * the same weights on the same backend, and a sampling dream's draws are seeded per input
 * (`imaginationSeeds`), so how a batch is split changes nothing. A worker that fails or stops is
 * dropped (the `onWorkerLost` callback says why) and its shard predicted here, so a run loses
 * nothing but speed. So is one that hangs: a worker that has not loaded the model in `loadMs`, or
 * has not answered a shard long after this thread predicted its own (`SHARD_PATIENCE`), is ended.
 */
import { errorMessage } from '../../core/errors.ts';
import { tf, type BackendName } from '../../platform/tf.ts';
import { emptyStats, type ExperienceInput, type ExperienceModel, type ExperiencePrediction, type ExperienceStats } from '../types.ts';
import { imaginationSeeds, type NeuralExperienceModel, type NeuralPredictOptions } from './model.ts';
import type { FromWorker, PredictionPort, ToWorker } from './prediction-server.ts';
import { WireEncoder, WireNumbers } from './prediction-wire.ts';

/** A started worker, as the platform that spawned it lends it (jobs/node-prediction-workers.ts, workers/prediction-spawn.ts). */
export interface PredictionWorker {
  port: PredictionPort;
  /** Called once when the worker stops on its own (an uncaught error, an exit): why. */
  onStop(handle: (reason: string) => void): void;
  terminate(): void;
  /** Whether it owes an answer: a Node worker thread keeps the process alive only while it does, so a command ends without closing its pool. */
  busy?(owes: boolean): void;
}

export interface PredictionWorkers {
  /** How many workers to start besides this thread; 0 predicts here alone. */
  count: number;
  spawn: () => PredictionWorker;
  /** A worker was lost (it could not start, failed a shard, stopped or hung): why, in words for a person. */
  onWorkerLost?: (reason: string) => void;
  /** How long a worker may take before it counts as hung; the defaults are `HANG_LIMITS`. */
  hangLimits?: HangLimits;
}

export interface HangLimits {
  /** To load the model: under Node a worker compiles the model's TypeScript first, in a browser it fetches its chunk. */
  loadMs: number;
  /** The least time a worker is given for a shard after this thread has predicted its own. */
  shardMs: number;
}

/**
 * Generous on purpose: a worker that is merely slow (its memos cold, a garbage collection, a busy
 * machine) costs only speed, while one ended by mistake costs its core for the rest of the run.
 */
export const HANG_LIMITS: HangLimits = { loadMs: 120_000, shardMs: 10_000 };

/**
 * A worker's shard is equal to this thread's, so its answer is due about when this thread's own is
 * done: it counts as hung once it is SHARD_PATIENCE times this thread's time late (and at least
 * `shardMs`).
 */
export const SHARD_PATIENCE = 20;

/**
 * Below this many inputs per shard a batch is predicted here whole: a worker's round trip (the
 * inputs copied out, the predictions back) costs more than a few inputs' prediction. The shards are
 * equal: a split by each thread's measured pace was tried, and on this project's machine it was not
 * faster.
 */
export const MIN_SHARD = 4;

/**
 * Workers start once this thread has predicted this many inputs alone. A worker takes a core's time
 * to start (under Node it compiles the model's TypeScript again) and reaches its pace only after a
 * few thousand predictions have filled its memos, so a short run (an Experience view
 * step, a test's dream, a smoke run) would spend more on it than it saves; a dream of tens of
 * thousands of steps spends under a tenth of them waiting.
 */
export const START_AFTER = 2048;

interface Pending {
  resolve: (predictions: ExperiencePrediction[]) => void;
  reject: (error: Error) => void;
}

class PooledWorker {
  readonly encoder: WireEncoder;
  private readonly pending = new Map<number, Pending>();
  private nextCall = 0;
  private loaded: { resolve: () => void; reject: (error: Error) => void } | null = null;
  stats: ExperienceStats = emptyStats();
  stopped: string | null = null;

  constructor(
    private readonly worker: PredictionWorker,
    numbers: WireNumbers,
  ) {
    this.encoder = new WireEncoder(numbers);
    worker.port.onMessage((message) => this.receive(message as FromWorker));
    worker.onStop((reason) => this.stop(`it stopped (${reason})`));
  }

  load(bytes: Uint8Array, env: string, backend: BackendName, limitMs: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    return new Promise<void>((resolve, reject) => {
      this.loaded = { resolve, reject };
      this.worker.busy?.(true);
      this.post({ type: 'load', bytes, env, backend });
      timer = setTimeout(() => this.stop(`it did not load the model within ${seconds(limitMs)}`), limitMs);
    }).finally(() => {
      clearTimeout(timer);
      this.worker.busy?.(false);
    });
  }

  predict(inputs: readonly ExperienceInput[], seeds: readonly number[] | undefined): Promise<ExperiencePrediction[]> {
    const call = this.nextCall++;
    return new Promise<ExperiencePrediction[]>((resolve, reject) => {
      this.pending.set(call, { resolve, reject });
      this.worker.busy?.(true);
      this.post({ type: 'predict', call, inputs: this.encoder.encode(inputs), ...(seeds ? { seeds } : {}) });
    });
  }

  /** End it, failing whatever it still owes with `reason`. */
  stop(reason: string): void {
    if (this.stopped !== null) return;
    this.stopped = reason;
    this.worker.terminate();
    const error = new Error(reason);
    this.loaded?.reject(error);
    this.loaded = null;
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
  }

  private post(message: ToWorker): void {
    if (this.stopped !== null) throw new Error(this.stopped);
    this.worker.port.post(message);
  }

  private receive(message: FromWorker): void {
    if (message.type === 'loaded') {
      this.loaded?.resolve();
      this.loaded = null;
    } else if (message.type === 'predicted') {
      this.stats = message.stats;
      this.settle(message.call)?.resolve(message.predictions as ExperiencePrediction[]);
    } else if (message.call === null) {
      this.stop(`it could not load the model: ${message.message}`);
    } else {
      this.stop(`it failed a shard: ${message.message}`);
    }
  }

  private settle(call: number): Pending | undefined {
    const p = this.pending.get(call);
    this.pending.delete(call);
    if (this.pending.size === 0) this.worker.busy?.(false);
    return p;
  }
}

export class PredictionPool implements ExperienceModel {
  readonly name: string;
  /** Every worker started (null: none yet), and each one's load, which settles once it has joined the pool or been left out. */
  private starting: { worker: PooledWorker; loaded: Promise<void> }[] | null = null;
  private workers: PooledWorker[] = [];
  /** The stats of workers already lost, kept so that no prediction goes uncounted. */
  private lostStats: ExperienceStats[] = [];
  private readonly onWorkerLost: (reason: string) => void;
  private readonly hangLimits: HangLimits;
  /** Inputs predicted before the workers started. */
  private predictedAlone = 0;

  /**
   * `local` with `workers.count` workers beside it, each loading `bytes` (the file `local` was read
   * from). They start once this thread has predicted START_AFTER inputs (or on `ready()`), and join
   * once they have loaded the model; until then this thread predicts alone, so nothing waits on a
   * worker's start and a short run starts none.
   */
  constructor(
    private readonly local: NeuralExperienceModel,
    private readonly bytes: Uint8Array,
    private readonly spawner: PredictionWorkers,
  ) {
    this.name = local.name;
    this.onWorkerLost = spawner.onWorkerLost ?? (() => {});
    this.hangLimits = spawner.hangLimits ?? HANG_LIMITS;
  }

  /** Workers predicting beside this thread now. */
  get workerCount(): number {
    return this.workers.length;
  }

  /** Start the workers now, without waiting for START_AFTER inputs, and resolve once each has loaded the model or been left out (tests, benches: a pool at full strength). */
  async ready(): Promise<void> {
    this.start();
    await Promise.all((this.starting ?? []).map((s) => s.loaded));
  }

  async predict(batch: readonly ExperienceInput[], options: NeuralPredictOptions = {}): Promise<ExperiencePrediction[]> {
    if (this.starting === null && (this.predictedAlone += batch.length) >= START_AFTER) this.start();
    const parts = Math.min(this.workers.length + 1, Math.floor(batch.length / MIN_SHARD));
    if (parts <= 1) return this.local.predict(batch, options);
    options.signal?.throwIfAborted();
    const seeds = options.seeds ?? (options.random ? imaginationSeeds(options.random, batch.length) : undefined);
    const size = Math.ceil(batch.length / parts);
    const shard = <T>(items: readonly T[], i: number) => items.slice(i * size, (i + 1) * size);
    const shardWorkers = this.workers.slice(0, parts - 1);
    // Whether each worker still owes its shard's answer (a failed one owes nothing: its shard goes to predictHere).
    const owes = shardWorkers.map(() => true);
    const remote = shardWorkers.map((worker, w) => {
      const inputs = shard(batch, w + 1);
      const shardSeeds = seeds && shard(seeds, w + 1);
      return worker
        .predict(inputs, shardSeeds)
        .finally(() => (owes[w] = false))
        .catch((error: unknown) => this.predictHere(worker, error, inputs, shardSeeds));
    });
    const timers: ReturnType<typeof setTimeout>[] = [];
    try {
      // Only the shards' inputs and draws differ from a call of the model alone: `candidates` and `signal` go with this thread's.
      const started = performance.now();
      const here = await this.local.predict(shard(batch, 0), { ...options, ...(seeds ? { seeds: shard(seeds, 0) } : {}) });
      const patience = Math.max(this.hangLimits.shardMs, SHARD_PATIENCE * (performance.now() - started));
      shardWorkers.forEach((worker, w) => {
        if (owes[w]) timers.push(setTimeout(() => owes[w] && worker.stop(`it did not answer a shard within ${seconds(patience)} of this thread predicting its own`), patience));
      });
      const predicted = [here, ...(await Promise.all(remote))].flat();
      options.signal?.throwIfAborted();
      return predicted;
    } finally {
      for (const timer of timers) clearTimeout(timer);
    }
  }

  private start(): void {
    if (this.starting !== null) return;
    this.starting = [];
    const numbers = new WireNumbers();
    const backend = tf.getBackend() as BackendName;
    for (let i = 0; i < this.spawner.count; i++) {
      let worker: PooledWorker;
      try {
        worker = new PooledWorker(this.spawner.spawn(), numbers);
      } catch (error) {
        this.onWorkerLost(`a prediction worker could not be started (${errorMessage(error)}); ${this.starting.length} worker(s) predict beside this thread`);
        break;
      }
      const loaded = worker.load(this.bytes, this.local.meta.env, backend, this.hangLimits.loadMs).then(
        () => {
          if (worker.stopped === null) this.workers.push(worker);
        },
        (error: unknown) => {
          worker.stop(errorMessage(error));
          this.onWorkerLost(`a prediction worker was left out: ${errorMessage(error)}`);
        },
      );
      this.starting.push({ worker, loaded });
    }
  }

  /** A worker failed its shard: drop it and predict the shard here, with the same draws. */
  private predictHere(worker: PooledWorker, error: unknown, inputs: readonly ExperienceInput[], seeds: readonly number[] | undefined): Promise<ExperiencePrediction[]> {
    if (this.workers.includes(worker)) {
      worker.stop(errorMessage(error));
      this.workers = this.workers.filter((w) => w !== worker);
      this.lostStats.push(worker.stats);
      this.onWorkerLost(`a prediction worker was lost (${errorMessage(error)}); its shard is predicted on this thread, and ${this.workers.length} worker(s) go on`);
    }
    return this.local.predict(inputs, seeds ? { seeds } : {});
  }

  stats(): ExperienceStats {
    const total = this.local.stats();
    for (const s of [...this.workers.map((w) => w.stats), ...this.lostStats]) {
      for (const key of Object.keys(total) as (keyof ExperienceStats)[]) total[key] += s[key];
    }
    return total;
  }

  /** End the workers and free the model. */
  dispose(): void {
    for (const { worker } of this.starting ?? []) worker.stop('the pool was closed');
    this.workers = [];
    this.local.dispose();
  }
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
