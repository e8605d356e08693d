import { envSpec } from '../../../src/envs/registry.ts';
import { describe, expect, it, vi } from 'vitest';
import { Rng } from '../../../src/core/rng.ts';
import { HomeOracle, HomeRandom } from '../../../src/envs/home/agents.ts';
import type { HomeGoal } from '../../../src/envs/home/goal.ts';
import { homeTasks } from '../../../src/envs/home/tasks.ts';
import { buildWorld } from '../../../src/envs/home/world.ts';
import { play } from './helpers.ts';

describe('home determinism', () => {
  it('builds the same world from the same task, and a different one from another placement', () => {
    const task = homeTasks('valid-unseen')[3]!;
    const goal = task.goal as HomeGoal;
    expect(buildWorld(goal)).toEqual(buildWorld(JSON.parse(JSON.stringify(goal)) as HomeGoal));
    const other = buildWorld({ ...goal, placement: (goal.placement + 1) >>> 0 });
    expect(other.layout).toBe(buildWorld(goal).layout);
    expect(other.hosts).not.toEqual(buildWorld(goal).hosts);
  });

  it('replays the same transcript for the same task and the same random seed', async () => {
    for (const task of homeTasks('valid-seen').slice(0, 20)) {
      const a = await play(envSpec('home').createEnv(), new HomeRandom(new Rng(`r:${task.id}`)), task);
      const b = await play(envSpec('home').createEnv(), new HomeRandom(new Rng(`r:${task.id}`)), task);
      expect(b.transcript).toEqual(a.transcript);
      const c = await play(envSpec('home').createEnv(), new HomeOracle(), task);
      const d = await play(envSpec('home').createEnv(), new HomeOracle(), task);
      expect(d.transcript).toEqual(c.transcript);
    }
  });

  it('resetting the same environment twice starts from the same observation', async () => {
    const env = envSpec('home').createEnv();
    const task = homeTasks('train')[7]!;
    const first = await env.reset(task);
    await env.step(first.actions[0]!);
    expect(await env.reset(task)).toEqual(first);
  });

  it('generates the same splits in a fresh module instance', async () => {
    vi.resetModules();
    const fresh = (await import('../../../src/envs/home/tasks.ts')) as typeof import('../../../src/envs/home/tasks.ts');
    expect(fresh.homeTasks).not.toBe(homeTasks);
    for (const split of ['train', 'valid-seen', 'valid-unseen']) {
      expect(JSON.stringify(fresh.homeTasks(split))).toBe(JSON.stringify(homeTasks(split)));
    }
  });

  it('truncates at 50 steps by default', async () => {
    const env = envSpec('home').createEnv();
    await env.reset(homeTasks('train')[0]!);
    for (let i = 1; i < 50; i++) {
      const result = await env.step(i % 2 ? 'look' : 'inventory');
      expect(result.done).toBe(false);
      expect(result.info.truncated).toBe(false);
    }
    const last = await env.step('look');
    expect(last.done).toBe(true);
    expect(last.info.truncated).toBe(true);
    expect(last.info.won).toBe(false);
    expect(last.reward).toBe(0);
  });

  it('honours a custom step limit', async () => {
    const env = envSpec('home').createEnv({ maxSteps: 5 });
    const outcome = await play(env, new HomeRandom(new Rng(3)), homeTasks('train')[1]!);
    expect(outcome.steps).toBeLessThanOrEqual(5);
  });
});
