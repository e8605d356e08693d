import { describe, expect, it } from 'vitest';
import type { StepResult } from '../../../src/core/types.ts';
import { rollout, type EpisodeRecord } from '../../../src/envs/episode.ts';
import { EXPLANATION_MAX, STEP_LIMIT_NOTE } from '../../../src/envs/explain.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import type { RewardBreakdown } from '../../../src/envs/shop/reward.ts';
import { malformedActions } from '../fuzz-actions.ts';
import { firstTask, goalOf, newEnv, targetOf, world } from './helpers.ts';

const shopSpec = envSpec('shop');

/** The number an explanation gives as the reward ("so the reward is 0.67."). */
function statedReward(text: string): number {
  const match = /the reward is (\d+(?:\.\d+)?)\./.exec(text);
  if (!match) throw new Error(`no reward stated in: ${text}`);
  return Number(match[1]);
}

function explanationOf(result: StepResult): string {
  const text = result.info.explanation;
  expect(typeof text).toBe('string');
  return text as string;
}

function expectWellFormed(text: string): void {
  expect(text.length).toBeGreaterThan(0);
  expect(text.length).toBeLessThanOrEqual(EXPLANATION_MAX);
  expect(text).not.toMatch(/[\n\r\t]/);
}

async function episodes(policy: 'oracle' | 'random', count: number, seed: number, maxSteps?: number): Promise<EpisodeRecord[]> {
  const records: EpisodeRecord[] = [];
  await rollout({ spec: shopSpec, policy, split: 'test', episodes: count, seed, envOptions: { maxSteps }, onEpisode: (_i, r) => records.push(r) });
  return records;
}

describe('shop: every step explains itself', () => {
  for (const [policy, maxSteps] of [['oracle', undefined], ['random', undefined], ['random', 60]] as const) {
    it(`${policy} episodes${maxSteps ? ` (step limit ${maxSteps})` : ''}: a short explanation on every step; Buy Now states its reward`, async () => {
      let buys = 0;
      for (const record of await episodes(policy, 40, 11, maxSteps)) {
        record.steps.forEach(({ action, result }, i) => {
          const text = explanationOf(result);
          expectWellFormed(text);
          if (!result.info.valid) expect(text).toMatch(/, so nothing changes and the reward is 0\./);
          if (result.info.truncated) expect(text.endsWith(STEP_LIMIT_NOTE)).toBe(true);
          else expect(text).not.toContain(STEP_LIMIT_NOTE);
          if (result.info.valid && action === 'click[Buy Now]') {
            buys++;
            expect(text).toMatch(/^Bought b0[0-9a-z]{8}\b/);
            expect(statedReward(text)).toBe(Number(result.reward.toFixed(2)));
            expect(statedReward(text)).toBeCloseTo(result.reward, 2);
            const score = result.info.score as RewardBreakdown;
            expect(text.includes('r_type')).toBe(score.rType < 1);
          } else if (i < record.steps.length - 1 || !result.done) {
            expect(text).not.toMatch(/^Bought/);
          }
        });
      }
      if (policy === 'oracle' || maxSteps) expect(buys).toBeGreaterThan(0);
    });
  }

  it('gives the same explanations for the same seed', async () => {
    const texts = async () => (await episodes('random', 10, 4)).flatMap((r) => r.steps.map((s) => s.result.info.explanation));
    expect(await texts()).toEqual(await texts());
  });

  it('explains searching, opening, choosing, replacing a choice and going back', async () => {
    const task = firstTask('test', 2);
    const target = targetOf(task);
    const env = newEnv();
    await env.reset(task);
    const search = explanationOf(await env.step(`search[${target.title}]`));
    expect(search).toMatch(new RegExp(`^Searched for "${target.title}"; the results page lists (the top 10 of \\d+|all \\d+) matching products\\.$`));
    expect(explanationOf(await env.step(`click[${target.id}]`))).toBe(
      `Opened the item page of ${target.id} (${target.title}), priced $${target.price.toFixed(2)}.`,
    );
    const option = target.options.find((o) => o.values.length >= 2);
    if (!option) throw new Error('the target has no option with two values');
    const [first, second] = option.values as [string, string];
    expect(explanationOf(await env.step(`click[${first}]`))).toBe(`Selected "${first}" for ${option.name}.`);
    expect(explanationOf(await env.step(`click[${second}]`))).toBe(`Selected "${second}" for ${option.name}; "${first}" is no longer selected.`);
    expect(explanationOf(await env.step(`click[${second}]`))).toBe(`"${second}" was already selected for ${option.name}, so nothing changes.`);
    expect(explanationOf(await env.step('click[Reviews]'))).toBe(`Opened the reviews page of ${target.id} (${target.title}).`);
    expect(explanationOf(await env.step('click[< Prev]'))).toBe(`Went back from the reviews page to the item page of ${target.id}.`);
    expect(explanationOf(await env.step('click[< Prev]'))).toMatch(/^Went back to page 1 of the results for ".+"\.$/);
    expect(explanationOf(await env.step('click[Back to Search]'))).toBe('Went back to the search page.');
    await env.step(`search[${target.title}]`);
    await env.step(`click[${target.id}]`);
    await env.step(`click[${first}]`);
    expect(explanationOf(await env.step('click[Back to Search]'))).toBe('Went back to the search page; the selected options are cleared.');
  });

  it('says why an invalid action does nothing', async () => {
    const task = firstTask('test', 2);
    const target = targetOf(task);
    const env = newEnv();
    await env.reset(task);
    expect(explanationOf(await env.step('click[foo]'))).toBe('"click[foo]" is not an action on the search page, so nothing changes and the reward is 0.');
    expect(explanationOf(await env.step(null as unknown as string))).toMatch(/^"\(a null value\)" is not a well-formed action/);
    expect(explanationOf(await env.step('hello'))).toMatch(/^"hello" is not a well-formed action .*, so nothing changes and the reward is 0\.$/);
    await env.step(`search[${target.title}]`);
    await env.step(`click[${target.id}]`);
    expect(explanationOf(await env.step('search[shoes]'))).toBe(
      '"search[shoes]" is not an action on the item page, which has no search box, so nothing changes and the reward is 0.',
    );
  });

  it('keeps explanations of malformed actions short and printable', async () => {
    const task = firstTask('test', 3);
    const env = newEnv(1_000_000);
    await env.reset(task);
    for (const action of malformedActions(400, 21, ['click[Buy Now]', 'search[shoes]'])) {
      const result = await env.step(action);
      const text = explanationOf(result);
      expectWellFormed(text);
      if (!result.info.valid) expect(text).toMatch(/so nothing changes and the reward is 0\.$/);
      if (result.info.valid) await env.reset(task);
    }
  });

  it('on Buy Now names the missing constraints and r_type, with the reward to two decimals', async () => {
    const task = firstTask('test', 5);
    const goal = goalOf(task);
    const target = targetOf(task);
    const env = newEnv();
    await env.reset(task);
    await env.step(`search[${target.title}]`);
    await env.step(`click[${target.id}]`);
    const bought = await env.step('click[Buy Now]');
    const text = explanationOf(bought);
    expect(bought.reward).toBeLessThan(1);
    expect(statedReward(text)).toBe(Number(bought.reward.toFixed(2)));
    const types = Object.keys(goal.options);
    expect(text).toContain(`0 of ${types.length} option`);
    for (const type of types) expect(text).toContain(`${type} "${goal.options[type]}"`);
    expect(text).toContain('the product type matches');

    // A product from another department: the wrong type of product.
    const other = world.catalog.products.find((p) => p.path[1] !== goal.path[1] && p.price > goal.priceUpper);
    if (!other) throw new Error('no product from another department');
    await env.reset(task);
    await env.step(`search[${other.title}]`);
    await env.step(`click[${other.id}]`);
    const wrong = await env.step('click[Buy Now]');
    const wrongText = explanationOf(wrong);
    const score = wrong.info.score as RewardBreakdown;
    expect(score.rType).toBeLessThan(1);
    expect(wrongText).toContain(`(r_type ${score.rType})`);
    expect(wrongText).toContain(`over the $${goal.priceUpper.toFixed(2)} bound`);
    expect(statedReward(wrongText)).toBe(Number(wrong.reward.toFixed(2)));
  });

  it('adds the step-limit note on the last step only', async () => {
    const task = firstTask('test', 1);
    const env = newEnv(2);
    await env.reset(task);
    const first = await env.step('search[anything at all]');
    const last = await env.step('click[Back to Search]');
    expect(explanationOf(first)).not.toContain(STEP_LIMIT_NOTE);
    expect(last.info.truncated).toBe(true);
    expect(explanationOf(last)).toBe(`Went back to the search page.${STEP_LIMIT_NOTE}`);
  });
});
