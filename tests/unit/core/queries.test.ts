import { describe, expect, it } from 'vitest';
import { SEARCH_TEMPLATE } from '../../../src/core/actions.ts';
import { expandActions } from '../../../src/core/queries.ts';
import { proposeQueries } from '../../../src/envs/shop/queries.ts';

describe("the shop's query proposer", () => {
  it('proposes the whole request without its opener and price clause, then its head before "with"', () => {
    expect(proposeQueries('i need bluetooth 5.3 wireless headphones with color: midnight blue, and price lower than 280.00 dollars')).toEqual([
      'bluetooth 5.3 wireless headphones with color midnight blue',
      'bluetooth 5.3 wireless headphones',
    ]);
  });

  it('proposes one query when the request has no "with" part, none for an empty one', () => {
    expect(proposeQueries('get me a soy candle, and price lower than 20.00 dollars')).toEqual(['a soy candle']);
    expect(proposeQueries('')).toEqual([]);
  });

  it('replaces only the search template among the admissible actions', () => {
    const actions = expandActions({ text: '', actions: ['click[Buy Now]', SEARCH_TEMPLATE] }, 'find me wool socks with size: m', proposeQueries);
    expect(actions).toEqual(['click[Buy Now]', 'search[wool socks with size m]', 'search[wool socks]']);
  });

  it('leaves the template out where the environment proposes no queries', () => {
    expect(expandActions({ text: '', actions: ['click[Buy Now]', SEARCH_TEMPLATE] }, 'find me wool socks', undefined)).toEqual(['click[Buy Now]']);
  });
});
