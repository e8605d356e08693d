/**
 * Prediction workers under Node (the CLI, the benches, the experiments): worker threads, each
 * running prediction-worker.node.ts.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { PredictionWorker, PredictionWorkers } from '../experience/neural/prediction-pool.ts';
import { defaultPredictionWorkers } from './prediction-worker-count.ts';

/**
 * A worker's young generation, as large as the CLI's and the benches' own (`node
 * --max-semi-space-size=64`: V8's young generation is three semi-spaces). A prediction allocates
 * many short-lived objects, and at a worker's default (16 MB semi-spaces) the scavenges kept a worker
 * well below its parent thread's pace (docs/benchmarks.md, the model at the policy's pace).
 */
const YOUNG_GENERATION_MB = 3 * 64;

function spawnNodeWorker(): PredictionWorker {
  const worker = new Worker(new URL('./prediction-worker.node.mjs', import.meta.url), { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
  // Idle, a worker does not keep a finished command alive (`busy` refs it while it owes an answer).
  worker.unref();
  return {
    port: { post: (message) => worker.postMessage(message), onMessage: (handle) => worker.on('message', handle) },
    onStop: (handle) => {
      worker.once('error', (error) => handle(error.message));
      worker.once('exit', (code) => handle(`exit code ${code}`));
    },
    terminate: () => void worker.terminate(),
    busy: (owes) => (owes ? worker.ref() : worker.unref()),
  };
}

/** What a Node caller says of its prediction workers. */
export interface NodeWorkerPlan {
  /** How many; absent, `defaultPredictionWorkers` for this machine's cores and `predictions`. */
  count?: number;
  /** How many predictions the run will ask for, where it knows (a dream's synthetic budget): a short run starts none. */
  predictions?: number;
  /** Why a worker was dropped (its shards are then predicted on the caller's thread). */
  onWorkerLost?: (reason: string) => void;
}

/** Node worker threads for a prediction pool, as many as `plan` says. */
export function nodePredictionWorkers(plan: NodeWorkerPlan = {}): PredictionWorkers {
  const count = plan.count ?? defaultPredictionWorkers(availableParallelism(), plan.predictions);
  return { count, spawn: spawnNodeWorker, ...(plan.onWorkerLost ? { onWorkerLost: plan.onWorkerLost } : {}) };
}
