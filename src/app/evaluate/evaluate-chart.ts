/**
 * The Evaluate view's chart of a policy: how it learned (success on its training episodes, and its
 * held-out evaluations during and at the end of training) and where the evaluation run here lands,
 * against the transitions it spent. From a stored run's whole history, or from the curve a `.dgp`
 * card carries (`training.curve`, a few points). Pure: no DOM, no tfjs.
 */
import type { PolicyFileHeader } from '../../policy/dgp.ts';
import { align, heldOutPoints, totalTransitions, type AlignedColumns } from '../runs/run-charts.ts';
import type { RunData } from '../runs/run-file.ts';

/** What the chart draws: each curve as x (transitions spent) → success rate. */
export interface PolicyCurve {
  /** Where training's own episodes were played: inside the experience model (dream) or the real env. */
  trainedIn: 'model' | 'real';
  training: Map<number, number>;
  /** Held-out evaluations during and at the end of training (real environment, test split). */
  heldOut: Map<number, number>;
  /** Transitions the policy had spent when training ended: where an evaluation run here is drawn. */
  spent: number;
}

const number = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** A card's `[transitions, success]` points; anything else in the file is left out. */
function cardPoints(points: unknown): Map<number, number> {
  const out = new Map<number, number>();
  if (!Array.isArray(points)) return out;
  for (const p of points) {
    if (!Array.isArray(p)) continue;
    const x = number(p[0]);
    const y = number(p[1]);
    if (x !== null && y !== null && y >= 0 && y <= 1) out.set(x, y);
  }
  return out;
}

/** A stored run's curve: every iteration's training success, every held-out evaluation. */
export function runCurve(run: RunData): PolicyCurve {
  return {
    trainedIn: run.mode === 'dream' ? 'model' : 'real',
    training: new Map(run.history.map((m) => [totalTransitions(m), m.successRate])),
    heldOut: heldOutPoints(run),
    spent: totalTransitions(run),
  };
}

/** A policy file's curve, from its card (a few points; none in a file that carries no curve). */
export function cardCurve(header: PolicyFileHeader): PolicyCurve {
  const training = header.training;
  const { heldOut, training: trainingPoints } = (training.curve ?? {}) as { heldOut?: unknown; training?: unknown };
  const spent = (number(training.realTransitions) ?? 0) + (number(training.syntheticTransitions) ?? 0);
  const held = cardPoints(heldOut);
  const final = number(header.evaluation?.successRate);
  if (final !== null && final >= 0 && final <= 1) held.set(spent, final);
  return { trainedIn: training.mode === 'dream' ? 'model' : 'real', training: cardPoints(trainingPoints), heldOut: held, spent };
}

/** The three columns the chart draws: training success, held-out during training, the evaluation here. */
export function curveColumns(curve: PolicyCurve, evaluated: number | null): AlignedColumns {
  return align([curve.training, curve.heldOut, new Map(evaluated === null ? [] : [[curve.spent, evaluated]])]);
}

/** Whether there is anything to draw. */
export function hasCurve(curve: PolicyCurve, evaluated: number | null): boolean {
  return curve.training.size > 0 || curve.heldOut.size > 0 || evaluated !== null;
}
