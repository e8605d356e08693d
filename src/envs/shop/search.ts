/**
 * The store's search engine: BM25 ranking (MiniSearch's BM25+) over title, attributes and
 * description, top 50, as WebShop's search engine returns its top 50 for a query.
 */
import MiniSearch from 'minisearch';
import type { Catalog } from './catalog.ts';

export const MAX_RESULTS = 50;

interface IndexedProduct {
  id: string;
  title: string;
  attributes: string;
  description: string;
}

export class ProductSearch {
  private readonly index: MiniSearch<IndexedProduct>;
  /** Repeated queries (the oracle, random agents, a person going back) are common within a run. */
  private readonly cache = new Map<string, string[]>();
  private static readonly CACHE_LIMIT = 2048;

  constructor(catalog: Catalog) {
    this.index = new MiniSearch<IndexedProduct>({
      fields: ['title', 'attributes', 'description'],
      storeFields: [],
      searchOptions: { boost: { title: 2 }, combineWith: 'OR', prefix: false, fuzzy: false },
    });
    this.index.addAll(
      catalog.products.map((p) => ({ id: p.id, title: p.title, attributes: p.attributes.join(', '), description: p.description })),
    );
  }

  /** Product ids, best first; ties broken by id so the order is the same everywhere. */
  search(query: string, limit = MAX_RESULTS): string[] {
    const key = query.toLowerCase().trim();
    const cached = this.cache.get(key);
    if (cached) return cached.slice(0, limit);
    const hits = this.index.search(key);
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const ids = hits.slice(0, MAX_RESULTS).map((h) => String(h.id));
    if (this.cache.size >= ProductSearch.CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, ids);
    return ids.slice(0, limit);
  }
}
