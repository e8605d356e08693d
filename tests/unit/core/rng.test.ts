import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/rng.ts';

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
});
