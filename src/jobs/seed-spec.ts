/**
 * The spec of seeding a replay buffer (`buffer seed`): scripted episodes in a mix of agents. Every
 * default and bound; the split's choices are the environment's. tfjs-free.
 */
import * as v from 'valibot';
import { splitNames } from '../envs/registry.ts';
import type { EnvSpec } from '../envs/spec.ts';
import { DEFAULT_SEED, integerIn, MAX_EPISODES, oneOf } from './bounds-spec.ts';
import { SEED } from './spec.ts';

/** The agents' shares of the episodes (replay/seed.ts parseMix reads it). */
export const DEFAULT_SEED_MIX = 'oracle=0.6,random=0.4';

export const seedSpec = (env: EnvSpec) =>
  v.strictObject({
    episodes: integerIn(1, MAX_EPISODES),
    mix: v.optional(v.string(), DEFAULT_SEED_MIX),
    seed: v.optional(SEED, DEFAULT_SEED),
    /** Default: the environment's first split, its training split. */
    split: v.optional(oneOf(splitNames(env))),
    /** At most this many episodes of each of the environment's tasks (replay/seed.ts tasksPerKind). */
    perTask: v.optional(integerIn(1, MAX_EPISODES)),
  });

export type SeedSpec = v.InferOutput<ReturnType<typeof seedSpec>>;
