/**
 * The held-out families in the system Chromium: their long tasks are out of a random agent's
 * reach, and the pretraining site's page cannot be made to show them, nor reach another site's
 * files.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Rng } from '../../../../src/core/rng.ts';
import type { Task } from '../../../../src/core/types.ts';
import { runEpisode } from '../../../../src/envs/episode.ts';
import { WebRandom } from '../../../../src/envs/web/agents.ts';
import { closePageHosts, hostFor } from '../../../../src/envs/web/hosts.ts';
import type { WebGoal } from '../../../../src/envs/web/site.ts';
import { HELD_OUT_FAMILIES } from '../../../../src/envs/web/generated/index.ts';
import { dataOf, fewSeeds, fresh, limited } from './generated-play.ts';

afterAll(() => closePageHosts());

describe('the held-out families', () => {
  it('hold long tasks (five oracle steps or more) that a random agent wins less than a fifth of the time', async () => {
    const spec = fewSeeds('held-out', 6);
    const env = limited(spec);
    const long: Task[] = [];
    for (const task of spec.tasks('test')) {
      const oracle = await runEpisode(env, spec.createOracle(), fresh(task));
      expect(oracle.won, task.id).toBe(true);
      if (oracle.steps.length >= 5) long.push(task);
    }
    expect(new Set(long.map((t) => dataOf(t).family))).toEqual(new Set(HELD_OUT_FAMILIES));
    expect(long.length).toBeGreaterThanOrEqual(8);
    let wins = 0;
    for (const task of long) {
      const random = await runEpisode(env, new WebRandom(new Rng(`random:${task.id}`)), fresh(task));
      if (random.won) wins++;
    }
    expect(wins / long.length).toBeLessThan(0.2);
    await env.close?.();
  }, 150_000);
});

describe('the pretraining site\'s page', () => {
  it('refuses to show a held-out family, even passed off as one of its own', async () => {
    const pretraining = fewSeeds('pretraining', 1);
    const heldOut = fewSeeds('held-out', 1);
    const cart = heldOut.tasks('train').find((t) => dataOf(t).family === 'cart') as Task;
    const forged: Task = { ...cart, goal: { ...(cart.goal as WebGoal), site: 'generated', task: 'forms' } };
    const env = limited(pretraining);
    await expect(env.reset(forged)).rejects.toThrow(/does not hold the family "cart"/);
    await env.close?.();
  });

  it('is served alone: the suite\'s files and the foreign-style corpus are not there to load', async () => {
    const tab = await (await hostFor({ bundled: 'generated' })).openTab();
    try {
      await tab.load('index.html');
      const statuses = await tab.evaluate<number[]>(`Promise.all(['../suite/lib/task.js', '/suite/index.html', '../../examples/foreign-sites/jquery-spans/site.json', 'lib/runtime.js'].map((p) => fetch(p).then((r) => r.status)))`);
      expect(statuses).toEqual([404, 404, 404, 200]);
    } finally {
      await tab.close();
    }
  });
});
