import { describe, expect, it } from 'vitest';
import type { Task } from '../../../src/core/types.ts';
import { HomeOracle, planGoal } from '../../../src/envs/home/agents.ts';
import type { HomeGoal } from '../../../src/envs/home/goal.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { buildWorld } from '../../../src/envs/home/world.ts';
import { parseMix, seedEpisodes } from '../../../src/replay/seed.ts';

const homeSpec = envSpec('home');

// Success rates of the oracle and random agents on both envs live in tests/unit/envs/rollout.test.ts.
describe('home scripted agents', () => {
  it('the oracle plan is never longer than the two-object worst case', () => {
    for (const task of homeSpec.tasks('train')) {
      const goal = task.goal as HomeGoal;
      // go, open, take, go, open, put, twice, with the target opened only once: 11.
      expect(planGoal(buildWorld(goal), goal).length).toBeLessThanOrEqual(11);
    }
  });
});

describe('the hasty oracle', () => {
  const PREPARED = ['pick_clean_then_place', 'pick_heat_then_place', 'pick_cool_then_place', 'pick_two_obj_and_place', 'look_at_obj_in_light'];

  /** The oracle's play of a task: every action with its reward, until done. */
  async function play(style: 'shortest' | 'hasty', task: Task): Promise<{ action: string; reward: number; done: boolean; valid: boolean }[]> {
    const env = homeSpec.createEnv();
    const agent = new HomeOracle(style);
    let observation = await env.reset(task);
    agent.reset(task, observation);
    const steps = [];
    for (let i = 0; i < homeSpec.maxSteps; i++) {
      const action = agent.act(observation);
      const result = await env.step(action);
      steps.push({ action, reward: result.reward, done: result.done, valid: result.info.valid });
      observation = result.observation;
      if (result.done) break;
    }
    return steps;
  }

  for (const type of PREPARED) {
    it(`on ${type} it takes the goal's last step unprepared for no reward, then succeeds`, async () => {
      const tasks = homeSpec.tasks('train').filter((t) => (t.goal as HomeGoal).type === type).slice(0, 6);
      expect(tasks.length).toBe(6);
      for (const task of tasks) {
        const oracle = await play('shortest', task);
        const hasty = await play('hasty', task);
        const goalStep = (oracle.at(-1) as { action: string }).action.replace(/ \d+/g, ' #');
        // Every command is valid and the episode is won, after more steps than the oracle's (or as many,
        // where the lamp stands by the object: the early `use` then saves the last one).
        expect(hasty.every((s) => s.valid)).toBe(true);
        expect(hasty.at(-1)).toMatchObject({ reward: 1, done: true });
        expect(hasty.length).toBeGreaterThanOrEqual(oracle.length + (type === 'look_at_obj_in_light' ? 0 : 1));
        // The goal's kind of step (the same verb and target, any object number) came earlier and earned nothing.
        const early = hasty.slice(0, -1).filter((s) => s.action.replace(/ \d+/g, ' #') === goalStep);
        if (type === 'look_at_obj_in_light') expect(early.map((s) => s.action)).toContain((oracle.at(-1) as { action: string }).action);
        else expect(early.length).toBeGreaterThanOrEqual(1);
        expect(early.every((s) => s.reward === 0 && !s.done)).toBe(true);
      }
    });
  }

  it('plays a plain pick and place as the oracle does', () => {
    for (const task of homeSpec.tasks('train').filter((t) => (t.goal as HomeGoal).type === 'pick_and_place').slice(0, 6)) {
      const goal = task.goal as HomeGoal;
      expect(planGoal(buildWorld(goal), goal, 'hasty')).toEqual(planGoal(buildWorld(goal), goal));
    }
  });

  it('seeds a buffer on home and is refused up front where the environment lacks it', async () => {
    const hasty: string[] = [];
    for await (const episode of seedEpisodes({ spec: homeSpec, episodes: 4, mix: parseMix('hasty=1'), seed: 1 })) {
      expect(episode.won).toBe(true);
      hasty.push(episode.agent);
    }
    expect(hasty).toEqual(['hasty', 'hasty', 'hasty', 'hasty']);
    const shop = seedEpisodes({ spec: envSpec('shop'), episodes: 4, mix: parseMix('oracle=0.5,hasty=0.5'), seed: 1 });
    await expect(shop.next()).rejects.toThrow(/shop has no hasty agent; its seeding agents are: oracle, random, noisy, shopper/);
  });
});
