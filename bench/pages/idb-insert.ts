// Runs inside headless Chromium for `npm run bench -- replay`: batched inserts into the real IndexedDB store.
import type { Transition } from '../../src/core/types.ts';
import { embedStateAction } from '../../src/replay/embed.ts';
import { IdbReplayStore } from '../../src/replay/idb-store.ts';

async function benchInsert(transitions: Transition[], batch: number, withEmbedding: boolean): Promise<number> {
  const name = `bench-${Math.random().toString(36).slice(2)}`;
  const store = await IdbReplayStore.open({ name });
  const started = performance.now();
  for (let i = 0; i < transitions.length; i += batch) {
    const slice = transitions.slice(i, i + batch);
    await store.add(withEmbedding ? slice.map((t) => ({ ...t, vector: embedStateAction(t.instruction, t.state, t.action) })) : slice);
  }
  const rate = transitions.length / ((performance.now() - started) / 1000);
  await store.close();
  await new Promise<void>((resolve) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
  return rate;
}

(window as unknown as { benchInsert: typeof benchInsert }).benchInsert = benchInsert;
(window as unknown as { benchReady: boolean }).benchReady = true;
