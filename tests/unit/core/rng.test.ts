import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashString, hashWords, Rng } from '../../../src/core/rng.ts';

describe('Rng', () => {
  it('gives the same stream for the same seed and another for another seed', () => {
    const a = new Rng(7), b = new Rng(7), c = new Rng(8);
    const draw = (r: Rng) => Array.from({ length: 20 }, () => r.nextUint32());
    const first = draw(a);
    expect(draw(b)).toEqual(first);
    expect(draw(c)).not.toEqual(first);
    expect(new Rng('x').next()).toBe(new Rng('x').next());
  });

  it('draws integers in range and shuffles without losing items', () => {
    const r = new Rng(1);
    const counts = new Array(5).fill(0);
    for (let i = 0; i < 5000; i++) counts[r.int(5)]++;
    for (const c of counts) expect(c).toBeGreaterThan(850);
    const items = Array.from({ length: 50 }, (_, i) => i);
    expect(r.shuffle(items).sort((x, y) => x - y)).toEqual(items);
    expect(new Set(r.sample(items, 10)).size).toBe(10);
    expect(() => r.int(0)).toThrow(RangeError);
  });

  it('forks independent but reproducible streams', () => {
    expect(new Rng(3).fork('a').next()).toBe(new Rng(3).fork('a').next());
    expect(new Rng(3).fork('a').next()).not.toBe(new Rng(3).fork('b').next());
  });

  it('goes on exactly from a saved state, and refuses a state that is not four 32-bit words', () => {
    const a = new Rng('state');
    for (let i = 0; i < 37; i++) a.next();
    const state = a.state();
    expect(state.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffffffff)).toBe(true);
    const b = Rng.fromState(JSON.parse(JSON.stringify(state)) as typeof state);
    expect(Array.from({ length: 50 }, () => b.nextUint32())).toEqual(Array.from({ length: 50 }, () => a.nextUint32()));
    expect(() => Rng.fromState([1, 2, 3] as unknown as typeof state)).toThrow(/four unsigned 32-bit integers/);
    expect(() => Rng.fromState([1, 2, 3, -1])).toThrow(/four unsigned 32-bit integers/);
  });
});

describe('hashWords', () => {
  it('hashes words as hashString hashes them joined by single spaces (empty words and non-ASCII included)', () => {
    const word = fc.oneof(fc.constantFrom('', ' ', 'kv', 'option', '·', 'é', '|', 'click prev'), fc.string({ maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 4 }));
    fc.assert(
      fc.property(fc.array(word, { maxLength: 6 }), (words) => {
        expect(hashWords(words)).toBe(hashString(words.join(' ')));
      }),
      { numRuns: 2000, seed: 5 },
    );
  });
});
