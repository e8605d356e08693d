/**
 * The replay store held in memory: for Node (the CLI, benchmarks, tests) and anywhere IndexedDB is
 * not wanted. Persistence is separate (`file-store.ts` writes it as JSONL), so this module runs on
 * any platform.
 */
import {
  foldOutcome,
  matchesFilter,
  StoreFullError,
  type EpisodeOutcome,
  type NewTransition,
  type ReplayStore,
  type RunRecord,
  type StorageEstimate,
  type StoreLimits,
  type StoredTransition,
  type TaskRecord,
  type TaskStats,
  type TransitionFilter,
  type TransitionPage,
} from './store.ts';

export interface MemoryStoreOptions {
  /** Most transitions kept; beyond it the oldest synthetic ones go first (see `add`). */
  cap?: number | null;
  /** Whether real transitions may be evicted too when synthetic ones are not enough. */
  evictReal?: boolean;
}

export interface MemoryStoreContents {
  transitions: StoredTransition[];
  tasks: TaskRecord[];
  runs: RunRecord[];
  stats: TaskStats[];
}

export class MemoryReplayStore implements ReplayStore {
  /** In id order (ids only grow), so pages are a binary search away. */
  private transitions: StoredTransition[] = [];
  private nextId = 1;
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly runRecords = new Map<string, RunRecord>();
  private readonly stats = new Map<string, TaskStats>();
  cap: number | null;
  evictReal: boolean;

  constructor(options: MemoryStoreOptions = {}, contents?: MemoryStoreContents) {
    this.cap = options.cap ?? null;
    this.evictReal = options.evictReal ?? false;
    if (contents) {
      this.transitions = [...contents.transitions].sort((a, b) => a.id - b.id);
      this.nextId = (this.transitions[this.transitions.length - 1]?.id ?? 0) + 1;
      for (const t of contents.tasks) this.tasks.set(t.id, t);
      for (const r of contents.runs) this.runRecords.set(r.id, r);
      for (const s of contents.stats) this.stats.set(s.taskId, s);
    }
  }

  async add(batch: readonly NewTransition[]): Promise<number[]> {
    const evicted = this.planEviction(batch.length);
    if (evicted.size > 0) this.transitions = this.transitions.filter((t) => !evicted.has(t.id));
    const ids: number[] = [];
    for (const t of batch) {
      const id = this.nextId++;
      this.transitions.push({ ...t, id });
      ids.push(id);
    }
    return ids;
  }

  /** Ids to evict so `incoming` more fit under the cap; throws (evicting nothing) when they cannot. */
  private planEviction(incoming: number): Set<number> {
    const evicted = new Set<number>();
    if (this.cap === null) return evicted;
    let over = this.transitions.length + incoming - this.cap;
    if (over <= 0) return evicted;
    if (incoming > this.cap) throw new StoreFullError(`a batch of ${incoming} transitions is larger than the store's cap of ${this.cap}`);
    for (const t of this.transitions) {
      if (over === 0) break;
      if (t.source === 'synthetic') {
        evicted.add(t.id);
        over--;
      }
    }
    if (over > 0 && this.evictReal) {
      for (const t of this.transitions) {
        if (over === 0) break;
        if (!evicted.has(t.id)) {
          evicted.add(t.id);
          over--;
        }
      }
    }
    if (over > 0) {
      throw new StoreFullError(
        `the replay store is full: ${this.transitions.length} transitions stored, cap ${this.cap}, and only real ones are left; ` +
          'real transitions are evicted only when you allow it (evictReal), or raise the cap',
      );
    }
    return evicted;
  }

  async get(id: number): Promise<StoredTransition | undefined> {
    const i = this.indexAfter(id - 1);
    const t = this.transitions[i];
    return t?.id === id ? t : undefined;
  }

  async getMany(ids: readonly number[]): Promise<(StoredTransition | undefined)[]> {
    return Promise.all(ids.map((id) => this.get(id)));
  }

  /** Index of the first transition with id > `after`. */
  private indexAfter(after: number): number {
    let lo = 0;
    let hi = this.transitions.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.transitions[mid] as StoredTransition).id <= after) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  async page(options: { filter?: TransitionFilter; after?: number; limit: number }): Promise<TransitionPage> {
    const items: StoredTransition[] = [];
    for (let i = this.indexAfter(options.after ?? 0); i < this.transitions.length; i++) {
      const t = this.transitions[i] as StoredTransition;
      if (!matchesFilter(t, options.filter)) continue;
      if (items.length === options.limit) return { items, next: (items[items.length - 1] as StoredTransition).id };
      items.push(t);
    }
    return { items, next: null };
  }

  async count(filter?: TransitionFilter): Promise<number> {
    if (!filter) return this.transitions.length;
    let n = 0;
    for (const t of this.transitions) if (matchesFilter(t, filter)) n++;
    return n;
  }

  async deleteRun(runId: string): Promise<number> {
    const before = this.transitions.length;
    this.transitions = this.transitions.filter((t) => t.runId !== runId);
    this.runRecords.delete(runId);
    return before - this.transitions.length;
  }

  async putTasks(tasks: readonly TaskRecord[]): Promise<void> {
    for (const t of tasks) this.tasks.set(t.id, t);
  }

  async getTask(id: string): Promise<TaskRecord | undefined> {
    return this.tasks.get(id);
  }

  async putRun(run: RunRecord): Promise<void> {
    this.runRecords.set(run.id, run);
  }

  async runs(): Promise<RunRecord[]> {
    return [...this.runRecords.values()].sort((a, b) => a.createdAt - b.createdAt);
  }

  async recordOutcomes(outcomes: readonly EpisodeOutcome[]): Promise<void> {
    const now = Date.now();
    for (const o of outcomes) this.stats.set(o.taskId, foldOutcome(this.stats.get(o.taskId), o, now));
  }

  async taskStats(env?: string): Promise<TaskStats[]> {
    return [...this.stats.values()].filter((s) => env === undefined || s.env === env);
  }

  async estimate(): Promise<StorageEstimate> {
    return { usage: null, quota: null, persisted: null, cap: this.cap };
  }

  setLimits(limits: StoreLimits): void {
    this.cap = limits.cap;
    this.evictReal = limits.evictReal;
  }

  async close(): Promise<void> {}

  /** Everything held, for persistence. The arrays are the store's own: do not change them. */
  contents(): MemoryStoreContents {
    return { transitions: this.transitions, tasks: [...this.tasks.values()], runs: [...this.runRecords.values()], stats: [...this.stats.values()] };
  }
}
