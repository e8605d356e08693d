/**
 * Retrieval over a replay store: the experience model's "a few similar real transitions". The
 * buffer wraps a store and keeps an in-memory vector index beside it; writes go through `add` so the
 * index grows with the store (an add never rebuilds), and `nearest` answers top-k by cosine.
 */
import { BoundedMap } from '../core/bounded-map.ts';
import type { Observation, Transition } from '../core/types.ts';
import { EMBEDDING_DIM, EMBEDDING_VERSION, embedStateAction } from './embed.ts';
import type { NewTransition, ReplayStore, StoredTransition, TransitionFilter } from './store.ts';
import { VectorIndex, type SearchFilter } from './vector-index.ts';

/** Real transitions retrieved per prediction where a caller names none: the CLI's `--k`, the Experience view's and the app's dream runs. */
export const DEFAULT_K = 3;
/** The most examples a prediction may retrieve: prompts and the neural model's candidates grow with k. */
export const MAX_K = 16;

export interface RetrievalQuery {
  instruction: string;
  state: Observation;
  action: string;
}

export type RetrievalFilter = SearchFilter;

function indexTransition(index: VectorIndex, id: number, t: Transition, vector: Float32Array): void {
  index.add(id, vector, { env: t.env, source: t.source, ...(t.episodeId !== undefined ? { episode: t.episodeId } : {}) });
}

/**
 * A transition's vector: the stored one if this embedding made it, else computed (and stored with a
 * new transition, so a reload need not redo it; one stored by an older embedding is computed again
 * at every open, since a store's transitions are never rewritten).
 */
function vectorOf(t: NewTransition): Float32Array {
  if (t.vector instanceof Float32Array && t.vector.length === EMBEDDING_DIM && t.vectorVersion === EMBEDDING_VERSION) return t.vector;
  return embedStateAction(t.instruction, t.state, t.action);
}

export class ReplayBuffer {
  private constructor(
    readonly store: ReplayStore,
    readonly index: VectorIndex,
  ) {}

  /** Wrap a store, indexing what it already holds (one cursor walk, `pageSize` at a time). */
  static async open(store: ReplayStore, options: { filter?: TransitionFilter; pageSize?: number; onProgress?: (indexed: number) => void } = {}): Promise<ReplayBuffer> {
    const index = new VectorIndex(EMBEDDING_DIM);
    let after: number | undefined;
    for (;;) {
      const page = await store.page({ ...(options.filter ? { filter: options.filter } : {}), ...(after !== undefined ? { after } : {}), limit: options.pageSize ?? 2000 });
      for (const t of page.items) indexTransition(index, t.id, t, vectorOf(t));
      options.onProgress?.(index.count);
      if (page.next === null) break;
      after = page.next;
    }
    return new ReplayBuffer(store, index);
  }

  /** Store a batch (with its vectors) and index it; returns the new ids. */
  async add(transitions: readonly NewTransition[]): Promise<number[]> {
    const embedded = transitions.map((t) => ({ ...t, vector: vectorOf(t), vectorVersion: EMBEDDING_VERSION }));
    const ids = await this.store.add(embedded);
    embedded.forEach((t, i) => indexTransition(this.index, ids[i] as number, t, t.vector));
    return ids;
  }

  /**
   * The k stored transitions most similar to each query, best first. A batch reads the ones it has
   * not read before in one request to the store, and keeps the last RETRIEVED_KEPT it read: a dream
   * asks for neighbours at every step, mostly the same few thousand real transitions, and in the
   * browser each read was its own IndexedDB transaction and deserialisation (a tenth of a dream step).
   * Each id is one object for as long as it is kept, as the neural model's memos expect (from
   * IndexedDB every read was a new copy). A stored transition never changes; one deleted after it
   * was read may still be returned.
   */
  async nearest(queries: readonly RetrievalQuery[], k: number, filter: RetrievalFilter = {}): Promise<StoredTransition[][]> {
    const vectors = queries.map((q) => embedStateAction(q.instruction, q.state, q.action));
    const hits = this.index.searchMany(vectors, k, filter);
    const missing = [...new Set(hits.flatMap((list) => list.map((h) => h.id)).filter((id) => !this.retrieved.has(id)))];
    const read = await this.store.getMany(missing);
    missing.forEach((id, i) => this.retrieved.set(id, read[i]));
    return hits.map((list) => list.map((h) => this.retrieved.get(h.id)).filter((t): t is StoredTransition => t !== undefined));
  }

  /** What `nearest` read, by id: one object per id while it is kept, as the neural model's memos expect. */
  private readonly retrieved = new BoundedMap<number, StoredTransition | undefined>(RETRIEVED_KEPT);
}

/** Transitions a buffer keeps after reading them for retrieval (about 20 MB of shop transitions at most). */
const RETRIEVED_KEPT = 8192;
