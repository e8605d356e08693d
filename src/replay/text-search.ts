/**
 * Full-text search over a replay store (the Buffer view's search box), with MiniSearch.
 */
import MiniSearch from 'minisearch';
import type { Transition } from '../core/types.ts';
import type { ReplayStore, TransitionFilter, TransitionSource } from './store.ts';

/** What the search index holds per transition: the texts searched, and the fields filtered on. */
interface SearchDoc {
  id: number;
  instruction: string;
  state: string;
  action: string;
  next: string;
  env: string;
  source: TransitionSource;
  runId: string;
  taskId: string;
}

const FILTER_FIELDS = ['env', 'source', 'runId', 'taskId'] as const;

/**
 * Text search over the whole store with MiniSearch, built on the first query (one cursor walk) and
 * then kept up to date by the service's own writes. Other writers (the trainer worker, another
 * tab, eviction, a deleted run) change the store behind its back; a store count that no longer
 * matches the index's triggers a rebuild on the next query.
 */
export class TransitionSearch {
  private index: MiniSearch<SearchDoc> | null = null;
  private building: Promise<MiniSearch<SearchDoc>> | null = null;

  constructor(private readonly store: ReplayStore) {}

  /** Matching ids, best first; every word must match (as a prefix, or nearly for long words). */
  async search(text: string, filter: TransitionFilter = {}): Promise<number[]> {
    if (text.trim() === '') return [];
    const index = await this.ready();
    const wanted = FILTER_FIELDS.filter((field) => filter[field] !== undefined);
    return index
      .search(text, { filter: (hit) => wanted.every((field) => hit[field] === filter[field]) })
      .map((hit) => hit.id as number);
  }

  /** Fold in transitions just stored. During a build they are skipped: the walk reads them itself. */
  added(transitions: readonly (Transition & { id: number })[]): void {
    const index = this.index;
    if (!index || this.building) return;
    index.addAll(transitions.filter((t) => !index.has(t.id)).map(searchDoc));
  }

  private async ready(): Promise<MiniSearch<SearchDoc>> {
    const stored = await this.store.count();
    if (this.index && !this.building && this.index.documentCount === stored) return this.index;
    this.building ??= this.build().finally(() => {
      this.building = null;
    });
    return this.building;
  }

  private async build(): Promise<MiniSearch<SearchDoc>> {
    const index = new MiniSearch<SearchDoc>({
      fields: ['instruction', 'state', 'action', 'next'],
      storeFields: [...FILTER_FIELDS],
      searchOptions: {
        boost: { instruction: 2, action: 2 },
        prefix: true,
        fuzzy: (term) => (term.length >= 6 ? 0.2 : false),
        combineWith: 'AND',
      },
    });
    for (let after: number | undefined; ; ) {
      const page = await this.store.page({ limit: 2000, ...(after !== undefined ? { after } : {}) });
      index.addAll(page.items.filter((t) => !index.has(t.id)).map(searchDoc));
      if (page.next === null) break;
      after = page.next;
    }
    this.index = index;
    return index;
  }
}

function searchDoc(t: Transition & { id: number }): SearchDoc {
  return { id: t.id, instruction: t.instruction, state: t.state.text, action: t.action, next: t.next.text, env: t.env, source: t.source, runId: t.runId, taskId: t.taskId };
}
