/**
 * Greedy success broken down by task type: where a policy wins and where it does not. A task's type
 * is its goal's `type` (home: ALFWorld's six task types); a task without one counts under its
 * difficulty.
 */
import type { Task } from '../src/core/types.ts';

export interface TypeCount {
  wins: number;
  episodes: number;
}

export function taskType(task: Task): string {
  const type = (task.goal as { type?: unknown } | null | undefined)?.type;
  return typeof type === 'string' ? type : `difficulty ${task.difficulty}`;
}

/** Wins and episodes per task type, types in alphabetical order. */
export function countByType(outcomes: readonly { task: Task; won: boolean }[]): Record<string, TypeCount> {
  const counts = new Map<string, TypeCount>();
  for (const { task, won } of outcomes) {
    const type = taskType(task);
    const c = counts.get(type) ?? { wins: 0, episodes: 0 };
    c.episodes++;
    if (won) c.wins++;
    counts.set(type, c);
  }
  return Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b)));
}
