import { describe, expect, it } from 'vitest';
import { envSpec } from '../../../src/envs/registry.ts';
import { bundledSuiteEnvironment } from '../../../src/envs/web/index.ts';
import { tasksPerKind } from '../../../src/replay/seed.ts';

const kinds = (ids: readonly string[]): Map<string, number> => {
  const count = new Map<string, number>();
  for (const id of ids) count.set(id.split(':')[0] as string, (count.get(id.split(':')[0] as string) ?? 0) + 1);
  return count;
};

describe('buffer seed --per-task: a seed of demonstrations, so many per task', () => {
  const apps = { ...bundledSuiteEnvironment(['@app']), createEnv: () => { throw new Error('no page is opened to choose tasks'); } };

  it('takes every task in turn, at most N of each, distinct instances of the split', () => {
    const tasks = tasksPerKind(apps, 'train', 12 * 3, 3, 1);
    expect(tasks).toHaveLength(36);
    expect(new Set(tasks.map((t) => t.id)).size).toBe(36);
    expect([...kinds(tasks.map((t) => t.id)).values()]).toEqual(Array(12).fill(3));
    // A prefix is balanced: the first 12 are one of each task.
    expect(kinds(tasks.slice(0, 12).map((t) => t.id)).size).toBe(12);
    // Seeded: the same seed draws the same instances, another seed others.
    expect(tasksPerKind(apps, 'train', 36, 3, 1).map((t) => t.id)).toEqual(tasks.map((t) => t.id));
    expect(tasksPerKind(apps, 'train', 36, 3, 2).map((t) => t.id)).not.toEqual(tasks.map((t) => t.id));
  });

  it('refuses more episodes than N per task allows, and an environment without a list of tasks', () => {
    expect(() => tasksPerKind(apps, 'train', 37, 3, 1)).toThrow(/--episodes 37 is more than --per-task 3 allows: 12 tasks in train, 36 episodes at most/);
    expect(() => tasksPerKind(apps, 'train', 5, 0, 1)).toThrow(/--per-task must be a positive integer/);
    expect(() => tasksPerKind(envSpec('shop'), 'train', 5, 1, 1)).toThrow(/shop has no fixed list of tasks/);
  });
});
