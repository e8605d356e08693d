/**
 * Retrieval over a replay store: the experience model's "a few similar real transitions". The
 * buffer wraps a store and keeps an in-memory vector index beside it; writes go through `add` so the
 * index grows with the store (an add never rebuilds), and `nearest` answers top-k by cosine.
 */
import type { Observation, Transition } from '../core/types.ts';
import { EMBEDDING_DIM, embedStateAction } from './embed.ts';
import type { ReplayStore, StoredTransition, TransitionFilter } from './store.ts';
import { VectorIndex, type SearchFilter } from './vector-index.ts';

export interface RetrievalQuery {
  instruction: string;
  state: Observation;
  action: string;
}

export type RetrievalFilter = SearchFilter;

function episodeKey(t: Transition): string | undefined {
  return t.episodeId;
}

/** Vectors are computed where missing and stored with their transitions, so a reload need not redo them. */
function withVector(t: Transition): Transition & { vector: Float32Array } {
  const existing = (t as { vector?: unknown }).vector;
  if (existing instanceof Float32Array && existing.length === EMBEDDING_DIM) return t as Transition & { vector: Float32Array };
  return { ...t, vector: embedStateAction(t.instruction, t.state, t.action) };
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
      for (const t of page.items) {
        const { vector } = withVector(t);
        const episode = episodeKey(t);
        index.add(t.id, vector, { env: t.env, source: t.source, ...(episode !== undefined ? { episode } : {}) });
      }
      options.onProgress?.(index.count);
      if (page.next === null) break;
      after = page.next;
    }
    return new ReplayBuffer(store, index);
  }

  /** Store a batch (with its vectors) and index it; returns the new ids. */
  async add(transitions: readonly Transition[]): Promise<number[]> {
    const embedded = transitions.map(withVector);
    const ids = await this.store.add(embedded);
    embedded.forEach((t, i) => {
      const episode = episodeKey(t);
      this.index.add(ids[i] as number, t.vector, { env: t.env, source: t.source, ...(episode !== undefined ? { episode } : {}) });
    });
    return ids;
  }

  /** The k stored transitions most similar to each query, best first. */
  async nearest(queries: readonly RetrievalQuery[], k: number, filter: RetrievalFilter = {}): Promise<StoredTransition[][]> {
    const vectors = queries.map((q) => embedStateAction(q.instruction, q.state, q.action));
    const hits = this.index.searchMany(vectors, k, filter);
    return Promise.all(hits.map(async (list) => (await Promise.all(list.map((h) => this.store.get(h.id)))).filter((t): t is StoredTransition => t !== undefined)));
  }
}
