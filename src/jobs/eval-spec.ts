/**
 * The spec of measuring an experience model's fidelity (`experience eval`): held-out real
 * transitions played fresh, and the chosen model's settings (from its registry entry).
 */
import * as v from 'valibot';
import { splitNames } from '../envs/registry.ts';
import type { EnvSpec } from '../envs/spec.ts';
import { DEFAULT_SEED, integerIn, oneOf } from './bounds-spec.ts';
import { experienceModel, settingsEntries } from './experience-models/registry.ts';
import { SEED } from './spec.ts';

/** Held-out transitions at most: each is one prediction. */
export const MAX_HELDOUT = 1_000_000;
/** The agents playing the held-out episodes (replay/seed.ts parseMix reads it). */
export const DEFAULT_HELDOUT_MIX = 'oracle=0.5,random=0.5';

const entries = (env: EnvSpec) => ({
  heldout: integerIn(1, MAX_HELDOUT),
  mix: v.optional(v.string(), DEFAULT_HELDOUT_MIX),
  seed: v.optional(SEED, DEFAULT_SEED),
  /** The split the held-out episodes are played on: the env's test split, or another to choose settings off the split a figure reports. */
  split: v.optional(oneOf(splitNames(env)), env.testSplit),
  /** Score only the held-out steps that take this action. */
  onlyAction: v.optional(v.string()),
  /** On-policy: a `.dgp` whose own greedy steps are the held-out transitions (instead of the mix's agents). */
  policy: v.optional(v.pipe(v.string(), v.endsWith('.dgp', 'must name a .dgp policy file'))),
});

/** The spec of `experience eval` on `env` with the experience model `kind` (the split's choices are the env's). */
export const evalSpec = (kind: string, env: EnvSpec) => v.strictObject({ ...entries(env), ...settingsEntries(experienceModel(kind, 'node')) });
