/**
 * Memos of pure functions: the neural model asks the same questions of the same lines, texts and
 * examples many times per prediction and across predictions.
 */

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
  const cache = new Map<K, T>();
  // The keys in insertion order, as a ring: the oldest is forgotten by name. Asking the Map for its
  // first key instead (`keys().next()`) walks past every entry deleted since the table was last
  // rebuilt, tens of thousands once the memo is full, so each miss of a full memo cost tens of
  // microseconds, and after a fit every memo is full: most of a prediction of new transitions.
  const order: K[] = [];
  let oldest = 0;
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = fn(key);
      if (order.length < max) order.push(key);
      else {
        cache.delete(order[oldest] as K);
        order[oldest] = key;
        oldest = (oldest + 1) % max;
      }
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
