/**
 * How the curriculum varies a web task: another instance of the same task, from the parent's own
 * split (never a held-out one). Half the time it is a new seed, its instruction and data made by
 * the task's generator; for an app-like task the other half recombines the parent's entities: the
 * same inbox, feed, forum, table or shop, another goal among them (`TaskProgram.recombine`). The
 * direction is not used yet: a page task's difficulty is its page's, and both are sideways steps.
 * A site without generators has none to offer (its instructions live in its pages). An
 * instruction an LLM proposes is synthetic-only: no page checks it.
 */
import type { Rng } from '../../core/rng.ts';
import type { Task } from '../../core/types.ts';
import { generatedTask, usableInstruction, type TaskVariation } from '../variation.ts';
import { isWebGoal, type SiteDefinition, type TaskProgram, type WebGoal } from './site.ts';

export class WebVariation implements TaskVariation {
  constructor(
    private readonly site: SiteDefinition,
    private readonly programs: Readonly<Record<string, TaskProgram>>,
    private readonly heldOut: string,
  ) {}

  vary(task: Task, _siblings: readonly Task[], _direction: unknown, rng: Rng): Task | null {
    const goal = task.goal;
    if (!isWebGoal(goal) || goal.split === this.heldOut) return null;
    const program = this.programs[goal.task];
    const range = Object.hasOwn(this.site.seeds, goal.split) ? this.site.seeds[goal.split] : undefined;
    if (!program || !range || range[1] - range[0] < 2) return null;
    if (program.recombine && goal.data !== undefined && rng.chance(0.5)) {
      // A few draws for a goal the parent's is not (a world of a handful of entities may repeat it).
      for (let attempt = 0; attempt < 4; attempt++) {
        const instance = program.recombine(goal.data, range[0] + rng.int(range[1] - range[0]), goal.split);
        if (instance.instruction !== task.instruction) return generatedTask(task, instance.instruction, { ...goal, data: instance.data }, task.difficulty);
      }
    }
    let seed = range[0] + rng.int(range[1] - range[0]);
    if (seed === goal.seed) seed = seed + 1 < range[1] ? seed + 1 : range[0];
    const instance = program.generate(seed, goal.split);
    const next: WebGoal = { ...goal, seed, data: instance.data };
    return generatedTask(task, instance.instruction, next, task.difficulty);
  }

  ground(instruction: string, parent: Task): Task | null {
    return usableInstruction(instruction) ? generatedTask(parent, instruction, undefined, parent.difficulty) : null;
  }
}
