/**
 * Exact top-k cosine search over every stored vector. Vectors live in fixed-size blocks of one
 * Float32Array each, so an add only writes into the last block (nothing is rebuilt or copied), and a
 * query is a blocked matrix product: each block is streamed once for a whole batch of queries while
 * it is hot in cache. Filters are columns of small codes checked before the dot product is paid for.
 *
 * Exact rather than approximate (HNSW, IVF) on purpose: at the sizes a browser holds (≤ 1M) a scan
 * meets the latency target, costs no build time, and never misses the neighbour that grounds a
 * prediction.
 */
import type { TransitionSource } from './store.ts';

export const BLOCK_ROWS = 8192;

export interface VectorMeta {
  env: string;
  source: TransitionSource;
  /** The episode the transition belongs to (`runId/episodeId`), so a query can skip its own. */
  episode?: string;
}

export interface SearchFilter {
  env?: string;
  source?: TransitionSource;
  /** Skip transitions of this episode (the one the query comes from). */
  excludeEpisode?: string;
}

export interface Neighbour {
  id: number;
  score: number;
}

/** Small integer codes for repeated strings (envs, episodes), so rows store a number, not a string. */
class Codes {
  private readonly byName = new Map<string, number>();
  code(name: string): number {
    let c = this.byName.get(name);
    if (c === undefined) {
      c = this.byName.size + 1;
      this.byName.set(name, c);
    }
    return c;
  }
  find(name: string): number {
    return this.byName.get(name) ?? -1;
  }
}

const SOURCE_CODE: Record<TransitionSource, number> = { real: 1, synthetic: 2 };

export class VectorIndex {
  private readonly blocks: Float32Array[] = [];
  private ids = new Float64Array(BLOCK_ROWS);
  private envs = new Uint16Array(BLOCK_ROWS);
  private sources = new Uint8Array(BLOCK_ROWS);
  private episodes = new Uint32Array(BLOCK_ROWS);
  private readonly envCodes = new Codes();
  private readonly episodeCodes = new Codes();
  private size = 0;

  constructor(readonly dim: number) {}

  get count(): number {
    return this.size;
  }

  add(id: number, vector: Float32Array, meta: VectorMeta): void {
    if (vector.length !== this.dim) throw new RangeError(`vector of length ${vector.length}, the index holds ${this.dim}`);
    const row = this.size % BLOCK_ROWS;
    if (row === 0) this.blocks.push(new Float32Array(BLOCK_ROWS * this.dim));
    (this.blocks[this.blocks.length - 1] as Float32Array).set(vector, row * this.dim);
    if (this.size === this.ids.length) this.growColumns();
    this.ids[this.size] = id;
    this.envs[this.size] = this.envCodes.code(meta.env);
    this.sources[this.size] = SOURCE_CODE[meta.source];
    this.episodes[this.size] = meta.episode === undefined ? 0 : this.episodeCodes.code(meta.episode);
    this.size++;
  }

  private growColumns(): void {
    const grow = <T extends Float64Array | Uint16Array | Uint8Array | Uint32Array>(a: T, make: (n: number) => T): T => {
      const b = make(a.length * 2);
      b.set(a);
      return b;
    };
    this.ids = grow(this.ids, (n) => new Float64Array(n));
    this.envs = grow(this.envs, (n) => new Uint16Array(n));
    this.sources = grow(this.sources, (n) => new Uint8Array(n));
    this.episodes = grow(this.episodes, (n) => new Uint32Array(n));
  }

  search(query: Float32Array, k: number, filter: SearchFilter = {}): Neighbour[] {
    return this.searchMany([query], k, filter)[0] as Neighbour[];
  }

  /** Top-k for each query; one pass over the stored vectors for the whole batch. */
  searchMany(queries: readonly Float32Array[], k: number, filter: SearchFilter = {}): Neighbour[][] {
    const D = this.dim;
    for (const q of queries) if (q.length !== D) throw new RangeError(`query of length ${q.length}, the index holds ${D}`);
    const Q = queries.length;
    const env = filter.env === undefined ? 0 : this.envCodes.find(filter.env);
    const source = filter.source === undefined ? 0 : SOURCE_CODE[filter.source];
    const skip = filter.excludeEpisode === undefined ? 0 : this.episodeCodes.find(filter.excludeEpisode);
    if (k <= 0 || env === -1) return queries.map(() => []);
    // Per query: the k best so far, scores descending (insertion into a short sorted list beats a heap at k ≤ 32).
    const bestScores = queries.map(() => new Float64Array(k).fill(-Infinity));
    const bestRows = queries.map(() => new Int32Array(k).fill(-1));

    for (let b = 0; b < this.blocks.length; b++) {
      const block = this.blocks[b] as Float32Array;
      const first = b * BLOCK_ROWS;
      const rows = Math.min(BLOCK_ROWS, this.size - first);
      for (let r = 0; r < rows; r++) {
        const row = first + r;
        if ((env !== 0 && this.envs[row] !== env) || (source !== 0 && this.sources[row] !== source) || (skip > 0 && this.episodes[row] === skip)) continue;
        const base = r * D;
        for (let qi = 0; qi < Q; qi++) {
          const q = queries[qi] as Float32Array;
          // Four independent accumulators let the CPU overlap the multiply-adds.
          let s0 = 0;
          let s1 = 0;
          let s2 = 0;
          let s3 = 0;
          let d = 0;
          for (; d + 3 < D; d += 4) {
            s0 += (block[base + d] as number) * (q[d] as number);
            s1 += (block[base + d + 1] as number) * (q[d + 1] as number);
            s2 += (block[base + d + 2] as number) * (q[d + 2] as number);
            s3 += (block[base + d + 3] as number) * (q[d + 3] as number);
          }
          for (; d < D; d++) s0 += (block[base + d] as number) * (q[d] as number);
          const score = s0 + s1 + s2 + s3;
          const scores = bestScores[qi] as Float64Array;
          if (score <= (scores[k - 1] as number)) continue;
          const rowsOf = bestRows[qi] as Int32Array;
          let j = k - 1;
          while (j > 0 && (scores[j - 1] as number) < score) {
            scores[j] = scores[j - 1] as number;
            rowsOf[j] = rowsOf[j - 1] as number;
            j--;
          }
          scores[j] = score;
          rowsOf[j] = row;
        }
      }
    }
    return bestRows.map((rowsOf, qi) => {
      const out: Neighbour[] = [];
      for (let j = 0; j < k; j++) {
        const row = rowsOf[j] as number;
        if (row < 0) break;
        out.push({ id: this.ids[row] as number, score: (bestScores[qi] as Float64Array)[j] as number });
      }
      return out;
    });
  }

  /** Bytes of vector data one query scans (for the bench's effective GB/s). */
  get bytesPerQuery(): number {
    return this.size * this.dim * 4;
  }
}
