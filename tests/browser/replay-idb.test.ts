import { deleteDB, openDB } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Transition } from '../../src/core/types.ts';
import { IDB_SCHEMA_VERSION, IdbReplayStore, upgradeTo, type ReplayDB } from '../../src/replay/idb-store.ts';
import { StoreFullError, matchesFilter, type StoredTransition, type TransitionFilter } from '../../src/replay/store.ts';
import { makeTransition, writerBatch, type WriterMessage } from './fixtures/transitions.ts';

const dbNames: string[] = [];
const stores: IdbReplayStore[] = [];

function uniqueName(label: string): string {
  const name = `replay-test-${label}-${crypto.randomUUID()}`;
  dbNames.push(name);
  return name;
}

async function openStore(name: string, options: { cap?: number | null; evictReal?: boolean } = {}): Promise<IdbReplayStore> {
  const store = await IdbReplayStore.open({ name, ...options });
  stores.push(store);
  return store;
}

afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  await Promise.all(dbNames.splice(0).map((name) => deleteDB(name)));
});

async function all(store: IdbReplayStore, filter?: TransitionFilter, limit = 7): Promise<StoredTransition[]> {
  const items: StoredTransition[] = [];
  let after: number | undefined;
  while (true) {
    const page = await store.page({ filter, after, limit });
    expect(page.items.length).toBeLessThanOrEqual(limit);
    items.push(...page.items);
    if (page.next === null) return items;
    expect(page.items).toHaveLength(limit);
    expect(page.next).toBe(page.items.at(-1)?.id);
    after = page.next;
  }
}

const ids = (ts: readonly { id?: number }[]) => ts.map((t) => t.id);

describe('IdbReplayStore (real IndexedDB in Chromium)', () => {
  it('round-trips transitions, pages with a cursor, counts by index, deletes a run, keeps tasks, runs and stats', async () => {
    const store = await openStore(uniqueName('roundtrip'));
    const vector = new Float32Array([0.6, 0.8, 0]);
    const realBatch = Array.from({ length: 10 }, (_, i) => (i === 0 ? Object.assign(makeTransition('run-a', i), { vector }) : makeTransition('run-a', i)));
    const syntheticBatch = Array.from({ length: 6 }, (_, i) => makeTransition('run-b', i, { source: 'synthetic' }));

    const realIds = await store.add(realBatch);
    const syntheticIds = await store.add(syntheticBatch);
    const allIds = [...realIds, ...syntheticIds];
    expect(allIds).toHaveLength(16);
    expect([...allIds].sort((a, b) => a - b)).toEqual(allIds);
    expect(new Set(allIds).size).toBe(16);

    const first = await store.get(realIds[0]!);
    expect(first).toEqual({ ...realBatch[0], id: realIds[0] });
    expect(first?.vector).toBeInstanceOf(Float32Array);
    expect([...first!.vector!]).toEqual([...vector]);
    expect(await store.get(syntheticIds[5]!)).toEqual({ ...syntheticBatch[5], id: syntheticIds[5] });
    expect(await store.get(99_999)).toBeUndefined();
    // Several in one transaction, in the order asked, a missing id as undefined.
    expect(await store.getMany([syntheticIds[1]!, 99_999, realIds[0]!])).toEqual([{ ...syntheticBatch[1], id: syntheticIds[1] }, undefined, first]);
    expect(await store.getMany([])).toEqual([]);

    // A page size that divides the total exactly: the last full page must still say "no more".
    expect(ids(await all(store, undefined, 4))).toEqual(allIds);
    expect(ids(await all(store, undefined, 5))).toEqual(allIds);
    expect(await store.page({ limit: 3, after: allIds.at(-1) })).toEqual({ items: [], next: null });

    const stored = allIds.map((id, i) => ({ ...[...realBatch, ...syntheticBatch][i]!, id }));
    const filters: TransitionFilter[] = [
      {},
      { env: 'shop' },
      { source: 'synthetic' },
      { source: 'real' },
      { env: 'shop', source: 'real' },
      { runId: 'run-a' },
      { taskId: 'task-0' },
      { taskId: 'task-0', source: 'synthetic' },
      { runId: 'run-a', env: 'home' },
      { runId: 'nope' },
    ];
    for (const filter of filters) {
      const expected = stored.filter((t) => matchesFilter(t, filter));
      expect(await store.count(filter), JSON.stringify(filter)).toBe(expected.length);
      expect(ids(await all(store, filter, 2)), JSON.stringify(filter)).toEqual(ids(expected));
    }
    expect(await store.count({ env: 'shop' })).toBe(8);
    expect(await store.count({ taskId: 'task-0' })).toBe(6);

    // Resuming after an id in the middle of an index key (continuePrimaryKey), not at its start.
    const page = await store.page({ filter: { env: 'home' }, after: realIds[4], limit: 3 });
    expect(ids(page.items)).toEqual([realIds[5], realIds[7], realIds[9]]);
    expect(page.next).toBe(realIds[9]);
    expect(ids((await store.page({ filter: { env: 'home' }, after: page.next!, limit: 3 })).items)).toEqual([syntheticIds[1], syntheticIds[3], syntheticIds[5]]);

    await store.putRun({ id: 'run-b', env: 'shop', kind: 'train:ppo', createdAt: 20, meta: { seed: 7 } });
    await store.putRun({ id: 'run-a', env: 'shop', kind: 'seed:oracle=1', createdAt: 10 });
    expect((await store.runs()).map((r) => r.id)).toEqual(['run-a', 'run-b']);
    expect(await store.deleteRun('run-a')).toBe(10);
    expect(await store.count()).toBe(6);
    expect(await store.count({ runId: 'run-a' })).toBe(0);
    expect(await store.get(realIds[0]!)).toBeUndefined();
    expect(await store.runs()).toEqual([{ id: 'run-b', env: 'shop', kind: 'train:ppo', createdAt: 20, meta: { seed: 7 } }]);
    expect(await store.deleteRun('run-a')).toBe(0);

    const task = { id: 'shop-1', env: 'shop', instruction: 'buy shoes', difficulty: 2, origin: 'generated' as const, parentId: 'shop-0', createdAt: 5 };
    await store.putTasks([task, { ...task, id: 'shop-2', parentId: undefined }]);
    expect(await store.getTask('shop-1')).toEqual(task);
    expect((await store.getTask('shop-2'))?.instruction).toBe('buy shoes');
    expect(await store.getTask('shop-3')).toBeUndefined();

    await store.recordOutcomes([
      { taskId: 'shop-1', env: 'shop', won: true, return: 1 },
      { taskId: 'shop-1', env: 'shop', won: false, return: -0.5 },
      { taskId: 'home-1', env: 'home', won: false, return: 0 },
    ]);
    await store.recordOutcomes([{ taskId: 'shop-1', env: 'shop', won: true, return: 2 }]);
    const shopStats = await store.taskStats('shop');
    expect(shopStats).toHaveLength(1);
    expect(shopStats[0]).toMatchObject({ taskId: 'shop-1', env: 'shop', attempts: 3, successes: 2, returnSum: 2.5, returnSquares: 5.25 });
    expect((await store.taskStats()).map((s) => s.taskId).sort()).toEqual(['home-1', 'shop-1']);
    expect(await store.taskStats('nowhere')).toEqual([]);

    const estimate = await store.estimate();
    expect(estimate.cap).toBeNull();
    expect(estimate.usage).toBeGreaterThan(0);
    expect(estimate.quota).toBeGreaterThan(0);
    expect(typeof estimate.persisted).toBe('boolean');
  });

  it(`upgrades a version-1 database to version ${IDB_SCHEMA_VERSION} without losing a record`, async () => {
    const name = uniqueName('upgrade');
    const N = 250;
    // Version 1 records had no `source` and no `createdAt`.
    const legacy = Array.from({ length: N }, (_, i) => {
      const { source: _source, createdAt: _createdAt, ...old } = makeTransition(`run-${i % 5}`, i);
      return i % 10 === 0 ? { ...old, vector: new Float32Array([i, 1]) } : old;
    });
    const v1 = await openDB<ReplayDB>(name, 1, { upgrade: upgradeTo });
    expect([...v1.objectStoreNames]).toEqual(['transitions']);
    expect([...v1.transaction('transitions').store.indexNames]).toEqual(['env']);
    const tx = v1.transaction('transitions', 'readwrite');
    const legacyIds = await Promise.all(legacy.map((t) => tx.store.add(t as StoredTransition)));
    await tx.done;
    v1.close();

    const store = await openStore(name);
    const migrated = await all(store, undefined, 64);
    expect(migrated).toEqual(legacy.map((t, i) => ({ ...t, id: legacyIds[i], source: 'real', createdAt: 0 })));
    expect(migrated[10]?.vector).toBeInstanceOf(Float32Array);

    // The new indexes were built over the migrated records.
    expect(await store.count({ source: 'real' })).toBe(N);
    expect(await store.count({ source: 'synthetic' })).toBe(0);
    expect(await store.count({ env: 'shop', source: 'real' })).toBe(N / 2);
    expect(await store.count({ runId: 'run-3' })).toBe(N / 5);
    expect(await store.count({ taskId: 'task-1' })).toBe(legacy.filter((t) => t.taskId === 'task-1').length);
    expect(ids(await all(store, { source: 'real' }, 100))).toEqual(legacyIds);
    expect(await store.deleteRun('run-3')).toBe(N / 5);
    await store.putTasks([{ id: 't', env: 'shop', instruction: 'i', difficulty: 1, origin: 'seed', createdAt: 1 }]);
    expect(await store.getTask('t')).toBeDefined();
    // New ids continue after the old ones.
    const [fresh] = await store.add([makeTransition('run-new', 0)]);
    expect(fresh).toBeGreaterThan(legacyIds.at(-1)!);
    await store.close();

    const raw = await openDB<ReplayDB>(name);
    expect(raw.version).toBe(IDB_SCHEMA_VERSION);
    expect([...raw.objectStoreNames].sort()).toEqual(['runs', 'taskStats', 'tasks', 'transitions']);
    expect([...raw.transaction('transitions').store.indexNames].sort()).toEqual(['env', 'env_source', 'runId', 'source_id', 'taskId']);
    raw.close();
  });

  it('rejects an add over the cap with a clear StoreFullError and keeps everything already stored', async () => {
    const store = await openStore(uniqueName('cap'), { cap: 100, evictReal: false });
    await store.add(Array.from({ length: 60 }, (_, i) => makeTransition('run-1', i)));
    await store.add(Array.from({ length: 30 }, (_, i) => makeTransition('run-2', i)));
    const before = await all(store, undefined, 50);
    expect(before).toHaveLength(90);

    const error = await store.add(Array.from({ length: 20 }, (_, i) => makeTransition('run-3', i))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreFullError);
    expect((error as StoreFullError).code).toBe('store-full');
    expect((error as Error).message).toMatch(/holds 90 transitions and its cap is 100; 20 more do not fit/);
    expect((error as Error).message).toMatch(/evicted only when you allow it \(set evictReal\)/);
    await expect(store.add(Array.from({ length: 101 }, (_, i) => makeTransition('run-3', i)))).rejects.toThrow(/batch of 101 .* cap of 100/);
    expect(await store.count()).toBe(90);
    expect(await all(store, undefined, 50)).toEqual(before);

    // Up to the cap is fine; past it, only with permission, and then the oldest real go first.
    await store.add(Array.from({ length: 10 }, (_, i) => makeTransition('run-3', i)));
    store.evictReal = true;
    const added = await store.add(Array.from({ length: 15 }, (_, i) => makeTransition('run-4', i)));
    expect(await store.count()).toBe(100);
    expect(ids(await all(store, undefined, 50))).toEqual([...ids(before.slice(15)), ...ids(await all(store, { runId: 'run-3' })), ...added]);
    expect((await store.estimate()).cap).toBe(100);
  });

  it('evicts the oldest synthetic transitions first, all or nothing', async () => {
    const store = await openStore(uniqueName('evict'), { cap: 100 });
    const batch = (runId: string, n: number, source: Transition['source']) => Array.from({ length: n }, (_, i) => makeTransition(runId, i, { source }));
    const real1 = await store.add(batch('r1', 30, 'real'));
    const synthetic1 = await store.add(batch('s1', 40, 'synthetic'));
    const real2 = await store.add(batch('r2', 20, 'real'));
    const synthetic2 = await store.add(batch('s2', 10, 'synthetic'));

    const real3 = await store.add(batch('r3', 25, 'real'));
    expect(await store.count()).toBe(100);
    expect(ids(await all(store, { source: 'synthetic' }))).toEqual([...synthetic1.slice(25), ...synthetic2]);
    expect(ids(await all(store, { source: 'real' }))).toEqual([...real1, ...real2, ...real3]);

    // 25 synthetic left cannot make room for 30: nothing is evicted and nothing is added.
    const snapshot = await all(store, undefined, 50);
    await expect(store.add(batch('r4', 30, 'real'))).rejects.toBeInstanceOf(StoreFullError);
    expect(await all(store, undefined, 50)).toEqual(snapshot);
  });

  // Chromium's DevTools quota override (Storage.overrideQuotaForOrigin) does not reach IndexedDB in
  // Playwright's off-the-record context, so the platform's failure is staged at the IDB boundary, both
  // ways it surfaces: thrown by a request, or only as the transaction's error when it aborts at commit.
  for (const surface of ['request', 'transaction'] as const) {
    it(`turns a QuotaExceededError (${surface}) into StoreFullError and loses nothing committed`, async () => {
      const store = await openStore(uniqueName(`quota-${surface}`));
      const committed = await store.add(Array.from({ length: 20 }, (_, i) => makeTransition('kept', i)));
      const quota = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      const add = IDBObjectStore.prototype.add;
      let calls = 0;
      const spy = vi.spyOn(IDBObjectStore.prototype, 'add').mockImplementation(function (this: IDBObjectStore, ...args) {
        // Let a few records of the batch in first, so a partial batch would show if rollback failed.
        if (++calls <= 3) return add.apply(this, args);
        if (surface === 'request') throw quota;
        const request = add.apply(this, args);
        Object.defineProperty(this.transaction, 'error', { get: () => quota });
        this.transaction.abort();
        return request;
      });
      let error: unknown;
      try {
        error = await store.add(Array.from({ length: 10 }, (_, i) => makeTransition('lost', i))).catch((e: unknown) => e);
      } finally {
        spy.mockRestore();
      }
      expect(error).toBeInstanceOf(StoreFullError);
      expect((error as Error).message).toMatch(/^the browser's storage quota for this site is full: [\d.]+ MB of [\d.]+ MB used\. Nothing from this write was saved\./);
      expect((error as Error).cause).toBe(quota);
      expect(await store.count()).toBe(20);
      expect(await store.count({ runId: 'lost' })).toBe(0);
      expect(ids(await all(store))).toEqual(committed);
      expect(await store.add([makeTransition('after', 0)])).toHaveLength(1);
    });
  }
});

/** Check a database a writer was interrupted on: whole batches only, each record exactly as written. */
async function expectWholeBatches(name: string, batchSize: number, messages: WriterMessage[]): Promise<number> {
  const store = await openStore(name);
  const byBatch = new Map<string, StoredTransition[]>();
  for (const t of await all(store, undefined, 500)) byBatch.set(t.runId, [...(byBatch.get(t.runId) ?? []), t]);
  for (const [runId, records] of byBatch) {
    const [life, batch] = runId.split(':');
    expect(records, `batch ${runId}`).toHaveLength(batchSize);
    expect(records.map(({ id: _id, ...t }) => t), `batch ${runId}`).toEqual(writerBatch(life!, Number(batch), batchSize));
  }
  // Every batch the writer saw commit survived the interruption.
  for (const m of messages) if (m.kind === 'committed') expect(byBatch.has(`${m.life}:${m.batch}`), `committed ${m.life}:${m.batch}`).toBe(true);
  return byBatch.size;
}

function collect(target: { addEventListener(type: 'message', listener: (e: MessageEvent) => void): void }, db: string) {
  const messages: WriterMessage[] = [];
  target.addEventListener('message', (e: MessageEvent) => {
    const m = e.data as WriterMessage | undefined;
    if (m?.db === db) messages.push(m);
  });
  /** Resolve once a writer (not of life `skip`) has committed `n` batches and begun another, which is now in flight. */
  const midWrite = (n: number, skip?: string) =>
    new Promise<string>((resolve, reject) => {
      const poll = setInterval(() => {
        const last = messages.at(-1);
        if (last?.kind === 'error') reject(new Error(`writer failed: ${last.message}`));
        else if (last?.kind === 'begin' && last.batch >= n && last.life !== skip) resolve(last.life);
        else return;
        clearInterval(poll);
      }, 1);
    });
  return { messages, midWrite };
}

describe('interrupted writers (page reload, iframe removal, Worker.terminate)', () => {
  const batchSize = 40;

  it('reloads and then removal of the page mid-write leave only whole committed batches', async () => {
    const name = uniqueName('iframe');
    const { messages, midWrite } = collect(window, name);
    const url = new URL('./fixtures/idb-writer.html', import.meta.url);
    url.search = new URLSearchParams({ db: name, batch: String(batchSize) }).toString();
    const iframe = document.createElement('iframe');
    iframe.src = url.href;
    document.body.append(iframe);
    try {
      // Each reload starts a new life of the writer; interrupt two that way, the last by removing the frame.
      let life = await midWrite(3);
      for (let i = 0; i < 2; i++) {
        iframe.contentWindow!.location.reload();
        life = await midWrite(2, life);
      }
    } finally {
      iframe.remove();
    }
    expect(await expectWholeBatches(name, batchSize, messages)).toBeGreaterThanOrEqual(3 + 2 + 2);
  });

  it('Worker.terminate() mid-write leaves only whole committed batches', async () => {
    const name = uniqueName('worker');
    const messages: WriterMessage[] = [];
    for (let i = 0; i < 3; i++) {
      const worker = new Worker(new URL('./fixtures/idb-writer.ts', import.meta.url), { type: 'module' });
      const writer = collect(worker, name);
      worker.postMessage({ db: name, batchSize });
      try {
        await writer.midWrite(3);
      } finally {
        worker.terminate();
        messages.push(...writer.messages);
      }
    }
    expect(await expectWholeBatches(name, batchSize, messages)).toBeGreaterThanOrEqual(3 * 3);
  });
});
