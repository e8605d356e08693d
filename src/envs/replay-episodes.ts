/**
 * A policy's greedy episodes played again in the real environment. `evaluatePolicy` keeps only the
 * actions and rewards; scoring an experience model on a policy's own steps (`experience eval
 * --policy`, the policy-steps experiment)
 * needs every state, what really followed (the shop's reward breakdown included) and the history
 * with its states, as the model is asked.
 */
import type { Observation, StepResult, Task } from '../core/types.ts';
import type { EnvSpec } from './spec.ts';
import { closeEnvs } from './episode.ts';

/** An earlier step of the episode with the state it was taken in (the experience model's `HistoryStep`). */
export interface HistoryStep {
  state: Observation;
  action: string;
}

export interface ReplayedStep {
  state: Observation;
  action: string;
  result: StepResult;
  /** The earlier steps of the episode, each with the state it was taken in. */
  history: HistoryStep[];
}

export async function replayEpisodes(spec: EnvSpec, episodes: readonly { task: Task; steps: readonly { action: string }[] }[]): Promise<{ task: Task; steps: ReplayedStep[] }[]> {
  const env = spec.createEnv();
  const out: { task: Task; steps: ReplayedStep[] }[] = [];
  try {
    for (const { task, steps } of episodes) {
      let state = await env.reset(task);
      const replayed: ReplayedStep[] = [];
      for (const { action } of steps) {
        const result = await env.step(action);
        replayed.push({ state, action, result, history: replayed.map((s) => ({ state: s.state, action: s.action })) });
        state = result.observation;
      }
      out.push({ task, steps: replayed });
    }
  } finally {
    await closeEnvs([env]);
  }
  return out;
}
