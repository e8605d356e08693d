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

/** `CHROMIUM_PATH`, else Debian's locations; a clear error where there is none. */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/lib/chromium/chromium', '/usr/bin/chromium'];
  const found = candidates.find((p): p is string => typeof p === 'string' && existsSync(p));
  if (!found) throw new Error('No system Chromium found: install Debian\'s `chromium` package (apt-get install -y chromium) or set CHROMIUM_PATH.');
  return found;
}
