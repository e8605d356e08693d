/**
 * A step of a real environment as the replay buffer stores it: the seeding agents' and a person's
 * demonstrations are written the same way, field for field (JSONL keeps this order).
 */
import type { Observation, StepResult, Task, Transition } from './types.ts';

export interface RealStep {
  runId: string;
  episodeId: string;
  task: Pick<Task, 'id' | 'env' | 'instruction'>;
  /** The actions taken before this one in the episode. */
  history: string[];
  state: Observation;
  action: string;
  result: StepResult;
  createdAt: number;
}

export function realTransition({ runId, episodeId, task, history, state, action, result, createdAt }: RealStep): Transition {
  // The environment's own account of the step (a teacher annotation) trains the model's reasoning.
  const reasoning = result.info.explanation;
  return {
    runId,
    taskId: task.id,
    episodeId,
    env: task.env,
    instruction: task.instruction,
    history,
    state,
    action,
    ...(typeof reasoning === 'string' && reasoning !== '' ? { reasoning } : {}),
    next: result.observation,
    reward: result.reward,
    done: result.done,
    source: 'real',
    createdAt,
  };
}
