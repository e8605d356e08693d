/**
 * A bench page in the system's headless Chromium: a Vite server serves the repository (so a page
 * under bench/pages imports the real modules), Chromium opens the page and waits for it to set
 * `window.benchReady`, and `use` drives it. Server and browser are closed whatever happens.
 */
import { chromium, type Page } from 'playwright';
import { createServer } from 'vite';
import { CHROMIUM_ARGS, chromiumPath } from '../tests/chromium.ts';

export async function withBenchPage<T>(path: string, use: (page: Page) => Promise<T>, headers: Record<string, string> = {}): Promise<T> {
  const server = await createServer({ configFile: 'vite.config.ts', server: { port: 0, host: '127.0.0.1', headers }, logLevel: 'error' });
  await server.listen();
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true });
  try {
    const page = await browser.newPage();
    const address = server.resolvedUrls?.local[0];
    if (!address) throw new Error('the Vite server did not report its address');
    await page.goto(new URL(path, address).href);
    await page.waitForFunction(() => (window as unknown as { benchReady?: boolean }).benchReady === true, undefined, { timeout: 120_000 });
    return await use(page);
  } finally {
    await browser.close();
    await server.close();
  }
}
