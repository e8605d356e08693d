import { describe, expect, it } from 'vitest';
import { EnvStateError, UsageError } from '../../../src/core/errors.ts';
import { headerValue } from '../../../src/core/state.ts';
import { RESULTS_PER_PAGE } from '../../../src/envs/shop/pages.ts';
import { firstTask, goalOf, newEnv, pageOf, state, targetOf } from './helpers.ts';

describe('shop pages and actions', () => {
  const task = firstTask();
  const target = targetOf(task);

  it('starts on the search page with the instruction and a search box', async () => {
    const env = newEnv();
    const obs = await env.reset(task);
    expect(pageOf(obs)).toBe('search');
    expect(headerValue(state(obs), 'instruction')).toBe(task.instruction);
    expect(obs.actions).toEqual(['search[...]']);
  });

  it('search shows page 1 of the top 50 with paging and product links', async () => {
    const env = newEnv();
    await env.reset(task);
    const r = await env.step(`search[${target.title}]`);
    expect(r.info.valid).toBe(true);
    expect(r.reward).toBe(0);
    expect(r.done).toBe(false);
    const s = state(r);
    expect(pageOf(r)).toBe('results');
    expect(s.elements[0]).toEqual({ kind: 'button', text: 'Back to Search' });
    expect(s.elements[1]!.text).toBe('Page 1 (Total results: 50)');
    const links = s.elements.filter((e) => e.kind === 'link');
    expect(links).toHaveLength(RESULTS_PER_PAGE);
    expect(links[0]!.text.startsWith(`${target.id} | ${target.title} | $`)).toBe(true);
    expect(r.observation.actions).toContain('click[Next >]');
    expect(r.observation.actions).not.toContain('click[< Prev]');
    expect(r.observation.actions).not.toContain('search[...]');
  });

  it('Next > and < Prev page through results; Back to Search returns to the search page', async () => {
    const env = newEnv();
    await env.reset(task);
    const p1 = await env.step(`search[${target.title}]`);
    const p2 = await env.step('click[Next >]');
    expect(state(p2).elements.find((e) => e.kind === 'text')!.text).toBe('Page 2 (Total results: 50)');
    expect(p2.observation.actions).toContain('click[< Prev]');
    const firstOf = (r: typeof p1) => state(r).elements.find((e) => e.kind === 'link')!.text;
    expect(firstOf(p2)).not.toBe(firstOf(p1));
    const back = await env.step('click[< Prev]');
    expect(back.observation.text).toBe(p1.observation.text);
    for (let i = 0; i < 4; i++) await env.step('click[Next >]');
    const last = await env.step('click[Next >]');
    expect(last.info.valid).toBe(false); // page 5 of 5 has no Next >
    const search = await env.step('click[back to search]'); // case-insensitive
    expect(pageOf(search)).toBe('search');
  });

  it('a product link opens its item page with options, sub-pages and Buy Now', async () => {
    const env = newEnv();
    await env.reset(task);
    await env.step(`search[${target.title}]`);
    const item = await env.step(`click[${target.id}]`);
    expect(pageOf(item)).toBe('item');
    const s = state(item);
    expect(s.elements.map((e) => e.text)).toContain(target.title);
    expect(s.elements.map((e) => e.text)).toContain(`Price: $${target.price.toFixed(2)}`);
    for (const option of target.options) for (const v of option.values) expect(item.observation.actions).toContain(`click[${v}]`);
    for (const b of ['Back to Search', '< Prev', 'Description', 'Features', 'Reviews', 'Buy Now']) {
      expect(item.observation.actions).toContain(`click[${b}]`);
    }
  });

  it('clicking an option selects it (one value per option type)', async () => {
    const env = newEnv();
    await env.reset(task);
    await env.step(`search[${target.title}]`);
    await env.step(`click[${target.id}]`);
    const option = target.options[0]!;
    const [a, b] = option.values as [string, string];
    const r1 = await env.step(`click[${a}]`);
    expect(state(r1).elements.filter((e) => e.text.endsWith('| selected')).map((e) => e.text)).toEqual([`${a} | ${option.name} | selected`]);
    const r2 = await env.step(`click[${b}]`);
    expect(state(r2).elements.filter((e) => e.text.endsWith('| selected')).map((e) => e.text)).toEqual([`${b} | ${option.name} | selected`]);
  });

  it('sub-pages show description, features and reviews; < Prev goes back to the item, then to the results', async () => {
    const env = newEnv();
    await env.reset(task);
    const results = await env.step(`search[${target.title}]`);
    const item = await env.step(`click[${target.id}]`);
    const desc = await env.step('click[Description]');
    expect(pageOf(desc)).toBe('description');
    expect(state(desc).elements.map((e) => e.text)).toContain(target.description);
    expect(desc.observation.actions).toEqual(['click[Back to Search]', 'click[< Prev]']);
    expect((await env.step('click[< Prev]')).observation.text).toBe(item.observation.text);
    const feats = await env.step('click[Features]');
    expect(state(feats).elements.filter((e) => e.kind === 'text').map((e) => e.text)).toEqual(target.features);
    await env.step('click[< Prev]');
    const reviews = await env.step('click[Reviews]');
    expect(state(reviews).elements.filter((e) => e.kind === 'text')).toHaveLength(target.reviews.length);
    await env.step('click[< Prev]');
    expect((await env.step('click[< Prev]')).observation.text).toBe(results.observation.text);
  });

  it('Buy Now ends the episode with the reward; only it is rewarded', async () => {
    const env = newEnv();
    await env.reset(task);
    await env.step(`search[${target.title}]`);
    await env.step(`click[${target.id}]`);
    for (const [, value] of Object.entries(goalOf(task).options)) await env.step(`click[${value}]`);
    const r = await env.step('click[Buy Now]');
    expect(r.done).toBe(true);
    expect(r.reward).toBe(1);
    expect(r.info.won).toBe(true);
    await expect(env.step('click[Buy Now]')).rejects.toThrow(EnvStateError);
  });

  it('stops at the step limit with reward 0 and truncated', async () => {
    const env = newEnv(3);
    await env.reset(task);
    await env.step('search[shoes]');
    await env.step('click[Next >]');
    const r = await env.step('click[Next >]');
    expect(r.done).toBe(true);
    expect(r.info.truncated).toBe(true);
    expect(r.reward).toBe(0);
  });

  it('refuses to step before reset and tasks without a shop goal', async () => {
    const env = newEnv();
    await expect(env.step('search[x]')).rejects.toThrow(EnvStateError);
    await expect(env.reset({ ...task, goal: undefined })).rejects.toThrow(UsageError);
  });

  it('defaults to WebShop\'s 15-step limit', async () => {
    const env = newEnv();
    await env.reset(task);
    let r;
    let n = 0;
    do {
      r = await env.step('click[nothing here]');
      n++;
    } while (!r.done);
    expect(n).toBe(15);
  });
});
