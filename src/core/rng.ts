/**
 * A small seeded PRNG (sfc32, seeded through splitmix32). Every random choice in the project goes
 * through `Rng` so that equal seeds give equal runs on every platform: `Math.random` is never used.
 */

export type Seed = number | string;

/** A stream's whole state: four 32-bit words (sfc32), so a run can be checkpointed and go on exactly. */
export type RngState = readonly [number, number, number, number];

const FNV_OFFSET = 0x811c9dc5;

/** The FNV-1a state after reading a text's characters. */
function fnvAppend(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h;
}

/** 32-bit hash of a string (FNV-1a), used to turn labels and string seeds into numbers. */
export function hashString(text: string): number {
  return fnvAppend(FNV_OFFSET, text) >>> 0;
}

/**
 * hashString of the words joined by single spaces, without building the joined text (a text built
 * by concatenation is flattened into a new string before its characters can be read).
 */
export function hashWords(words: readonly string[]): number {
  let h = FNV_OFFSET;
  for (let w = 0; w < words.length; w++) h = fnvAppend(w > 0 ? fnvAppend(h, ' ') : h, words[w] as string);
  return h >>> 0;
}

function splitmix32(state: number): () => number {
  let s = state >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: Seed) {
    const mix = splitmix32(typeof seed === 'number' ? seed >>> 0 ^ Math.floor(seed / 2 ** 32) : hashString(seed));
    this.a = mix();
    this.b = mix();
    this.c = mix();
    this.d = mix();
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /** The stream's state now; `Rng.fromState` of it draws exactly what this stream draws next. */
  state(): RngState {
    // Some words are kept as signed int32 between steps; every use is modulo 2^32, so unsigned is the same state.
    return [this.a >>> 0, this.b >>> 0, this.c >>> 0, this.d >>> 0];
  }

  /** A stream that goes on from a saved `state()`. */
  static fromState(state: RngState): Rng {
    if (state.length !== 4 || !state.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffffffff)) {
      throw new RangeError(`an Rng state is four unsigned 32-bit integers, got ${JSON.stringify(state)}`);
    }
    const rng = new Rng(0);
    [rng.a, rng.b, rng.c, rng.d] = state;
    return rng;
  }

  /** A new independent stream derived from this one's seed material and a label. */
  fork(label: Seed): Rng {
    return new Rng(`${this.a}:${this.b}:${this.c}:${this.d}:${String(label)}`);
  }

  nextUint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    if (!Number.isInteger(n) || n <= 0) throw new RangeError(`Rng.int needs a positive integer, got ${n}`);
    return Math.floor(this.next() * n);
  }

  /** Uniform integer in [lo, hi] inclusive. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('Rng.pick from an empty list');
    return items[this.int(items.length)] as T;
  }

  /** A new array, shuffled (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const tmp = out[i] as T;
      out[i] = out[j] as T;
      out[j] = tmp;
    }
    return out;
  }

  /** `k` distinct items in random order. */
  sample<T>(items: readonly T[], k: number): T[] {
    return this.shuffle(items).slice(0, Math.max(0, Math.min(k, items.length)));
  }
}
