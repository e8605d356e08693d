/**
 * The system Chromium (Debian's `chromium` package): nothing here downloads a browser. The web
 * env's Node host drives it through playwright-core, and the tests and benches launch the same
 * one. With --enable-unsafe-webgpu it exposes a real (software, SwiftShader) WebGPU adapter in
 * pages and workers; the other flags keep a headless run quiet on a machine without network.
 */
import { existsSync } from 'node:fs';

export const CHROMIUM_ARGS = [
  '--enable-unsafe-webgpu',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * The JavaScript heap one web env page may grow to, in MB. A page that allocates in a loop then
 * crashes its own renderer within seconds (the host names it: out of memory) instead of growing
 * past 4 GB until the call watchdog gives up; the bundled suite's pages use under 20 MB. Only the
 * web env's browser has it: the app's tests train models in theirs.
 */
export const PAGE_HEAP_MB = 512;

/** The flags that bound a web env page's memory (PAGE_HEAP_MB), added to CHROMIUM_ARGS by the web env's host. */
export const PAGE_MEMORY_ARGS = [`--js-flags=--max-old-space-size=${PAGE_HEAP_MB}`];

/** `CHROMIUM_PATH`, else Debian's locations; a clear error where there is none. */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/lib/chromium/chromium', '/usr/bin/chromium'];
  const found = candidates.find((p): p is string => typeof p === 'string' && existsSync(p));
  if (!found) throw new Error('No system Chromium found: install Debian\'s `chromium` package (apt-get install -y chromium) or set CHROMIUM_PATH.');
  return found;
}
