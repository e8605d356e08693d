/**
 * How many prediction workers a caller starts by default (experience/neural/prediction-pool.ts):
 * the cores it may use, less the one its own thread predicts on, and at most MAX_DEFAULT_WORKERS,
 * since each holds a copy of the model and its memos. Shared by Node (node-prediction-workers.ts)
 * and the browser's trainer worker, so that neither restates the other's default.
 */
export const MAX_DEFAULT_WORKERS = 3;

export function defaultPredictionWorkers(cores: number): number {
  return Math.max(0, Math.min(MAX_DEFAULT_WORKERS, Math.floor(cores) - 1));
}
