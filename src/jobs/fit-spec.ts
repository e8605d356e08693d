/**
 * The spec of fitting the neural experience model: every default and bound, for the CLI's
 * `experience fit` and the app's Experience view alike. tfjs-free.
 */
import * as v from 'valibot';
import { DEFAULT_FIT } from '../experience/neural/fit-settings.ts';
import { MAX_RECORDED_EPOCHS } from '../experience/neural/training-record.ts';
import { MAX_K } from '../replay/retrieval.ts';
import { integerIn, numberWithin, ON_OFF, oneOf } from './bounds-spec.ts';
import { SEED } from './spec.ts';

export const MAX_EPOCHS = MAX_RECORDED_EPOCHS;

export const FIT_SPEC = v.strictObject(
  {
    env: v.pipe(v.string(), v.minLength(1, 'is required')),
    /** Passes over the training transitions. */
    epochs: v.optional(integerIn(1, MAX_EPOCHS), DEFAULT_FIT.epochs),
    /** Retrieved examples per transition, as at prediction time. */
    k: v.optional(integerIn(1, MAX_K), DEFAULT_FIT.k),
    seed: v.optional(SEED, DEFAULT_FIT.seed),
    /** Share of episodes held out for the per-epoch fidelity. */
    validationShare: v.optional(numberWithin(0, 0.9), DEFAULT_FIT.validationShare),
    /** Learn from at most this many real transitions (the first by id). */
    maxTransitions: v.optional(integerIn(1, 100_000_000)),
    batchSize: v.optional(integerIn(1, 65_536), DEFAULT_FIT.batchSize),
    /** How much more an episode's last transition weighs in the reward and done losses. */
    eventWeight: v.optional(numberWithin(1, 1000), DEFAULT_FIT.eventWeight),
    /** off: fit without reasoning (the examples' annotations withheld), the ablation fidelity is compared with. */
    reasoning: v.optional(oneOf(ON_OFF), 'on'),
  },
  (issue) => `is not a setting of fitting an experience model (${String(issue.input)})`,
);

export type FitSpecInput = v.InferInput<typeof FIT_SPEC>;
export type FitSpec = v.InferOutput<typeof FIT_SPEC>;
