import { envSpec } from '../../../src/envs/registry.ts';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.ts';
import { Rng } from '../../../src/core/rng.ts';
import { goalKey, goalText, TASK_TYPES, type HomeGoal } from '../../../src/envs/home/goal.ts';
import { difficultyOf, hiddenCount } from '../../../src/envs/home/tasks.ts';
import { buildWorld, getLayout } from '../../../src/envs/home/world.ts';

const homeSpec = envSpec('home');

const goals = (split: string): HomeGoal[] => homeSpec.tasks(split).map((t) => t.goal as HomeGoal);

describe('home splits', () => {
  it('has train 3,500, valid-seen 250 and valid-unseen 250 tasks, with valid-unseen as the test split', () => {
    expect(homeSpec.splits).toEqual([
      { name: 'train', size: 3500 },
      { name: 'valid-seen', size: 250 },
      { name: 'valid-unseen', size: 250 },
    ]);
    for (const { name, size } of homeSpec.splits) expect(homeSpec.tasks(name)).toHaveLength(size);
    expect(homeSpec.testSplit).toBe('valid-unseen');
    expect(homeSpec.name).toBe('home');
    expect(homeSpec.actionSyntax).toBe('household');
    expect(homeSpec.createEnv().name).toBe('home');
    expect(homeSpec.createOracle().act({ text: '', actions: [] })).toBeTypeOf('string');
    expect(homeSpec.createRandom(new Rng(1)).act({ text: '', actions: ['look'] })).toBe('look');
  });

  it('rejects an unknown split naming the valid ones', () => {
    expect(() => homeSpec.tasks('test')).toThrow(UsageError);
    expect(() => homeSpec.tasks('test')).toThrow(/train, valid-seen, valid-unseen/);
  });

  it('gives each task a unique id, the home env, a seed origin and its goal text as instruction', () => {
    const ids = new Set<string>();
    for (const { name } of homeSpec.splits) {
      homeSpec.tasks(name).forEach((task, i) => {
        expect(task.id).toBe(`home-${name}-${String(i).padStart(4, '0')}`);
        expect(task.env).toBe('home');
        expect(task.origin).toBe('seed');
        expect(task.instruction).toBe(goalText(task.goal as HomeGoal));
        ids.add(task.id);
      });
    }
    expect(ids.size).toBe(4000);
    expect(homeSpec.tasks('train')[42]?.id).toBe('home-train-0042');
  });

  it('keeps goals plain JSON', () => {
    for (const task of homeSpec.tasks('valid-seen')) expect(JSON.parse(JSON.stringify(task.goal))).toEqual(task.goal);
  });

  it('never uses a valid-unseen layout in train or valid-seen', () => {
    const unseen = new Set(goals('valid-unseen').map((g) => g.layout));
    for (const g of [...goals('train'), ...goals('valid-seen')]) expect(unseen.has(g.layout)).toBe(false);
  });

  it('holds out valid-unseen layouts that differ from every seen one, not just in seed', () => {
    const shape = (seed: number): string => {
      const layout = getLayout(seed);
      return `${layout.kind}:${layout.receptacles.map((r) => r.name).join(',')}:${layout.lamps.map((l) => `${l.type}@${l.host}`).join(',')}`;
    };
    const seen = new Set([...goals('train'), ...goals('valid-seen')].map((g) => shape(g.layout)));
    for (const g of goals('valid-unseen')) expect(seen.has(shape(g.layout))).toBe(false);
  });

  it('draws valid-seen from layouts and object types that train uses', () => {
    const layouts = new Set(goals('train').map((g) => g.layout));
    const objects = new Set(goals('train').map((g) => g.object));
    for (const g of goals('valid-seen')) {
      expect(layouts.has(g.layout)).toBe(true);
      expect(objects.has(g.object)).toBe(true);
    }
  });

  it('shares no task instance, and no goal, between or within splits', () => {
    const seen = new Map<string, string>();
    for (const { name } of homeSpec.splits) {
      for (const g of goals(name)) {
        const key = goalKey(g);
        expect(seen.get(key), `${key} in ${name}`).toBeUndefined();
        seen.set(key, name);
      }
    }
    const instances = new Set([...goals('train'), ...goals('valid-seen'), ...goals('valid-unseen')].map((g) => JSON.stringify(g)));
    expect(instances.size).toBe(4000);
  });

  it('covers all six task types and all four room kinds in every split', () => {
    for (const { name } of homeSpec.splits) {
      const types = new Set(goals(name).map((g) => g.type));
      expect([...types].sort()).toEqual([...TASK_TYPES].sort());
      const rooms = new Set(homeSpec.tasks(name).map((t) => buildWorld(t.goal as HomeGoal).layout.kind));
      expect(rooms.size).toBe(4);
    }
  });

  it('rates difficulty by task type plus the closed receptacles hiding the needed objects', () => {
    const base: Record<string, number> = {
      pick_and_place: 1,
      look_at_obj_in_light: 2,
      pick_clean_then_place: 3,
      pick_heat_then_place: 3,
      pick_cool_then_place: 3,
      pick_two_obj_and_place: 4,
    };
    const values = new Set<number>();
    for (const task of homeSpec.tasks('train')) {
      const goal = task.goal as HomeGoal;
      const world = buildWorld(goal);
      const hidden = hiddenCount(world, goal);
      expect(task.difficulty).toBe(base[goal.type]! + hidden);
      expect(difficultyOf(world, goal)).toBe(task.difficulty);
      // hidden = 0 exactly when enough objects lie in the open.
      const open = world.objects.filter((o, i) => o.type === goal.object && !world.layout.receptacles[world.hosts[i]!]!.openable);
      const needed = goal.type === 'pick_two_obj_and_place' ? 2 : 1;
      expect(hidden === 0).toBe(open.length >= needed);
      values.add(task.difficulty);
    }
    expect([...values].sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('refuses to reset on a task that is not a home task', async () => {
    const env = envSpec('home').createEnv();
    const task = homeSpec.tasks('train')[0]!;
    await expect(env.reset({ ...task, env: 'shop' })).rejects.toBeInstanceOf(UsageError);
    await expect(env.reset({ ...task, goal: undefined })).rejects.toBeInstanceOf(UsageError);
    await expect(env.reset({ ...task, goal: { ...(task.goal as HomeGoal), type: 'dance' } })).rejects.toBeInstanceOf(UsageError);
  });
});
