/** Greedy evaluation of a policy in the real environment on held-out tasks: the ground truth of every claim. */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { UsageError } from '../core/errors.ts';
import type { Task } from '../core/types.ts';
import { closeEnvs, ENV_FAILURE_REPLAYS, episodeTasks } from '../envs/episode.ts';
import type { EnvOptions, EnvSpec } from '../envs/spec.ts';
import type { Actor, Policy } from '../policy/policy.ts';
import { lanesFor } from '../envs/web/tab-budget.ts';
import { collectTrajectories, type Trajectory } from '../rl/rollout.ts';

export interface EvalResult {
  split: string;
  episodes: number;
  successRate: number;
  /** Mean final reward × 100, as WebShop reports its score. */
  meanScore: number;
  meanSteps: number;
  /** SHA-256 over every episode's task id and actions, in task order: equal digests, equal behaviour. */
  actionsDigest: string;
  /**
   * Episodes an env failure ended (a page that stopped answering or could not be read), present
   * when there were any: they count as failures whatever the policy did, so a figure with them
   * says less about the policy (a machine out of memory or CPU makes pages miss their timeouts).
   */
  envErrors?: number;
  /** Episodes that ended because the page offered nothing to act on (web), present when there were any. */
  stalled?: number;
  /**
   * Episodes a failing page ended that were played again (greedy episodes are the same played
   * again, so a page slow on a loaded machine does not change the figure), present when there were any.
   */
  retried?: number;
}

export interface EvaluateOptions {
  spec: EnvSpec;
  policy: Actor;
  split: string;
  /** Default: every task of the split once, in order; a number draws a seeded sample. */
  episodes?: number;
  /**
   * The first this many of the drawn tasks are not played: a caller that played a sample's first
   * n asks for more (a seeded sample's first n are the same for every size). `onEpisode` indexes
   * still count from the sample's first task.
   */
  skip?: number;
  /** Task ids left out of the split before any is drawn (the tasks a run's offline data holds: `--eval-unseen`). */
  exclude?: ReadonlySet<string>;
  envOptions?: EnvOptions;
  seed?: number;
  parallelEnvs?: number;
  /** Told when memory lowers the web pages played at once below those asked (tab-budget.ts). */
  onNotice?: (text: string) => void;
  shouldStop?: () => boolean;
  beforeRound?: () => Promise<void>;
  onEpisode?: (trajectory: Trajectory, index: number) => void;
}

export function summarize(split: string, trajectories: readonly Trajectory[], retried = 0): EvalResult {
  const n = trajectories.length;
  const mean = (f: (t: Trajectory) => number) => (n === 0 ? 0 : trajectories.reduce((a, t) => a + f(t), 0) / n);
  const envErrors = trajectories.filter((t) => t.envError !== undefined).length;
  const stalled = trajectories.filter((t) => t.stalled === true).length;
  return {
    split,
    episodes: n,
    successRate: mean((t) => (t.won ? 1 : 0)),
    meanScore: 100 * mean((t) => t.totalReward),
    meanSteps: mean((t) => t.steps.length),
    actionsDigest: actionsDigest(trajectories),
    ...(envErrors > 0 ? { envErrors } : {}),
    ...(stalled > 0 ? { stalled } : {}),
    ...(retried > 0 ? { retried } : {}),
  };
}

export function actionsDigest(trajectories: readonly Trajectory[]): string {
  const hash = sha256.create();
  for (const t of trajectories) hash.update(utf8ToBytes(`${t.task.id}\n${t.steps.map((s) => s.action).join('\n')}\n\n`));
  return bytesToHex(hash.digest());
}

/** The tasks of `split` an evaluation draws from: all of them, or those `exclude` does not name. */
export function heldOutTasks(spec: Pick<EnvSpec, 'tasks'>, split: string, exclude?: ReadonlySet<string>): readonly Task[] {
  const all = spec.tasks(split);
  return exclude ? all.filter((t) => !exclude.has(t.id)) : all;
}

export async function evaluatePolicy(options: EvaluateOptions): Promise<EvalResult> {
  const { spec, policy, split } = options;
  const all = heldOutTasks(spec, split, options.exclude);
  if (all.length === 0) throw new UsageError(`no ${split} task is left to evaluate on: the ${options.exclude?.size ?? 0} left out are all of them`);
  const { onEpisode, skip = 0 } = options;
  const tasks: readonly Task[] = (options.episodes === undefined ? all : episodeTasks(all, options.episodes, options.seed ?? 0)).slice(skip);
  const lanes = lanesFor(spec.name, Math.min(options.parallelEnvs ?? 50, tasks.length), options.onNotice);
  const envs = Array.from({ length: lanes }, () => spec.createEnv(options.envOptions));
  try {
    const { trajectories, retried } = await collectTrajectories({
      envs,
      tasks,
      policy,
      greedy: true,
      retryEnvErrors: ENV_FAILURE_REPLAYS,
      ...(options.shouldStop ? { shouldStop: options.shouldStop } : {}),
      ...(options.beforeRound ? { beforeRound: options.beforeRound } : {}),
      ...(onEpisode ? { onEpisode: (t: Trajectory, index: number) => onEpisode(t, index + skip) } : {}),
    });
    return summarize(options.exclude ? `${split} (unseen)` : split, trajectories, retried);
  } finally {
    await closeEnvs(envs);
  }
}

/**
 * A trainer's held-out evaluation: greedy on `split` (`episodes` undefined: every task once),
 * drawn with the run's seed, honouring its pause and stop, counting episodes for its progress.
 */
export async function evaluateHeldOut(
  run: { spec: EnvSpec; policy: Policy; split: string; seed: number; exclude?: ReadonlySet<string> | undefined; onNotice?: ((text: string) => void) | undefined },
  episodes: number | undefined,
  hooks: { control?: { isStopped: boolean; checkpoint(): Promise<void> }; onEvalProgress?: (done: number, total: number) => void },
): Promise<EvalResult> {
  let done = 0;
  const control = hooks.control;
  const total = episodes ?? heldOutTasks(run.spec, run.split, run.exclude).length;
  return evaluatePolicy({
    spec: run.spec,
    policy: run.policy,
    split: run.split,
    ...(run.exclude ? { exclude: run.exclude } : {}),
    ...(episodes !== undefined ? { episodes } : {}),
    seed: run.seed,
    ...(run.onNotice ? { onNotice: run.onNotice } : {}),
    ...(control ? { shouldStop: () => control.isStopped, beforeRound: () => control.checkpoint() } : {}),
    onEpisode: () => hooks.onEvalProgress?.(++done, total),
  });
}
