/**
 * How many prediction workers a caller starts by default (experience/neural/prediction-pool.ts),
 * shared by Node (node-prediction-workers.ts) and the browser's trainer worker, so that neither
 * restates the other's default:
 *
 * - the cores it may use, less the one its own thread predicts on, and at most MAX_DEFAULT_WORKERS,
 *   since each holds a copy of the model and its memos;
 * - none for a run of fewer than WORKERS_PAY_FROM predictions. A worker costs its start (the model
 *   compiled and loaded again) and the thousands of predictions that fill its memos: on the 2-core
 *   development machine a dream of 8,000 steps took longer with one worker than with none, and one of
 *   40,000 steps less (docs/benchmarks.md, the model at the policy's pace, gives the commands).
 */
export const MAX_DEFAULT_WORKERS = 3;
export const WORKERS_PAY_FROM = 16_384;

/** Workers by default for `cores`, and for a run of `predictions` (unknown: as many as the cores give). */
export function defaultPredictionWorkers(cores: number, predictions = Number.POSITIVE_INFINITY): number {
  if (predictions < WORKERS_PAY_FROM) return 0;
  return Math.max(0, Math.min(MAX_DEFAULT_WORKERS, Math.floor(cores) - 1));
}
