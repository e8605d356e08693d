import { describe, expect, it } from 'vitest';
import { MemoryReplayStore } from '../../../src/replay/memory-store.ts';
import { StoreFullError } from '../../../src/replay/store.ts';
import { transition } from './helpers.ts';

describe('MemoryReplayStore', () => {
  it('adds in batches, gets by id, pages with a cursor and counts by filter', async () => {
    const store = new MemoryReplayStore();
    const ids = await store.add(Array.from({ length: 25 }, (_, i) => transition(i, { source: i % 3 === 0 ? 'synthetic' : 'real', env: i < 20 ? 'shop' : 'home' })));
    expect(ids).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect((await store.get(4))?.instruction).toBe('find item 3');
    expect(await store.get(99)).toBeUndefined();
    const seen: number[] = [];
    let after: number | undefined;
    for (;;) {
      const page = await store.page({ filter: { env: 'shop' }, limit: 6, ...(after !== undefined ? { after } : {}) });
      seen.push(...page.items.map((t) => t.id));
      if (page.next === null) break;
      after = page.next;
    }
    expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await store.count()).toBe(25);
    expect(await store.count({ env: 'home' })).toBe(5);
    expect(await store.count({ source: 'synthetic' })).toBe(9);
    expect(await store.count({ env: 'shop', source: 'synthetic', taskId: 'task-0' })).toBe(2);
  });

  it('deletes a run, keeps tasks, runs and per-task outcome statistics', async () => {
    const store = new MemoryReplayStore();
    await store.add([transition(1), transition(2, { runId: 'run-b' }), transition(3)]);
    await store.putRun({ id: 'run-a', env: 'shop', kind: 'seed', createdAt: 1 });
    await store.putRun({ id: 'run-b', env: 'shop', kind: 'train:ppo', createdAt: 2 });
    expect(await store.deleteRun('run-a')).toBe(2);
    expect(await store.count()).toBe(1);
    expect((await store.runs()).map((r) => r.id)).toEqual(['run-b']);
    await store.putTasks([{ id: 't1', env: 'shop', instruction: 'x', difficulty: 2, origin: 'seed', createdAt: 0 }]);
    expect((await store.getTask('t1'))?.difficulty).toBe(2);
    await store.recordOutcomes([
      { taskId: 't1', env: 'shop', won: true, return: 1 },
      { taskId: 't1', env: 'shop', won: false, return: 0.5 },
      { taskId: 't2', env: 'home', won: false, return: 0 },
    ]);
    const [t1] = await store.taskStats('shop');
    expect(t1).toMatchObject({ taskId: 't1', attempts: 2, successes: 1, returnSum: 1.5, returnSquares: 1.25 });
    expect(await store.taskStats()).toHaveLength(2);
  });

  it('over its cap evicts the oldest synthetic transitions first and never a real one unless allowed', async () => {
    const store = new MemoryReplayStore({ cap: 10 });
    await store.add(Array.from({ length: 6 }, (_, i) => transition(i, { source: 'real' })));
    await store.add(Array.from({ length: 4 }, (_, i) => transition(10 + i, { source: 'synthetic' })));
    await store.add([transition(20, { source: 'synthetic' }), transition(21, { source: 'synthetic' })]);
    const left = (await store.page({ limit: 100 })).items;
    expect(left.map((t) => t.id)).toEqual([1, 2, 3, 4, 5, 6, 9, 10, 11, 12]);

    const before = structuredClone(left);
    await store.add(Array.from({ length: 4 }, (_, i) => transition(30 + i, { source: 'real' })));
    await expect(store.add([transition(40)])).rejects.toThrow(StoreFullError);
    await expect(store.add([transition(40)])).rejects.toThrow(/only real ones are left; real transitions are evicted only when you allow it/);
    expect(await store.count()).toBe(10);
    expect((await store.page({ limit: 100 })).items.filter((t) => t.source === 'real')).toHaveLength(10);
    expect(before.filter((t) => t.source === 'real').every((t) => t.id <= 6)).toBe(true);

    store.setLimits({ cap: 10, evictReal: true });
    await store.add([transition(41)]);
    expect((await store.page({ limit: 1 })).items[0]?.id).toBe(2);
  });
});
