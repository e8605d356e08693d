/**
 * Greedy success broken down by task type: where a policy wins and where it does not. A task's type
 * is its goal's `type` (home: ALFWorld's six task types), or for a web task its task id with its
 * group (`app: inbox-reply`, `widget: click-button`); a task without either counts under its
 * difficulty.
 */
import type { Task } from '../src/core/types.ts';

export interface TypeCount {
  wins: number;
  episodes: number;
}

export function taskType(task: Task): string {
  const goal = task.goal as { type?: unknown; task?: unknown; app?: unknown } | null | undefined;
  if (typeof goal?.type === 'string') return goal.type;
  if (typeof goal?.task === 'string') return `${goal.app === true ? 'app' : 'widget'}: ${goal.task}`;
  return `difficulty ${task.difficulty}`;
}

/**
 * The mean of per-type success rates within each group (the part of a type before `: `), so
 * that every task counts alike however many of its episodes the split holds.
 */
export function meanByGroup(counts: Readonly<Record<string, TypeCount>>): Record<string, number> {
  const groups = new Map<string, number[]>();
  for (const [type, c] of Object.entries(counts)) {
    const at = type.indexOf(': ');
    if (at < 0) continue;
    const group = type.slice(0, at);
    groups.set(group, [...(groups.get(group) ?? []), c.wins / c.episodes]);
  }
  return Object.fromEntries([...groups].map(([g, rates]) => [g, Number((rates.reduce((a, b) => a + b, 0) / rates.length).toFixed(4))]));
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
