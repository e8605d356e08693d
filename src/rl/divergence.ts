/**
 * A diverged update: a loss, a gradient or a weight that is no longer a finite number. Every
 * update after it would train on NaN and end in a policy of NaN, so the run stops at the first
 * one, with the weights (and the optimiser's moments) put back as they were before it.
 */
import { tf } from '../platform/tf.ts';
import type { Adam } from './adam.ts';

/** Where a run diverged and what went non-finite. */
export interface Divergence {
  /** The iteration (an offline run's epoch) whose update went non-finite; the policy kept is the one before it. */
  iteration: number;
  /** The statistics that were not finite, by name (`gradNorm`, `policyLoss`…), or `weights`. */
  nonFinite: string[];
  /** The learning rate of that update. */
  learningRate: number;
}

/**
 * Whether every weight is a finite number, read back as one value: each weight times 0 is 0, or
 * NaN for a NaN or an infinity, so the sum of them all is 0 exactly when every weight is finite.
 * Only Mul, Sum and Add: the app's tfjs build registers no IsFinite or All kernel on every backend,
 * nor the chained `.all()` (it failed in the trainer worker).
 */
export async function weightsFinite(variables: readonly tf.Variable[]): Promise<boolean> {
  const total = tf.tidy(() => variables.map((x) => tf.sum(tf.mul(x, 0))).reduce((a, b) => tf.add(a, b), tf.scalar(0)));
  try {
    return Number.isFinite((await total.data())[0]);
  } finally {
    total.dispose();
  }
}

/**
 * Run `update` (one iteration's or epoch's gradient steps) and check what it measured and the
 * weights it left; when anything is not finite, the weights and moments go back to what they were
 * before it. `nonFinite` is empty when the update stands.
 */
export async function guardedUpdate<S>(optimizer: Adam, variables: readonly tf.Variable[], update: () => Promise<S>, measured: (stats: S) => Record<string, number>): Promise<{ stats: S; nonFinite: string[] }> {
  const mark = optimizer.mark();
  try {
    const stats = await update();
    const nonFinite = Object.entries(measured(stats))
      .filter(([, value]) => !Number.isFinite(value))
      .map(([name]) => name);
    if (nonFinite.length === 0 && !(await weightsFinite(variables))) nonFinite.push('weights');
    if (nonFinite.length > 0) mark.rewind();
    return { stats, nonFinite };
  } finally {
    mark.dispose();
  }
}

/** How far from its default a setting may be before it is named as a likely cause of a divergence. */
const SUSPECT_RATIO = 100;
const SUSPECT_SIZE = 1e6;

/**
 * The numeric settings that differ from their defaults by a factor of SUSPECT_RATIO or more (or
 * that are huge): the likely causes of a divergence, as `name=value (default d)`.
 */
export function suspectSettings(config: Readonly<Record<string, unknown>>, defaults: Readonly<Record<string, unknown>>): string[] {
  return Object.entries(config).flatMap(([name, value]) => {
    const base = defaults[name];
    if (typeof value !== 'number' || typeof base !== 'number' || value === base || name === 'learningRate') return [];
    // A setting turned off (0) does not explode; one turned on from 0 is suspect only when huge.
    const ratio = base === 0 || value === 0 ? 0 : Math.max(Math.abs(value / base), Math.abs(base / value));
    return ratio >= SUSPECT_RATIO || Math.abs(value) >= SUSPECT_SIZE ? [`${name}=${value} (default ${base})`] : [];
  });
}
