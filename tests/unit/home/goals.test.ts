import { envSpec } from '../../../src/envs/registry.ts';
import { describe, expect, it } from 'vitest';
import { HomeOracle } from '../../../src/envs/home/agents.ts';
import { TASK_TYPES } from '../../../src/envs/home/goal.ts';
import { buildWorld } from '../../../src/envs/home/world.ts';
import { fetch, goalOf, ofType, play, recName, start, tasksWhere } from './helpers.ts';

describe('home goals', () => {
  for (const type of TASK_TYPES) {
    it(`the oracle reaches ${type} goals with reward 1 and done`, async () => {
      const tasks = tasksWhere('train', ofType(type)).slice(0, 8);
      expect(tasks.length).toBe(8);
      for (const task of tasks) {
        const env = envSpec('home').createEnv();
        const oracle = new HomeOracle();
        let observation = await env.reset(task);
        oracle.reset(task, observation);
        let last = null;
        for (let i = 0; i < 50; i++) {
          last = await env.step(oracle.act(observation));
          observation = last.observation;
          expect(last.info.valid).toBe(true);
          if (last.done) break;
          expect(last.reward).toBe(0);
        }
        expect(last?.done).toBe(true);
        expect(last?.reward).toBe(1);
        expect(last?.info.won).toBe(true);
        expect(last?.info.truncated).toBe(false);
      }
    });
  }

  it('putting the object in a receptacle of another type gives no reward', async () => {
    const task = tasksWhere('train', ofType('pick_and_place'))[0];
    if (!task) throw new Error('no task');
    const ep = await start(task);
    const obj = ep.world.objects.findIndex((o) => o.type === ep.goal.object);
    await fetch(ep, obj);
    const wrong = ep.world.layout.receptacles.findIndex(
      (r, i) => r.type !== ep.goal.target && !r.openable && i !== ep.world.hosts[obj],
    );
    await ep.step(`go to ${recName(ep.world, wrong)}`);
    const put = await ep.step(`put ${(ep.world.objects[obj] as { name: string }).name} in/on ${recName(ep.world, wrong)}`);
    expect(put.reward).toBe(0);
    expect(put.done).toBe(false);
    expect(put.info.won).toBe(false);
  });

  it('placing an object that was not heated does not satisfy a heat task', async () => {
    const task = tasksWhere('train', (g) => g.type === 'pick_heat_then_place')[0];
    if (!task) throw new Error('no task');
    const ep = await start(task);
    const obj = ep.world.objects.findIndex((o) => o.type === ep.goal.object);
    const name = (ep.world.objects[obj] as { name: string }).name;
    await fetch(ep, obj);
    const target = ep.world.layout.receptacles.findIndex((r) => r.type === ep.goal.target);
    await ep.step(`go to ${recName(ep.world, target)}`);
    if (ep.world.layout.receptacles[target]?.openable) await ep.step(`open ${recName(ep.world, target)}`);
    const put = await ep.step(`put ${name} in/on ${recName(ep.world, target)}`);
    expect(put.reward).toBe(0);
    expect(put.done).toBe(false);
  });

  it('one object is not enough for a two-object task', async () => {
    const task = tasksWhere('train', ofType('pick_two_obj_and_place'))[0];
    if (!task) throw new Error('no task');
    const ep = await start(task);
    const obj = ep.world.objects.findIndex((o) => o.type === ep.goal.object);
    await fetch(ep, obj);
    const target = ep.world.layout.receptacles.findIndex((r) => r.type === ep.goal.target);
    await ep.step(`go to ${recName(ep.world, target)}`);
    if (ep.world.layout.receptacles[target]?.openable) await ep.step(`open ${recName(ep.world, target)}`);
    const put = await ep.step(`put ${(ep.world.objects[obj] as { name: string }).name} in/on ${recName(ep.world, target)}`);
    expect(put.reward).toBe(0);
    expect(put.done).toBe(false);
  });

  it('a look task needs the object in hand when the lamp is on', async () => {
    // One whose objects all start away from the lamp, so lighting first and fetching later is possible.
    const task = tasksWhere('train', ofType('look_at_obj_in_light')).find((t) => {
      const world = buildWorld(goalOf(t));
      const lamp = world.objects.findIndex((o) => o.toggleable && o.type === goalOf(t).lamp);
      return world.objects.every((o, i) => o.type !== goalOf(t).object || world.hosts[i] !== world.hosts[lamp]);
    });
    if (!task) throw new Error('no task');
    const ep = await start(task);
    const lamp = ep.world.objects.findIndex((o) => o.toggleable && o.type === ep.goal.lamp);
    const lampName = (ep.world.objects[lamp] as { name: string }).name;
    const lampHost = recName(ep.world, ep.world.hosts[lamp] as number);
    await ep.step(`go to ${lampHost}`);
    const lit = await ep.step(`use ${lampName}`);
    expect(lit.reward).toBe(0);
    const obj = ep.world.objects.findIndex((o) => o.type === ep.goal.object);
    const objHost = ep.world.hosts[obj] as number;
    expect(recName(ep.world, objHost)).not.toBe(lampHost);
    const taken = await fetch(ep, obj);
    expect(taken.reward).toBe(0);
    // Coming back to the lit lamp with the object in hand is enough.
    const back = await ep.step(`go to ${lampHost}`);
    expect(back.reward).toBe(1);
    expect(back.done).toBe(true);
  });

  it('no task is solved before its first step', async () => {
    const env = envSpec('home').createEnv();
    for (const task of tasksWhere('valid-unseen', () => true).slice(0, 100)) {
      await env.reset(task);
      // `look` changes nothing, so a reward here would mean the goal held at the start.
      const result = await env.step('look');
      expect(result.reward).toBe(0);
    }
  });

  it('an episode played by the oracle is short', async () => {
    for (const task of tasksWhere('valid-unseen', () => true).slice(0, 50)) {
      const outcome = await play(envSpec('home').createEnv(), new HomeOracle(), task);
      expect(outcome.won).toBe(true);
      expect(outcome.steps).toBeLessThanOrEqual(12);
    }
  });
});
