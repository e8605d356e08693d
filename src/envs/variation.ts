/**
 * Task variation as an environment offers it to the curriculum. Only the environment knows what a
 * goal is made of, so it is the one that recombines goals; the curriculum (`src/curriculum`) decides
 * which tasks to vary and in which direction, and never looks inside a goal.
 *
 * A generated task whose goal is one of the environment's own (a product some train-split listing
 * satisfies, a feasible household goal) keeps that goal and can be played and judged in the real
 * environment. One that says something no real goal says has no goal: it is synthetic-only, trained
 * against the experience model and never in the real environment.
 */
import { hashString } from '../core/rng.ts';
import type { Rng } from '../core/rng.ts';
import type { Task } from '../core/types.ts';

/** Harder adds or tightens a constraint, easier drops or loosens one, sideways swaps one. */
export type VariationDirection = 'harder' | 'easier' | 'sideways';
export const VARIATION_DIRECTIONS: readonly VariationDirection[] = ['harder', 'easier', 'sideways'];

export interface VaryOptions {
  /**
   * Keep the task's kind and change only its constraints: the household keeps the task type (pick
   * and place, clean, heat, cool, two objects, look); a shop variation always keeps its department.
   */
  sameKind?: boolean;
}

export interface TaskVariation {
  /**
   * A variation of `task` in `direction`, built from constraints that `siblings` (other tasks of the
   * same kind, e.g. the buffer's) use; null when none can be made. Never returns a held-out goal.
   */
  vary(task: Task, siblings: readonly Task[], direction: VariationDirection, rng: Rng, options?: VaryOptions): Task | null;
  /**
   * The generated task an instruction written for `parent`'s world describes (an LLM's proposal):
   * with a real goal when the text states one of this environment's goals, else synthetic-only.
   * Null when the text is not an instruction at all (empty, too long).
   */
  ground(instruction: string, parent: Task): Task | null;
}

/** Longest instruction a generated task may have (the longest seed instructions are about 200). */
export const MAX_INSTRUCTION_CHARS = 300;

/** A task with no real goal can only be played against an experience model. */
export function isSyntheticOnly(task: Task): boolean {
  return task.goal === undefined;
}

/**
 * The generated task for an instruction. Its id hashes the text and the goal (home's texts repeat
 * across layouts), so the same variation made twice is one task.
 */
export function generatedTask(parent: Task, instruction: string, goal: unknown, difficulty: number): Task {
  const text = instruction.trim().replace(/\s+/g, ' ');
  return {
    id: `${parent.env}-gen-${hashString(`${parent.env}|${text}|${JSON.stringify(goal ?? null)}`).toString(36).padStart(7, '0')}`,
    env: parent.env,
    instruction: text,
    difficulty,
    origin: 'generated',
    parentId: parent.id,
    ...(goal !== undefined ? { goal } : {}),
  };
}

/** Whether a proposed instruction is usable text at all. */
export function usableInstruction(text: string): boolean {
  const t = text.trim();
  return t.length >= 8 && t.length <= MAX_INSTRUCTION_CHARS && /[a-z]/i.test(t);
}
