import { describe, expect, it } from 'vitest';
import type { Observation } from '../../../src/core/types.ts';
import { malformedActions } from '../fuzz-actions.ts';
import { firstTask, newEnv, targetOf } from './helpers.ts';

describe('shop: malformed and inadmissible actions', () => {
  const task = firstTask('test', 3);
  const target = targetOf(task);
  // One prefix per page kind, so every page meets every kind of bad action.
  const prefixes: Record<string, string[]> = {
    search: [],
    results: [`search[${target.title}]`],
    item: [`search[${target.title}]`, `click[${target.id}]`],
    subpage: [`search[${target.title}]`, `click[${target.id}]`, 'click[Reviews]'],
  };
  const known = ['click[Buy Now]', 'click[Next >]', `click[${target.id}]`, 'search[shoes]', 'click[Description]'];

  for (const [page, prefix] of Object.entries(prefixes)) {
    it(`never throw on the ${page} page, give reward 0 and leave the state unchanged`, async () => {
      const env = newEnv(1_000_000);
      let observation: Observation = await env.reset(task);
      for (const a of prefix) observation = (await env.step(a)).observation;
      const actions = malformedActions(1000, page.length, known).filter((a) => !observation.actions.includes(a));
      // Admissible elsewhere but not here counts as malformed for this page.
      let invalid = 0;
      for (const action of actions) {
        const before = observation.text;
        const r = await env.step(action);
        if (r.info.valid) {
          // A query is any non-empty text: the only bad-looking action the search page accepts.
          expect(page).toBe('search');
          expect(action.toLowerCase().startsWith('search[')).toBe(true);
          observation = await env.reset(task);
          continue;
        }
        invalid++;
        expect(r.reward).toBe(0);
        expect(r.done).toBe(false);
        expect(r.info.won).toBe(false);
        expect(r.observation.text).toBe(before);
        expect(r.observation.actions).toEqual(observation.actions);
      }
      expect(invalid).toBeGreaterThan(900);
    });
  }
});
