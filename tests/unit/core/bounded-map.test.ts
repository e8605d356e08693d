import { describe, expect, it } from 'vitest';
import { BoundedMap } from '../../../src/core/bounded-map.ts';

describe('a bounded map', () => {
  it('holds at most its bound and forgets the oldest key first, however many came and went', () => {
    const map = new BoundedMap<string, number>(3);
    for (const [i, key] of ['a', 'b', 'c'].entries()) map.set(key, i);
    map.set('a', 10); // a present key keeps its place
    expect(map.size).toBe(3);
    map.set('d', 3);
    expect([map.has('a'), map.has('b'), map.has('c'), map.has('d')]).toEqual([false, true, true, true]);
    for (let i = 0; i < 1000; i++) map.set(`k${i}`, i);
    expect(map.size).toBe(3);
    expect(['k997', 'k998', 'k999'].map((k) => map.get(k))).toEqual([997, 998, 999]);
    // An undefined value is a value: present, not a miss.
    map.set('gone', undefined as unknown as number);
    expect(map.has('gone')).toBe(true);
  });
});
