/**
 * `KnnExperienceModel`: the non-parametric floor every learned experience model must beat. It
 * answers with what happened after the most similar real transition: that transition's next state
 * (with the current task's instruction in place of the neighbour's), reward and done. It does not
 * reason, generalise or read the action beyond what retrieval already compared.
 */
import { parseState, renderState } from '../core/state.ts';
import type { Observation, Transition } from '../core/types.ts';
import { emptyStats, failurePrediction, type ExperienceInput, type ExperienceModel, type ExperiencePrediction, type ExperienceStats } from './types.ts';

/** Header keys that carry the task's own words; the neighbour's are replaced by the current task's. */
const TASK_KEYS = new Set(['instruction', 'task']);

/** The neighbour's next state as this task would see it. */
export function adaptToTask(next: Observation, instruction: string): Observation {
  try {
    const state = parseState(next.text);
    if (!state.header.some(([key]) => TASK_KEYS.has(key))) return next;
    state.header = state.header.map(([key, value]) => [key, TASK_KEYS.has(key) ? instruction : value]);
    return { text: renderState(state), actions: [...next.actions] };
  } catch {
    return next;
  }
}

export function knnPrediction(input: ExperienceInput, neighbour: Transition): ExperiencePrediction {
  const id = neighbour.id !== undefined ? ` #${neighbour.id}` : '';
  return {
    reasoning: `kNN: copied the outcome of the most similar real transition${id} ("${neighbour.action}" on task "${neighbour.instruction.slice(0, 80)}")`,
    next: adaptToTask(neighbour.next, input.task.instruction),
    reward: neighbour.reward,
    done: neighbour.done,
    valid: true,
  };
}

export class KnnExperienceModel implements ExperienceModel {
  readonly name = 'knn';
  private readonly counters: ExperienceStats = emptyStats();

  async predict(batch: readonly ExperienceInput[]): Promise<ExperiencePrediction[]> {
    return batch.map((input) => {
      this.counters.predictions++;
      const neighbour = input.examples[0];
      if (neighbour) return knnPrediction(input, neighbour);
      this.counters.invalidOutputs++;
      return failurePrediction('no similar real transition in the buffer (seed it from the real environment first)');
    });
  }

  stats(): ExperienceStats {
    return { ...this.counters };
  }
}
