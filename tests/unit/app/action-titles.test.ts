/**
 * Play's shop actions: a click on a product code shows the product's title and price from the
 * state beside it, as the real results page lists them.
 */
import { describe, expect, it } from 'vitest';
import { actionTitles } from '../../../src/app/play/action-titles.ts';
import type { Task } from '../../../src/core/types.ts';
import { envSpec } from '../../../src/envs/registry.ts';

describe('the titles beside the actions', () => {
  it('gives every product on a real results page its title and price, and a plain button none', async () => {
    const spec = envSpec('shop');
    const env = spec.createEnv();
    await env.reset(spec.tasks('test')[0] as Task);
    const { observation } = await env.step('search[running shoes]');
    const titles = actionTitles(observation.text, observation.actions);
    const products = observation.actions.filter((a) => /^click\[b0/.test(a));
    expect(products.length).toBeGreaterThan(0);
    for (const action of products) expect(titles.get(action)).toMatch(/^[a-z].* · \$\d+\.\d\d$/);
    expect(titles.has('click[Back to Search]')).toBe(false);
  });

  it('matches the code whatever its case, and leaves a text that is not a state alone', () => {
    const state = 'page: results\n[1] link: B07X9K2M | acme mesh running shoes | $45.99';
    expect(actionTitles(state, ['click[b07x9k2m]', 'search[...]'])).toEqual(new Map([['click[b07x9k2m]', 'acme mesh running shoes · $45.99']]));
    expect(actionTitles('not a state', ['click[b07x9k2m]']).size).toBe(0);
  });
});
