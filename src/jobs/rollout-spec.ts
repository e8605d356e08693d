/**
 * The spec of a rollout (`rollout`): a scripted policy or a saved one played on a split. Every
 * default and bound; the split's choices are the environment's. tfjs-free.
 */
import * as v from 'valibot';
import { splitNames } from '../envs/registry.ts';
import type { EnvSpec } from '../envs/spec.ts';
import { DEFAULT_SEED, integerIn, MAX_EPISODE_STEPS, MAX_EPISODES, oneOf } from './bounds-spec.ts';
import { SEED } from './spec.ts';

/** Seeded episodes a scripted policy plays when none are asked for. */
export const DEFAULT_SCRIPTED_EPISODES = 100;

const entries = (env: EnvSpec) => ({
  /** Default: the environment's held-out split. */
  split: v.optional(oneOf(splitNames(env)), env.testSplit),
  seed: v.optional(SEED, DEFAULT_SEED),
  /** Episode step limit; default the environment's own. */
  maxSteps: v.optional(integerIn(1, MAX_EPISODE_STEPS)),
});

/** A scripted policy (oracle, random, …) plays `episodes` seeded episodes. */
export const scriptedRolloutSpec = (env: EnvSpec) =>
  v.strictObject({ ...entries(env), episodes: v.optional(integerIn(1, MAX_EPISODES), DEFAULT_SCRIPTED_EPISODES) });

/** A saved policy plays `episodes` seeded episodes, or without them every task of the split once, in order. */
export const policyFileRolloutSpec = (env: EnvSpec) => v.strictObject({ ...entries(env), episodes: v.optional(integerIn(1, MAX_EPISODES)) });
