/**
 * The browser's replay store: IndexedDB through `idb`. Every write is one transaction, so a batch is
 * either wholly committed or absent, whatever happens to the page mid-write (reload, tab closed,
 * worker terminated).
 */
import { deleteDB, openDB, type DBSchema, type IDBPDatabase, type IDBPObjectStore, type IDBPTransaction, type StoreNames } from 'idb';
import {
  StoreFullError,
  foldOutcome,
  matchesFilter,
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
  type TransitionSource,
} from './store.ts';

export const IDB_SCHEMA_VERSION = 2;
export const DEFAULT_DB_NAME = 'dreamgym-replay';

export interface ReplayDB extends DBSchema {
  transitions: {
    key: number;
    value: StoredTransition;
    indexes: {
      env: string;
      env_source: [string, TransitionSource];
      runId: string;
      taskId: string;
      /** Per source in id order: eviction takes the oldest synthetic first. */
      source_id: [TransitionSource, number];
    };
  };
  tasks: { key: string; value: TaskRecord };
  runs: { key: string; value: RunRecord };
  taskStats: { key: string; value: TaskStats; indexes: { env: string } };
}

type Db = IDBPDatabase<ReplayDB>;
type TransitionStore<Mode extends IDBTransactionMode = 'readonly'> = IDBPObjectStore<ReplayDB, ArrayLike<StoreNames<ReplayDB>>, 'transitions', Mode>;
type IndexName = keyof ReplayDB['transitions']['indexes'];
type AnyTx = Pick<IDBTransaction, 'abort' | 'error'> & { done: Promise<void> };

/** What version 1 stored: transitions before `source` and `createdAt` existed. */
type V1Transition = Omit<StoredTransition, 'source' | 'createdAt'> & Partial<Pick<StoredTransition, 'source' | 'createdAt'>>;

/**
 * Bring a database from `oldVersion` up to `newVersion`, one step per version, so a user on any
 * older schema lands on the current one. Exported so tests can build an old version for real.
 */
export function upgradeTo(
  db: Db,
  oldVersion: number,
  newVersion: number | null,
  tx: IDBPTransaction<ReplayDB, StoreNames<ReplayDB>[], 'versionchange'>,
): void {
  const target = newVersion ?? IDB_SCHEMA_VERSION;
  if (oldVersion < 1) {
    db.createObjectStore('transitions', { keyPath: 'id', autoIncrement: true }).createIndex('env', 'env');
  }
  if (oldVersion < 2 && target >= 2) {
    const transitions = tx.objectStore('transitions');
    transitions.createIndex('env_source', ['env', 'source']);
    transitions.createIndex('runId', 'runId');
    transitions.createIndex('taskId', 'taskId');
    transitions.createIndex('source_id', ['source', 'id']);
    db.createObjectStore('tasks', { keyPath: 'id' });
    db.createObjectStore('runs', { keyPath: 'id' });
    db.createObjectStore('taskStats', { keyPath: 'taskId' }).createIndex('env', 'env');
    // Inside the versionchange transaction: if the migration fails the whole upgrade rolls back and
    // the user keeps a working version-1 database rather than a half-migrated one.
    migrateV1Records(transitions).catch(() => abortQuietly(tx));
  }
}

async function migrateV1Records(store: TransitionStore<'versionchange'>): Promise<void> {
  for (let cursor = await store.openCursor(); cursor; cursor = await cursor.continue()) {
    const old = cursor.value as V1Transition;
    // Records without `source` would be invisible to the new compound indexes (and to eviction).
    if (old.source === undefined || old.createdAt === undefined) {
      await cursor.update({ ...old, source: old.source ?? 'real', createdAt: old.createdAt ?? 0 });
    }
  }
}

export class IdbReplayStore implements ReplayStore {
  private constructor(
    private readonly db: Db,
    /** Most transitions kept (null: no limit); applied at the next `add`. */
    public cap: number | null,
    /** Real transitions are expensive to collect, so they are evicted only when the user says so. */
    public evictReal: boolean,
  ) {}

  static async open(options: { name?: string; cap?: number | null; evictReal?: boolean } = {}): Promise<IdbReplayStore> {
    const db: Db = await openDB<ReplayDB>(options.name ?? DEFAULT_DB_NAME, IDB_SCHEMA_VERSION, {
      upgrade: upgradeTo,
      // Another tab wants a newer schema: let it upgrade instead of blocking it forever.
      blocking: () => db.close(),
    });
    return new IdbReplayStore(db, options.cap ?? null, options.evictReal ?? false);
  }

  setLimits(limits: StoreLimits): void {
    this.cap = limits.cap;
    this.evictReal = limits.evictReal;
  }

  /** Delete a replay database (closed connections only; open ones block until they close). */
  static destroy(name: string = DEFAULT_DB_NAME): Promise<void> {
    return deleteDB(name);
  }

  add(transitions: readonly NewTransition[]): Promise<number[]> {
    const tx = this.db.transaction('transitions', 'readwrite', { durability: 'relaxed' });
    return commit(tx, async () => {
      await this.makeRoom(tx.store, transitions.length);
      // Ids always come from the store, so an imported transition cannot overwrite another.
      return requestAll(transitions, ({ id: _id, ...t }) => tx.store.add(t as StoredTransition));
    });
  }

  /** Evict (oldest synthetic first, then real if allowed) so `incoming` more fit under the cap. */
  private async makeRoom(store: TransitionStore<'readwrite'>, incoming: number): Promise<void> {
    if (this.cap === null) return;
    const stored = await store.count();
    let excess = stored + incoming - this.cap;
    for (const source of this.evictReal ? (['synthetic', 'real'] as const) : (['synthetic'] as const)) {
      if (excess <= 0) return;
      const oldest = await store.index('source_id').getAllKeys(sourceRange(source), excess);
      await requestAll(oldest, (id) => store.delete(id));
      excess -= oldest.length;
    }
    if (excess <= 0) return;
    throw new StoreFullError(
      incoming > this.cap
        ? `a batch of ${incoming} transitions is larger than the store's cap of ${this.cap}.`
        : `the replay store holds ${stored} transitions and its cap is ${this.cap}; ${incoming} more do not fit. ` +
            'Real transitions are evicted only when you allow it (set evictReal), so raise the cap, delete a run, or allow evicting real transitions.',
    );
  }

  get(id: number): Promise<StoredTransition | undefined> {
    return this.db.get('transitions', id);
  }

  getMany(ids: readonly number[]): Promise<(StoredTransition | undefined)[]> {
    if (ids.length === 0) return Promise.resolve([]);
    const store = this.db.transaction('transitions').store;
    return requestAll(ids, (id) => store.get(id));
  }

  async page({ filter, after, limit }: { filter?: TransitionFilter; after?: number; limit: number }): Promise<TransitionPage> {
    const items: StoredTransition[] = [];
    // One extra item tells whether another page exists, so `next` is null exactly at the end.
    for await (const t of walk(this.db.transaction('transitions').store, filter, after)) {
      if (items.length === limit) return { items, next: items[limit - 1]?.id ?? null };
      items.push(t);
    }
    return { items, next: null };
  }

  async count(filter?: TransitionFilter): Promise<number> {
    const store = this.db.transaction('transitions').store;
    const plan = planFor(filter);
    if (!plan) return store.count();
    if (plan.exact) return store.index(plan.index).count(plan.range);
    let n = 0;
    for await (const _ of walk(store, filter)) n++;
    return n;
  }

  deleteRun(runId: string): Promise<number> {
    const tx = this.db.transaction(['transitions', 'runs'], 'readwrite');
    return commit(tx, async () => {
      const transitions = tx.objectStore('transitions');
      const ids = await transitions.index('runId').getAllKeys(IDBKeyRange.only(runId));
      await requestAll(ids, (id) => transitions.delete(id));
      await tx.objectStore('runs').delete(runId);
      return ids.length;
    });
  }

  putTasks(tasks: readonly TaskRecord[]): Promise<void> {
    const tx = this.db.transaction('tasks', 'readwrite');
    return commit(tx, async () => {
      await requestAll(tasks, (t) => tx.store.put(t));
    });
  }

  getTask(id: string): Promise<TaskRecord | undefined> {
    return this.db.get('tasks', id);
  }

  putRun(run: RunRecord): Promise<void> {
    const tx = this.db.transaction('runs', 'readwrite');
    return commit(tx, async () => {
      await tx.store.put(run);
    });
  }

  async runs(): Promise<RunRecord[]> {
    return (await this.db.getAll('runs')).sort((a, b) => a.createdAt - b.createdAt);
  }

  recordOutcomes(outcomes: readonly EpisodeOutcome[]): Promise<void> {
    const tx = this.db.transaction('taskStats', 'readwrite');
    return commit(tx, async () => {
      // Fold in memory first: several outcomes for one task must build on each other, not race.
      const folded = new Map<string, TaskStats>();
      const now = Date.now();
      for (const outcome of outcomes) {
        const current = folded.get(outcome.taskId) ?? (await tx.store.get(outcome.taskId));
        folded.set(outcome.taskId, foldOutcome(current, outcome, now));
      }
      await requestAll([...folded.values()], (s) => tx.store.put(s));
    });
  }

  taskStats(env?: string): Promise<TaskStats[]> {
    return env === undefined ? this.db.getAll('taskStats') : this.db.getAllFromIndex('taskStats', 'env', env);
  }

  async estimate(): Promise<StorageEstimate> {
    const storage = globalThis.navigator?.storage;
    const estimate = storage?.estimate ? await storage.estimate() : undefined;
    return {
      usage: estimate?.usage ?? null,
      quota: estimate?.quota ?? null,
      persisted: storage?.persisted ? await storage.persisted() : null,
      cap: this.cap,
    };
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

/** Ask the browser not to evict this site's storage under pressure; false where it refuses or cannot. */
export async function requestPersistence(): Promise<boolean> {
  const storage = globalThis.navigator?.storage;
  return storage?.persist ? storage.persist() : false;
}

/** Which index narrows a filter, and whether the index alone answers it (no per-record check). */
function planFor(filter: TransitionFilter | undefined): { index: IndexName; range: IDBKeyRange; exact: boolean } | undefined {
  const { env, source, runId, taskId } = filter ?? {};
  if (runId !== undefined) {
    return { index: 'runId', range: IDBKeyRange.only(runId), exact: env === undefined && source === undefined && taskId === undefined };
  }
  if (taskId !== undefined) return { index: 'taskId', range: IDBKeyRange.only(taskId), exact: env === undefined && source === undefined };
  if (env !== undefined && source !== undefined) return { index: 'env_source', range: IDBKeyRange.only([env, source]), exact: true };
  if (env !== undefined) return { index: 'env', range: IDBKeyRange.only(env), exact: true };
  if (source !== undefined) return { index: 'source_id', range: sourceRange(source), exact: true };
  return undefined;
}

function sourceRange(source: TransitionSource, after?: number): IDBKeyRange {
  return IDBKeyRange.bound([source, after ?? -Infinity], [source, Infinity], after !== undefined);
}

/** The transitions matching `filter` with id > `after`, in id order. */
async function* walk(store: TransitionStore, filter: TransitionFilter | undefined, after?: number): AsyncGenerator<StoredTransition> {
  const plan = planFor(filter);
  let cursor;
  if (!plan) {
    cursor = await store.openCursor(after === undefined ? null : IDBKeyRange.lowerBound(after, true));
  } else if (plan.index === 'source_id') {
    cursor = await store.index('source_id').openCursor(sourceRange(filter!.source!, after));
  } else {
    // One index key at a time, so entries are in primary-key (id) order: jump straight past `after`.
    cursor = await store.index(plan.index).openCursor(plan.range);
    if (cursor && after !== undefined && cursor.primaryKey <= after) cursor = await cursor.continuePrimaryKey(cursor.key, after + 1);
  }
  for (; cursor; cursor = await cursor.continue()) {
    if (plan?.exact || matchesFilter(cursor.value, filter)) yield cursor.value;
  }
}

/**
 * Run `work` inside `tx` and resolve only once the transaction has committed. On any failure the
 * transaction is aborted (so nothing of it lands) and a full disk or quota becomes StoreFullError.
 */
async function commit<T>(tx: AnyTx, work: () => Promise<T>): Promise<T> {
  try {
    const result = await work();
    await tx.done;
    return result;
  } catch (error) {
    abortQuietly(tx);
    await tx.done.catch(() => undefined);
    throw await asStoreError(error, tx.error);
  }
}

/**
 * Issue one request per item and wait for them all. A request can also throw as it is issued (an
 * uncloneable value, an aborted transaction); the ones already issued must not reject unobserved.
 */
function requestAll<T, R>(items: readonly T[], request: (item: T) => Promise<R>): Promise<R[]> {
  const issued: Promise<R>[] = [];
  try {
    for (const item of items) issued.push(request(item));
  } catch (error) {
    for (const p of issued) p.catch(() => undefined);
    return Promise.reject(error);
  }
  return Promise.all(issued);
}

function abortQuietly(tx: Pick<IDBTransaction, 'abort'>): void {
  try {
    tx.abort();
  } catch {
    // Already committed or aborted: nothing left to undo.
  }
}

/** A quota failure can surface as the request's error or only as the transaction's (at commit). */
async function asStoreError(error: unknown, txError: DOMException | null): Promise<unknown> {
  const quota = [error, txError].find((e) => e instanceof DOMException && e.name === 'QuotaExceededError');
  if (!quota) return error;
  const estimate = await globalThis.navigator?.storage?.estimate?.().catch(() => undefined);
  const used = estimate?.usage !== undefined && estimate.quota !== undefined ? `: ${megabytes(estimate.usage)} of ${megabytes(estimate.quota)} used` : '';
  return new StoreFullError(
    `the browser's storage quota for this site is full${used}. Nothing from this write was saved. ` +
      'Delete or export old runs, or allow persistent storage, then try again.',
    { cause: quota },
  );
}

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}
