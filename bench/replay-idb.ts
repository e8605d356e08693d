/**
 * IndexedDB insert throughput in headless Chromium (the system browser, as the tests use): a Vite
 * server serves a page that imports the real store, and Playwright hands it the transitions.
 */
import type { Transition } from '../src/core/types.ts';
import { withBenchPage } from './bench-page.ts';
import { median } from './stats.ts';

export async function idbInsertBench(transitions: Transition[], repeats = 5, batch = 500): Promise<unknown> {
  return withBenchPage('bench/pages/idb-insert.html', async (page) => {
    const run = (withEmbedding: boolean) =>
      page.evaluate(
        ([ts, b, e]) => (window as unknown as { benchInsert: (t: Transition[], b: number, e: boolean) => Promise<number> }).benchInsert(ts, b, e),
        [transitions, batch, withEmbedding] as const,
      );
    await run(false); // warm-up: module compilation and the first database's creation
    const stored: number[] = [];
    const embedded: number[] = [];
    for (let r = 0; r < repeats; r++) {
      stored.push(await run(false));
      embedded.push(await run(true));
    }
    return {
      transitions: transitions.length,
      batch,
      repeats,
      transitionsPerSecMedian: Math.round(median(stored)),
      withEmbeddingTransitionsPerSecMedian: Math.round(median(embedded)),
    };
  });
}
