/**
 * Memos of pure functions: the neural model asks the same questions of the same lines, texts and
 * examples many times per prediction and across predictions.
 */
import { BoundedMap } from '../../core/bounded-map.ts';

/**
 * A bounded memo of a pure function of one key (a string, or an object such as a retrieved
 * transition, which stays the same object while the buffer holds it). The model asks the fields and
 * words of the same lines many times per prediction (every candidate against every example) and
 * across predictions (the examples recur); splitting them again was a fifth of a prediction's
 * time. Results are shared: they are read-only. Full, it forgets its oldest entry (a Map keeps
 * insertion order): emptying it whole, as it did, made a working set just over the bound (a
 * 5,000-transition buffer's examples against 4,096 entries) miss again after every emptying.
 */
export function memo<K, T>(fn: (key: K) => T, max = 1 << 16): (key: K) => T {
  // Full, it forgets its oldest entry by name (core/bounded-map.ts says why not the Map's first key).
  const cache = new BoundedMap<K, T>(max);
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = fn(key);
      cache.set(key, value);
    }
    return value;
  };
}

/**
 * A memo of a pure function of an object that holds its entries only while the object lives (an
 * input's history or its list of retrieved examples, a state's lines). Results are read-only.
 */
export function memoWeak<K extends object, T>(fn: (key: K) => T): (key: K) => T {
  const cache = new WeakMap<K, T>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = fn(key);
      cache.set(key, value);
    }
    return value;
  };
}
