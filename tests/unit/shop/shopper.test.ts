import { describe, expect, it } from 'vitest';
import { SEARCH_TEMPLATE } from '../../../src/core/actions.ts';
import { UsageError } from '../../../src/core/errors.ts';
import { expandActions } from '../../../src/core/queries.ts';
import { proposeQueries } from '../../../src/envs/shop/queries.ts';
import { Rng } from '../../../src/core/rng.ts';
import type { Task } from '../../../src/core/types.ts';
import { readInstruction, ShopShopper } from '../../../src/envs/shop/agents.ts';
import type { RewardBreakdown } from '../../../src/envs/shop/reward.ts';
import { createAgent, runEpisode } from '../../../src/envs/episode.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { parseMix } from '../../../src/replay/seed.ts';
import { goalOf, newEnv, world } from './helpers.ts';

const homeSpec = envSpec('home');

describe('the shop shopper (acts on what the pages show)', () => {
  it('reads the wanted options and the price bound from the instruction text', () => {
    for (const task of world.tasks.test.slice(0, 50)) {
      const goal = goalOf(task);
      const read = readInstruction(task.instruction);
      expect(Object.fromEntries(read.options)).toEqual(goal.options);
      expect(read.priceBound).toBe(goal.priceUpper);
      expect(read.words.join(' ')).not.toMatch(/price lower than/);
    }
  });

  it('plays the same without the goal: it never reads it', async () => {
    const env = newEnv();
    for (const task of world.tasks.test.slice(0, 20)) {
      const withGoal = await runEpisode(env, new ShopShopper(new Rng('s')), task);
      const blind: Task = { ...task, goal: undefined };
      const shopper = new ShopShopper(new Rng('s'));
      const first = await env.reset(task);
      shopper.reset(blind);
      const actions: string[] = [];
      let observation = first;
      for (;;) {
        const action = shopper.act(observation);
        actions.push(action);
        const result = await env.step(action);
        observation = result.observation;
        if (result.done) break;
      }
      expect(actions).toEqual(withGoal.steps.map((s) => s.action));
    }
  });

  it('searches with the whole request a policy can choose as its query, so the buffer holds the result pages a policy sees', async () => {
    const env = newEnv();
    let searches = 0;
    for (const [i, task] of world.tasks.test.slice(0, 100).entries()) {
      const record = await runEpisode(env, new ShopShopper(new Rng(`queries:${i}`)), task);
      const proposed = expandActions({ text: '', actions: [SEARCH_TEMPLATE] }, task.instruction, proposeQueries);
      const queries = record.steps.filter((s) => s.action.startsWith('search[')).map((s) => s.action);
      expect(queries[0]).toBe(proposed[0]);
      for (const query of queries) expect(proposed).toContain(query);
      searches += queries.length;
    }
    expect(searches).toBeGreaterThanOrEqual(100);
  });

  it('buys with the wanted options it was shown, often wins, and misses attributes the pages do not show', async () => {
    const env = newEnv();
    let wins = 0, missedAttributes = 0, purchases = 0;
    for (const [i, task] of world.tasks.test.slice(0, 100).entries()) {
      const record = await runEpisode(env, new ShopShopper(new Rng(`shopper:${i}`)), task);
      expect(record.invalidActions).toBe(0);
      const last = record.steps.at(-1);
      if (last?.action !== 'click[Buy Now]') continue;
      purchases++;
      if (record.won) wins++;
      const score = (last.result.info as unknown as { score: RewardBreakdown }).score;
      if (score.missingAttributes.length > 0) missedAttributes++;
      // Every wanted option that the bought product offers was selected.
      const page = record.steps.at(-2)?.result.observation.text ?? record.first.text;
      for (const [type, value] of Object.entries(goalOf(task).options)) {
        if (page.includes(`option: ${value} | ${type}`)) expect(score.missingOptions).not.toContain(type);
      }
    }
    expect(purchases).toBeGreaterThan(90);
    expect(wins / purchases).toBeGreaterThan(0.5);
    expect(missedAttributes).toBeGreaterThan(0);
  });

  it('is a seeding agent for the shop; an environment without one says which agents it has', () => {
    expect(parseMix('oracle=1,shopper=1')).toEqual({ oracle: 0.5, shopper: 0.5 });
    expect(() => createAgent(homeSpec, 'shopper', new Rng(1))).toThrow(UsageError);
    expect(() => createAgent(homeSpec, 'shopper', new Rng(1))).toThrow(/home has no shopper agent; use one of: oracle, random, noisy, hasty/);
  });
});
