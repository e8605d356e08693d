/**
 * What the registry knows about an environment: how to make one, its task splits, and the scripted
 * agents (oracle, random and, where there is one, a shopper) that judge it and seed the replay buffer.
 */
import type { Agent, Env, SplitInfo, Task } from '../core/types.ts';
import type { Rng } from '../core/rng.ts';
import type { TaskVariation } from './variation.ts';
import type { QueryProposer } from '../core/queries.ts';

export interface EnvOptions {
  /** Episode step limit; each environment has its own default (its spec's `maxSteps`). */
  maxSteps?: number;
  /** Web: the pages in a window a person sees and acts in (the CLI's `record`), their input taken (Env.nextPersonInput). */
  visible?: boolean;
  /**
   * Web: the page watchdogs (ms), in place of the web env's defaults: a page that loads or answers
   * later than these ends its episode. For a machine or a site slower than the defaults allow.
   */
  pageTimeouts?: { loadMs: number; callMs: number };
}

/**
 * Algorithm settings an environment needs on top of the generic defaults (src/rl/config.ts), by
 * algorithm: plain data, checked against the algorithm's settings when a run starts
 * (train/env-settings.ts), so that an environment's folder need not import the trainer.
 */
export type AlgoSettings = Readonly<Record<string, number | string | boolean>>;
export interface TrainingSettings {
  /** Applied in every mode. */
  readonly all?: Readonly<Partial<Record<'ppo' | 'grpo', AlgoSettings>>>;
  /** Applied in mode dream on top of `all` (s2r keeps `all`: its real phase shares the run's one config). */
  readonly dream?: Readonly<Partial<Record<'ppo' | 'grpo', AlgoSettings>>>;
  /** The offline baselines' settings (src/train/offline/config.ts), chosen on this environment's validation data. */
  readonly offline?: Readonly<Partial<Record<'bc' | 'dpo', AlgoSettings>>>;
}

/**
 * What an environment's folder declares (its index.ts), and all it declares: the registry adds one
 * line for it and wraps its envs in the step limit.
 */
export interface EnvDefinition extends Omit<EnvSpec, 'createEnv'> {
  /** A new env without a step limit: the registry adds it (envs/step-limit.ts). */
  createEnv(options?: EnvOptions): Env;
}

/** An environment as the registry hands it out. */
export interface EnvSpec {
  readonly name: string;
  readonly description: string;
  /**
   * Kind of action syntax the environment speaks: WebShop's (`search[…]`, `click[…]`), ALFWorld's
   * commands, or a live page's element-addressed actions (`click[#17 Submit]`, envs/web/actions.ts).
   */
  readonly actionSyntax: 'web' | 'household' | 'page';
  readonly splits: readonly SplitInfo[];
  /** The split that held-out evaluation uses by default. */
  readonly testSplit: string;
  /** The default episode step limit (a synthetic env over this environment keeps the same one). */
  readonly maxSteps: number;
  /**
   * The environment pays its reward only on the step that ends an episode (the paper's sparse
   * outcome reward: the shop on Buy Now, the household at the goal). A dream over it pays nothing
   * before the end either (synthetic-env.ts).
   */
  readonly rewardsAtEnd?: boolean;
  /**
   * The environment pays exactly 0 or 1 (the household: the goal is reached or not; a web site that
   * declares it in site.json, whose env then holds its pages to it).
   */
  readonly binaryReward?: boolean;
  /**
   * A dream over this binary-reward environment rounds a model's fractional end reward to the
   * likelier of 0 and 1 instead of paying the fraction (the model's doubt). A choice of the dream,
   * made per environment on measurement, not a fact about it: the household rounds (its published
   * dream tables ran so); the web suite pays the fraction, because on its train split rounding cost
   * the dream from scratch 10.6 points over 3 seeds (results/web-demos/declared/README.md).
   */
  readonly dreamRoundsEndReward?: boolean;
  /** A new env with the step limit (`options.maxSteps`, else `maxSteps`). */
  createEnv(options?: EnvOptions): Env;
  /** The tasks of a split, in a fixed order. Throws `UsageError` for an unknown split. */
  tasks(split: string): readonly Task[];
  /**
   * Which of the environment's tasks an instance is (a web site's task id: `inbox-reply` of
   * `inbox-reply:17`), where it has a fixed list of them; `buffer seed --per-task` counts by it.
   */
  taskKind?(task: Task): string;
  /** Reads the task's goal and acts optimally. */
  createOracle(): Agent;
  /** Picks uniformly among admissible actions (and random queries where free text is needed). */
  createRandom(rng: Rng): Agent;
  /**
   * Acts on what the observations show, never on the goal, as a learned policy must (optional: the
   * shop has one). Its mistakes are a policy's mistakes, which the oracle's data cannot show.
   */
  createShopper?(rng: Rng): Agent;
  /**
   * The oracle in a hurry (optional: the household has one): it takes the goal's last step before
   * the step that prepares it, earns nothing, then does it properly. Its episodes show the model a
   * goal step that fails for want of its preparation beside the one that succeeds.
   */
  createHasty?(): Agent;
  /** How the curriculum makes new tasks of this environment from old ones. */
  readonly variation: TaskVariation;
  /**
   * What a policy may type where the environment admits free text (the `search[...]` template):
   * a few queries from the instruction. Without it the template is not a choice.
   */
  readonly proposeQueries?: QueryProposer;
  /** PPO and GRPO settings the runs on this environment measured better than the defaults (each with its reason). */
  readonly training?: TrainingSettings;
}
