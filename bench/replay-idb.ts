/**
 * IndexedDB insert throughput in headless Chromium (the system browser, as the tests use): a Vite
 * server serves a page that imports the real store, and Playwright hands it the transitions.
 */
import { chromium } from 'playwright';
import { createServer } from 'vite';
import type { Transition } from '../src/core/types.ts';
import { CHROMIUM_ARGS, chromiumPath } from '../tests/chromium.ts';
import { median } from './stats.ts';

export async function idbInsertBench(transitions: Transition[], repeats = 5, batch = 500): Promise<unknown> {
  const server = await createServer({ configFile: 'vite.config.ts', server: { port: 0, host: '127.0.0.1' }, logLevel: 'error' });
  await server.listen();
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true });
  try {
    const page = await browser.newPage();
    const address = server.resolvedUrls?.local[0];
    if (!address) throw new Error('the Vite server did not report its address');
    await page.goto(new URL('bench/pages/idb-insert.html', address).href);
    await page.waitForFunction(() => (window as unknown as { benchReady?: boolean }).benchReady === true, undefined, { timeout: 120_000 });
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
  } finally {
    await browser.close();
    await server.close();
  }
}
