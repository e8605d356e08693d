/**
 * The Runs view's curves in uPlot's aligned form: one x axis shared by every run (the union of
 * their x values), one column per run with null where that run has no point (the chart spans the
 * gaps, so each run still draws as one line).
 */
import type { RunData } from './run-file.ts';

export type AlignedColumns = [number[], ...(number | null)[][]];

/** Mid-tone colours that read on both the light and the dark background, then again dashed, then dotted. */
export const RUN_COLORS = ['#3b82f6', '#f08c00', '#2f9e44', '#ae3ec9', '#e03131', '#0c8599', '#a0522d', '#d6336c'];
const DASHES: (number[] | undefined)[] = [undefined, [6, 4], [2, 3]];

export function runStyle(index: number): { color: string; dash?: number[] } {
  const color = RUN_COLORS[index % RUN_COLORS.length] as string;
  const dash = DASHES[Math.floor(index / RUN_COLORS.length) % DASHES.length];
  return dash ? { color, dash } : { color };
}

/** One x → y map per run onto a shared, sorted x axis. */
export function align(series: readonly Map<number, number>[]): AlignedColumns {
  const xs = [...new Set(series.flatMap((s) => [...s.keys()]))].sort((a, b) => a - b);
  return [xs, ...series.map((s) => xs.map((x) => s.get(x) ?? null))];
}

/** Total transitions (real + synthetic): what a run has spent when a point was taken. */
export function totalTransitions(point: { realTransitions: number; syntheticTransitions: number }): number {
  return point.realTransitions + point.syntheticTransitions;
}

/**
 * Held-out success against total transitions: every evaluation during training, then the final
 * one at the run's end (which replaces a mid-run one at the same point, being the larger sample).
 */
export function heldOutPoints(run: RunData): Map<number, number> {
  const points = new Map<number, number>();
  for (const m of run.history) if (m.eval) points.set(totalTransitions(m), m.eval.successRate);
  if (run.eval) points.set(totalTransitions(run), run.eval.successRate);
  return points;
}

/** Training success (on the iteration's own sampled episodes) by iteration. */
export function trainingPoints(run: RunData): Map<number, number> {
  return new Map(run.history.map((m) => [m.iteration, m.successRate]));
}

export function heldOutData(runs: readonly RunData[]): AlignedColumns {
  return align(runs.map(heldOutPoints));
}

export function trainingData(runs: readonly RunData[]): AlignedColumns {
  return align(runs.map(trainingPoints));
}
