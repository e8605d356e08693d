/**
 * Lockstep batched rollouts over any `Env`: every live episode advances one step per round, so the
 * policy (and, in dream mode, the experience model behind a synthetic env) sees a batch per call.
 */
import type { Rng } from '../core/rng.ts';
import type { Env, Observation, Task } from '../core/types.ts';
import type { Features } from '../policy/featurizer.ts';
import type { Actor } from '../policy/policy.ts';

export interface StepSample {
  features: Features;
  actionIndex: number;
  action: string;
  logProb: number;
  value: number;
  reward: number;
  done: boolean;
}

export interface Trajectory {
  task: Task;
  steps: StepSample[];
  /** Sum of rewards: the outcome GRPO normalises. */
  totalReward: number;
  won: boolean;
  truncated: boolean;
  /** What ended the episode when the env failed rather than the policy (a page that stopped answering: `info.error`). */
  envError?: string;
  /** The page offered nothing to act on for several waits in a row (web), so the episode ended: neither a failure of the env nor a decided task. */
  stalled?: true;
}

export interface CollectOptions {
  /** One env per lane; lanes run episodes in lockstep and pick up the next task when theirs ends. */
  envs: readonly Env[];
  tasks: readonly Task[];
  policy: Actor;
  greedy: boolean;
  rng?: Rng;
  /** Safety net against envs without a step limit. */
  maxSteps?: number;
  /** Called between rounds; return true to stop early (episodes in flight are dropped). */
  shouldStop?: () => boolean;
  /** Never take more env steps than this in total (a round that would pass it is not started). */
  stepBudget?: number;
  /** Awaited before every round: where a trainer yields to its message port and honours pause. */
  beforeRound?: () => Promise<void>;
  onEpisode?: (trajectory: Trajectory, index: number) => void;
  /**
   * How many times an episode the env ended (`envError`: a page that stopped answering on a loaded
   * machine) is played again, from its task's reset, before it is kept as ended by the env (default
   * 0). For greedy evaluations, whose episodes are the same when played again: a failing page then
   * does not change what is measured. Training keeps 0 (it leaves such episodes out instead).
   */
  retryEnvErrors?: number;
}

interface Lane {
  env: Env;
  taskIndex: number;
  observation: Observation;
  history: string[];
  steps: StepSample[];
  totalReward: number;
}

export interface Collected {
  /** Finished episodes in task order (fewer than the tasks if stopped early). */
  trajectories: Trajectory[];
  /** Env steps taken, including those of episodes dropped unfinished or played again. */
  steps: number;
  /** Episodes played again after the env ended them (`retryEnvErrors`). */
  retried: number;
}

export async function collectTrajectories(options: CollectOptions): Promise<Collected> {
  const { envs, tasks, policy, greedy, rng } = options;
  const maxSteps = options.maxSteps ?? 1000;
  const results: (Trajectory | undefined)[] = new Array(tasks.length);
  let nextTask = 0;
  const lanes: Lane[] = [];
  const retries = options.retryEnvErrors ?? 0;
  // Tasks whose episode the env ended, to play again before the next new task; tries per task.
  const again: number[] = [];
  const tries = new Map<number, number>();
  let retried = 0;

  const startLane = async (env: Env): Promise<Lane | null> => {
    const repeat = again.shift();
    if (repeat === undefined && nextTask >= tasks.length) return null;
    const taskIndex = repeat ?? nextTask++;
    const observation = await env.reset(tasks[taskIndex] as Task);
    return { env, taskIndex, observation, history: [], steps: [], totalReward: 0 };
  };
  for (const env of envs) {
    const lane = await startLane(env);
    if (lane) lanes.push(lane);
  }

  let steps = 0;
  const budget = options.stepBudget ?? Infinity;
  while (lanes.length > 0) {
    await options.beforeRound?.();
    if (options.shouldStop?.() || steps + lanes.length > budget) break;
    steps += lanes.length;
    const choices = await policy.act(
      lanes.map((lane) => ({ env: (tasks[lane.taskIndex] as Task).env, instruction: (tasks[lane.taskIndex] as Task).instruction, observation: lane.observation, history: lane.history })),
      rng ? { greedy, rng } : { greedy },
    );
    const outcomes = await Promise.all(lanes.map((lane, i) => lane.env.step((choices[i] as (typeof choices)[number]).action)));
    for (let i = lanes.length - 1; i >= 0; i--) {
      const lane = lanes[i] as Lane;
      const choice = choices[i] as (typeof choices)[number];
      const outcome = outcomes[i] as (typeof outcomes)[number];
      const forcedEnd = !outcome.done && lane.steps.length + 1 >= maxSteps;
      const done = outcome.done || forcedEnd;
      lane.steps.push({
        features: choice.features,
        actionIndex: choice.index,
        action: choice.action,
        logProb: choice.logProb,
        value: choice.value,
        reward: outcome.reward,
        done,
      });
      lane.totalReward += outcome.reward;
      lane.history.push(choice.action);
      lane.observation = outcome.observation;
      if (!done) continue;
      const envError = outcome.info.error;
      const tried = tries.get(lane.taskIndex) ?? 0;
      if (typeof envError === 'string' && tried < retries) {
        tries.set(lane.taskIndex, tried + 1);
        again.push(lane.taskIndex);
        retried++;
      } else {
        const trajectory: Trajectory = {
          task: tasks[lane.taskIndex] as Task,
          steps: lane.steps,
          totalReward: lane.totalReward,
          won: outcome.info.won,
          truncated: outcome.info.truncated || forcedEnd,
          ...(typeof envError === 'string' ? { envError } : {}),
          ...(outcome.info.stalled === true ? { stalled: true as const } : {}),
        };
        results[lane.taskIndex] = trajectory;
        options.onEpisode?.(trajectory, lane.taskIndex);
      }
      const next = await startLane(lane.env);
      if (next) lanes[i] = next;
      else lanes.splice(i, 1);
    }
  }
  return { trajectories: results.filter((t): t is Trajectory => t !== undefined), steps, retried };
}
