/**
 * What the registry knows about an environment: how to make one, its task splits, and the scripted
 * agents (oracle, random and, where there is one, a shopper) that judge it and seed the replay buffer.
 */
import type { Agent, Env, SplitInfo, Task } from '../core/types.ts';
import type { Rng } from '../core/rng.ts';
import type { TaskVariation } from './variation.ts';

export interface EnvOptions {
  /** Episode step limit; each environment has its own default (shop 15, home 50). */
  maxSteps?: number;
}

export interface EnvSpec {
  readonly name: string;
  readonly description: string;
  /** Kind of action syntax the environment speaks. */
  readonly actionSyntax: 'web' | 'household';
  readonly splits: readonly SplitInfo[];
  /** The split that held-out evaluation uses by default. */
  readonly testSplit: string;
  /** The default episode step limit (a synthetic env over this environment keeps the same one). */
  readonly maxSteps: number;
  createEnv(options?: EnvOptions): Env;
  /** The tasks of a split, in a fixed order. Throws `UsageError` for an unknown split. */
  tasks(split: string): readonly Task[];
  /** Reads the task's goal and acts optimally. */
  createOracle(): Agent;
  /** Picks uniformly among admissible actions (and random queries where free text is needed). */
  createRandom(rng: Rng): Agent;
  /**
   * Acts on what the observations show, never on the goal, as a learned policy must (optional: the
   * shop has one). Its mistakes are a policy's mistakes, which the oracle's data cannot show.
   */
  createShopper?(rng: Rng): Agent;
  /** How the curriculum makes new tasks of this environment from old ones. */
  readonly variation: TaskVariation;
}
