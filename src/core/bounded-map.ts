/**
 * A map that holds at most `max` entries and, full, forgets its oldest by name. The keys are kept
 * in insertion order as a ring: asking the Map for its first key instead (`keys().next()`) walks
 * past every entry deleted since the table was last rebuilt, tens of thousands once it is full, so
 * each miss of a full map cost tens of microseconds (the neural model's memos, after a fit).
 * A key is set once; setting a present key again replaces its value and keeps its place.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();
  private readonly order: K[] = [];
  private oldest = 0;

  constructor(private readonly max: number) {}

  has(key: K): boolean {
    return this.entries.has(key);
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  set(key: K, value: V): void {
    if (!this.entries.has(key)) {
      if (this.order.length < this.max) this.order.push(key);
      else {
        this.entries.delete(this.order[this.oldest] as K);
        this.order[this.oldest] = key;
        this.oldest = (this.oldest + 1) % this.max;
      }
    }
    this.entries.set(key, value);
  }

  get size(): number {
    return this.entries.size;
  }
}
