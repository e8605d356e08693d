/**
 * Stage (d) of `pretrain`: the trained policy's own episodes, sampled (not greedy, so they show the
 * mistakes it still makes), as real transitions beside the seeded ones. The experience model has
 * then seen the kind of step the policy it will simulate for takes, not only scripted agents'.
 */
import { Rng } from '../core/rng.ts';
import { closeEnvs, episodeTasks, runEpisode, type AsyncAgent } from '../envs/episode.ts';
import type { EnvSpec } from '../envs/spec.ts';
import type { Policy } from '../policy/policy.ts';
import { episodeTransitions } from '../replay/seed.ts';
import { taskRecord, type ReplayStore } from '../replay/store.ts';

export interface OwnStepsResult {
  episodes: number;
  transitions: number;
  successRate: number;
  stopped: boolean;
}

/** Plays `episodes` train-split episodes with `policy` into `store` (one run, `runId`); stops between episodes on `signal`. */
export async function playOwnSteps(
  spec: EnvSpec,
  policy: Policy,
  options: { store: ReplayStore; episodes: number; seed: number; runId: string; createdAt: number; signal?: AbortSignal; onEpisode?: (done: number, total: number) => void },
): Promise<OwnStepsResult> {
  const { store, episodes, runId, createdAt } = options;
  const split = spec.splits[0]?.name ?? 'train';
  const tasks = episodeTasks(spec.tasks(split), episodes, options.seed);
  const rng = new Rng(`pretrain-own:${options.seed}`);
  await store.putRun({ id: runId, env: spec.name, kind: 'policy:pretrain', createdAt, meta: { seed: options.seed, episodes } });
  const env = spec.createEnv();
  let played = 0;
  let wins = 0;
  let transitions = 0;
  try {
    for (const [i, task] of tasks.entries()) {
      if (options.signal?.aborted) break;
      // A task object is written into by the env it plays in: each episode gets its own.
      const record = await runEpisode(env, samplingAgent(policy, rng), { ...task });
      const steps = episodeTransitions(record, runId, `${runId}/${i}`, createdAt);
      await store.add(steps);
      await store.putTasks([taskRecord(task, 0)]);
      await store.recordOutcomes([{ taskId: task.id, env: task.env, won: record.won, return: record.score }]);
      played++;
      wins += record.won ? 1 : 0;
      transitions += steps.length;
      options.onEpisode?.(played, tasks.length);
    }
  } finally {
    await closeEnvs([env]);
  }
  return { episodes: played, transitions, successRate: played === 0 ? 0 : wins / played, stopped: played < tasks.length };
}

/** The policy as an agent: it samples its action (not greedy) from what the episode has shown so far. */
function samplingAgent(policy: Policy, rng: Rng): AsyncAgent {
  let task: { env: string; instruction: string } = { env: '', instruction: '' };
  const history: string[] = [];
  return {
    reset(played, _first) {
      task = played;
      history.length = 0;
    },
    async act(observation) {
      const [choice] = await policy.act([{ env: task.env, instruction: task.instruction, observation, history }], { greedy: false, rng });
      const action = (choice as { action: string }).action;
      history.push(action);
      return action;
    },
  };
}
