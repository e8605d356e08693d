/**
 * Exact top-k cosine search over every stored vector. The vectors live row after row in one linear
 * memory that grows in place (an add writes one row; nothing is rebuilt or copied), and a search is
 * two passes per block of rows:
 *
 * 1. a WebAssembly SIMD kernel (dot-kernel.ts) scores the whole batch of queries against the block
 *    in float32, each block read once for the batch while it is in cache;
 * 2. the rows the filters keep whose float32 score comes within a rounding margin of the k-th best
 *    are scored again in float64, exactly as the plain scan did, and ranked (ties: the earlier row).
 *
 * So the neighbours and their scores are bit for bit those of a float64 scan: the kernel only
 * decides which rows are worth scoring exactly. Filters are columns of small codes.
 *
 * Exact rather than approximate (HNSW, IVF) on purpose: at the sizes a browser holds (≤ 1M) a scan
 * meets the latency target, costs no build time, and never misses the neighbour that grounds a
 * prediction.
 */
import type { TransitionSource } from './store.ts';
import { createDotKernel, dot64, type DotKernel } from './dot-kernel.ts';

/** Rows scored per kernel call: a block of 128-wide vectors (4 MiB) and its scores stay in cache. */
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

/**
 * Two float32 roundings of a dot product of unit vectors differ from its float64 value by at most
 * dim · 2⁻²⁴ each (about 8e-6 at 128): rows within this of the k-th best float32 score may belong
 * to the exact top-k and are scored again. Scaled by the vectors' norms when they are not unit.
 */
const ROUNDING_MARGIN_PER_DIM = 2 ** -20;

/**
 * Put `score` (and its `row`) into a best-first list of fixed length if it beats the last; a tie
 * with a listed score goes after it (the earlier row wins). Insertion into a short sorted list
 * beats a heap at k ≤ 32.
 */
function insertBest(scores: Float64Array, score: number, rows?: Int32Array, row?: number): void {
  const k = scores.length;
  if (score <= (scores[k - 1] as number)) return;
  let j = k - 1;
  while (j > 0 && (scores[j - 1] as number) < score) {
    scores[j] = scores[j - 1] as number;
    if (rows) rows[j] = rows[j - 1] as number;
    j--;
  }
  scores[j] = score;
  if (rows) rows[j] = row as number;
}

export class VectorIndex {
  private readonly kernel: DotKernel;
  private ids = new Float64Array(BLOCK_ROWS);
  private envs = new Uint16Array(BLOCK_ROWS);
  private sources = new Uint8Array(BLOCK_ROWS);
  private episodes = new Uint32Array(BLOCK_ROWS);
  private readonly envCodes = new Codes();
  private readonly episodeCodes = new Codes();
  private size = 0;
  /** The largest stored norm (for the rounding margin). */
  private maxNorm = 0;

  constructor(
    readonly dim: number,
    options: { kernel?: 'auto' | 'js' } = {},
  ) {
    // The SIMD kernel reads eight floats a turn.
    this.kernel = createDotKernel(dim % 8 === 0 ? (options.kernel ?? 'auto') : 'js');
  }

  get count(): number {
    return this.size;
  }

  /** Which kernel scores here: WebAssembly SIMD, or JavaScript where that is missing. */
  get kernelKind(): DotKernel['kind'] {
    return this.kernel.kind;
  }

  add(id: number, vector: Float32Array, meta: VectorMeta): void {
    if (vector.length !== this.dim) throw new RangeError(`vector of length ${vector.length}, the index holds ${this.dim}`);
    this.kernel.reserve((this.size + 1) * this.dim * 4);
    this.kernel.floats().set(vector, this.size * this.dim);
    const norm = dot64(vector, 0, vector, 0, this.dim);
    if (norm > this.maxNorm * this.maxNorm) this.maxNorm = Math.sqrt(norm);
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

  /** Top-k for each query; each block of stored vectors is read once for the whole batch. */
  searchMany(queries: readonly Float32Array[], k: number, filter: SearchFilter = {}): Neighbour[][] {
    const D = this.dim;
    for (const q of queries) if (q.length !== D) throw new RangeError(`query of length ${q.length}, the index holds ${D}`);
    const Q = queries.length;
    const env = filter.env === undefined ? 0 : this.envCodes.find(filter.env);
    const source = filter.source === undefined ? 0 : SOURCE_CODE[filter.source];
    const skip = filter.excludeEpisode === undefined ? 0 : this.episodeCodes.find(filter.excludeEpisode);
    if (k <= 0 || env === -1 || Q === 0) return queries.map(() => []);

    // Scratch after the stored rows: the queries (float32), then one block's scores per query.
    const queriesAt = this.size * D * 4;
    const scoresAt = queriesAt + Q * D * 4;
    this.kernel.reserve(scoresAt + Q * BLOCK_ROWS * 4);
    const memory = this.kernel.floats();
    queries.forEach((q, i) => memory.set(q, queriesAt / 4 + i * D));
    const margins = queries.map((q) => 2 * D * ROUNDING_MARGIN_PER_DIM * Math.sqrt(dot64(q, 0, q, 0, D)) * Math.max(this.maxNorm, 1e-12));

    // Per query: the k best float32 scores so far (a floor for who may be in the exact top-k), and
    // the rows within the margin of it, in row order with their float32 score, to score exactly at the end.
    const floor = queries.map(() => new Float64Array(k).fill(-Infinity));
    const candidates: number[][] = queries.map(() => []);
    const kept = new Uint8Array(BLOCK_ROWS);
    for (let first = 0; first < this.size; first += BLOCK_ROWS) {
      const rows = Math.min(BLOCK_ROWS, this.size - first);
      let any = false;
      for (let r = 0; r < rows; r++) {
        const row = first + r;
        const ok = !((env !== 0 && this.envs[row] !== env) || (source !== 0 && this.sources[row] !== source) || (skip > 0 && this.episodes[row] === skip));
        kept[r] = ok ? 1 : 0;
        any ||= ok;
      }
      if (!any) continue;
      this.kernel.scores(queriesAt, Q, D, first * D * 4, rows, scoresAt);
      const scores = this.kernel.floats();
      for (let qi = 0; qi < Q; qi++) {
        const best = floor[qi] as Float64Array;
        const list = candidates[qi] as number[];
        const margin = margins[qi] as number;
        const at = scoresAt / 4 + qi * rows;
        for (let r = 0; r < rows; r++) {
          if (kept[r] === 0) continue;
          const score = scores[at + r] as number;
          if (score < (best[k - 1] as number) - margin) continue;
          list.push(first + r, score);
          insertBest(best, score);
        }
      }
    }
    return queries.map((q, qi) => this.exactTopK(q, candidates[qi] as number[], (floor[qi] as Float64Array)[k - 1] as number, margins[qi] as number, k));
  }

  /**
   * The exact top-k among `candidates` ([row, float32 score] pairs in row order): each scored in float64 as the plain scan did
   * (four accumulators), ranked best first, a tie kept by the earlier row. Rows whose float32 score
   * the final floor has left behind by more than the margin cannot be in it and are not rescored.
   */
  private exactTopK(query: Float32Array, candidates: readonly number[], floor: number, margin: number, k: number): Neighbour[] {
    const D = this.dim;
    const memory = this.kernel.floats();
    const scores = new Float64Array(k).fill(-Infinity);
    const best = new Int32Array(k).fill(-1);
    for (let c = 0; c < candidates.length; c += 2) {
      if ((candidates[c + 1] as number) < floor - margin) continue;
      const row = candidates[c] as number;
      const score = dot64(memory, row * D, query, 0, D);
      insertBest(scores, score, best, row);
    }
    const out: Neighbour[] = [];
    for (let j = 0; j < k; j++) {
      const row = best[j] as number;
      if (row < 0) break;
      out.push({ id: this.ids[row] as number, score: scores[j] as number });
    }
    return out;
  }

  /** Bytes of vector data one query scans (for the bench's effective GB/s). */
  get bytesPerQuery(): number {
    return this.size * this.dim * 4;
  }
}
