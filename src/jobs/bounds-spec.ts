/**
 * Bounds that several jobs' specs share, said the way the command line has always said them
 * ("must be an integer ≥ 1 …", "must be a number in [0, 1]"), each now with an upper end. tfjs-free.
 */
import * as v from 'valibot';

const amount = (n: number): string => n.toLocaleString('en-US');

/** An integer in [min, max]; text that is no number at all gets the same words. */
export const integerIn = (min: number, max: number) => {
  const message = `must be an integer ≥ ${amount(min)} and ≤ ${amount(max)}`;
  return v.pipe(v.number(message), v.check((n) => Number.isInteger(n) && n >= min && n <= max, message));
};

/** A finite number in [min, max]. */
export const numberWithin = (min: number, max: number) => {
  const message = `must be a number in [${min}, ${max}]`;
  return v.pipe(v.number(message), v.check((n) => Number.isFinite(n) && n >= min && n <= max, message));
};

/** A finite number in (0, max]: a scale that 0 would switch off. */
export const positiveUpTo = (max: number) => {
  const message = `must be a number > 0 and ≤ ${max}`;
  return v.pipe(v.number(message), v.check((n) => Number.isFinite(n) && n > 0 && n <= max, message));
};

/** A switch's two values (`--curriculum`, `--reasoning`). */
export const ON_OFF = ['on', 'off'] as const;

/** One of `choices`. */
export const oneOf = <const T extends string>(choices: readonly T[]) => v.picklist(choices, `must be one of: ${choices.join(', ')}`);

/** Episodes one command may play (a rollout, a seeding, an evaluation): far above any run's, far below a hang. */
export const MAX_EPISODES = 1_000_000;

/** An episode's step limit at most (the environments' own are 15 and 50). */
export const MAX_EPISODE_STEPS = 10_000;

/** Seeds where none is given. */
export const DEFAULT_SEED = 0;
