import { describe, expect, it } from 'vitest';
import { countByType, meanByGroup, taskType } from '../../../experiments/by-type.ts';
import type { Task } from '../../../src/core/types.ts';

const task = (id: string, goal: unknown, difficulty = 1): Task => ({ id, env: 'home', instruction: id, difficulty, origin: 'seed', goal }) as Task;

describe('countByType', () => {
  it("counts wins and episodes under the goal's type, or the difficulty when there is none", () => {
    expect(taskType(task('a', { type: 'pick_heat_then_place' }))).toBe('pick_heat_then_place');
    expect(taskType(task('b', { asin: 'B0' }, 3))).toBe('difficulty 3');
    const counts = countByType([
      { task: task('1', { type: 'pick_and_place' }), won: true },
      { task: task('2', { type: 'look_at_obj_in_light' }), won: false },
      { task: task('3', { type: 'pick_and_place' }), won: false },
      { task: task('4', null, 2), won: true },
    ]);
    expect(counts).toEqual({
      'difficulty 2': { wins: 1, episodes: 1 },
      look_at_obj_in_light: { wins: 0, episodes: 1 },
      pick_and_place: { wins: 1, episodes: 2 },
    });
    expect(Object.keys(counts)).toEqual(['difficulty 2', 'look_at_obj_in_light', 'pick_and_place']);
  });
});

describe('meanByGroup', () => {
  it('groups web tasks as app or widget and averages their tasks alike', () => {
    expect(taskType(task('w', { task: 'click-button', site: 'suite' }))).toBe('widget: click-button');
    expect(taskType(task('x', { task: 'inbox-reply', site: 'suite', app: true }))).toBe('app: inbox-reply');
    const counts = countByType([
      { task: task('1', { task: 'a', app: true }), won: true },
      { task: task('2', { task: 'b', app: true }), won: false },
      { task: task('3', { task: 'b', app: true }), won: true },
      { task: task('4', { task: 'c' }), won: true },
      { task: task('5', { type: 'pick_and_place' }), won: true },
    ]);
    // a: 1, b: 0.5 → 0.75 (not 2/3 by episodes); the home type has no group.
    expect(meanByGroup(counts)).toEqual({ app: 0.75, widget: 1 });
  });
});
