/**
 * The SIMD kernel under retrieval: its float32 scores agree with a float64 scan to rounding, and the
 * index built on it returns exactly what a float64 brute-force scan returns (ids, order, scores bit
 * for bit), with ties, duplicates, filters, batches and vectors that are not unit length.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/rng.ts';
import { createDotKernel } from '../../../src/replay/dot-kernel.ts';
import { BLOCK_ROWS, VectorIndex, type SearchFilter } from '../../../src/replay/vector-index.ts';

const DIM = 128;

function vector(rng: Rng, scale = 1): Float32Array {
  const v = Float32Array.from({ length: DIM }, () => rng.next() - 0.5);
  const norm = Math.hypot(...v);
  return v.map((x) => (scale * x) / norm);
}

/** The plain scan the index replaced: float64 sums of float32 values, four accumulators, earlier row wins a tie. */
function bruteForce(rows: readonly Float32Array[], keep: (i: number) => boolean, query: Float32Array, k: number): { i: number; s: number }[] {
  const out: { i: number; s: number }[] = [];
  rows.forEach((v, i) => {
    if (!keep(i)) return;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let d = 0; d < DIM; d += 4) {
      s0 += (v[d] as number) * (query[d] as number);
      s1 += (v[d + 1] as number) * (query[d + 1] as number);
      s2 += (v[d + 2] as number) * (query[d + 2] as number);
      s3 += (v[d + 3] as number) * (query[d + 3] as number);
    }
    out.push({ i, s: s0 + s1 + s2 + s3 });
  });
  // A stable sort keeps the earlier row first among equal scores.
  return out.sort((a, b) => b.s - a.s).slice(0, k);
}

describe('the dot-product kernel', () => {
  it('is WebAssembly SIMD under Node, and scores like a float64 scan to float32 rounding', () => {
    const rng = new Rng('kernel');
    for (const prefer of ['auto', 'js'] as const) {
      const kernel = createDotKernel(prefer);
      expect(kernel.kind).toBe(prefer === 'auto' ? 'wasm-simd' : 'js');
      const rows = 37;
      const nq = 3;
      kernel.reserve((rows + nq + nq * rows) * DIM * 4);
      const memory = kernel.floats();
      const vectors = Array.from({ length: rows + nq }, () => vector(rng));
      vectors.forEach((v, i) => memory.set(v, i * DIM));
      const out = (rows + nq) * DIM;
      kernel.scores(rows * DIM * 4, nq, DIM, 0, rows, out * 4);
      for (let q = 0; q < nq; q++) {
        for (let r = 0; r < rows; r++) {
          const exact = (vectors[r] as Float32Array).reduce((a, x, d) => a + x * ((vectors[rows + q] as Float32Array)[d] as number), 0);
          expect(Math.abs((kernel.floats()[out + q * rows + r] as number) - exact)).toBeLessThan(1e-6);
        }
      }
    }
  });
});

describe('the index on the kernel', () => {
  it('returns bit for bit the float64 scan, across blocks, with duplicates, ties, filters and batches', () => {
    const rng = new Rng('exact');
    const index = new VectorIndex(DIM);
    expect(index.kernelKind).toBe('wasm-simd');
    const rows: Float32Array[] = [];
    const distinct = Array.from({ length: 400 }, () => vector(rng));
    for (let i = 0; i < 2 * BLOCK_ROWS + 123; i++) {
      // Many exact duplicates (a seeded buffer repeats states), some near-duplicates, the rest fresh.
      const pick = rng.next();
      const v = pick < 0.5 ? (distinct[rng.int(distinct.length)] as Float32Array) : pick < 0.6 ? (distinct[rng.int(20)] as Float32Array).map((x, d) => (d === 5 ? x + 1e-7 : x)) : vector(rng);
      rows.push(v);
      index.add(10_000 + i, v, { env: i % 3 === 0 ? 'home' : 'shop', source: i % 5 === 0 ? 'synthetic' : 'real', episode: `e${i % 11}` });
    }
    const filters: [SearchFilter, (i: number) => boolean][] = [
      [{}, () => true],
      [{ env: 'shop', source: 'real' }, (i) => i % 3 !== 0 && i % 5 !== 0],
      [{ env: 'home', excludeEpisode: 'e4' }, (i) => i % 3 === 0 && i % 11 !== 4],
    ];
    const queries = [...Array.from({ length: 6 }, () => distinct[rng.int(distinct.length)] as Float32Array), ...Array.from({ length: 6 }, () => vector(rng))];
    for (const [filter, keep] of filters) {
      for (const k of [1, 4, 16]) {
        const got = index.searchMany(queries, k, filter);
        queries.forEach((q, qi) => {
          const want = bruteForce(rows, keep, q, k);
          expect(got[qi]?.map((n) => n.id)).toEqual(want.map(({ i }) => 10_000 + i));
          expect(got[qi]?.map((n) => n.score)).toEqual(want.map(({ s }) => s));
        });
      }
    }
  });

  it('ranks near-ties as float64 does, where float32 rounding alone would swap them', () => {
    const rng = new Rng('near-ties');
    const base = vector(rng);
    const index = new VectorIndex(DIM);
    const rows: Float32Array[] = [];
    for (let i = 0; i < 3000; i++) {
      // Copies of one vector nudged by a few float32 steps: their scores differ by about what a
      // float32 sum rounds away.
      const v = base.map((x) => x + (rng.next() < 0.1 ? (rng.next() - 0.5) * 4e-7 : 0));
      rows.push(v);
      index.add(i, v, { env: 'shop', source: 'real' });
    }
    for (let t = 0; t < 20; t++) {
      const q = base.map((x) => x + (rng.next() - 0.5) * 1e-3);
      const want = bruteForce(rows, () => true, q, 8).map(({ i, s }) => ({ id: i, score: s }));
      expect(index.search(q, 8)).toEqual(want);
    }
  });

  it('keeps exactness for vectors that are not unit length, and the JavaScript kernel agrees', () => {
    const rng = new Rng('norms');
    const simd = new VectorIndex(DIM);
    const js = new VectorIndex(DIM, { kernel: 'js' });
    expect(js.kernelKind).toBe('js');
    const rows: Float32Array[] = [];
    for (let i = 0; i < 3000; i++) {
      const v = vector(rng, 1 + 40 * rng.next());
      rows.push(v);
      simd.add(i, v, { env: 'shop', source: 'real' });
      js.add(i, v, { env: 'shop', source: 'real' });
    }
    for (let t = 0; t < 10; t++) {
      const q = vector(rng, 25);
      const want = bruteForce(rows, () => true, q, 4).map(({ i, s }) => ({ id: i, score: s }));
      expect(simd.search(q, 4)).toEqual(want);
      expect(js.search(q, 4)).toEqual(want);
    }
  });
});
