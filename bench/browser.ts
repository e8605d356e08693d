/**
 * `npm run bench -- browser [--fit-transitions 600] [--skip webgpu,cpu]`: the app's training figures
 * in the system's headless Chromium, each in a fresh dedicated worker as the app's trainer runs
 * (bench/backend-figures.ts: PPO update samples/s, rollout steps/s, neural fit and predict
 * transitions/s), on every backend the browser offers: webgpu (SwiftShader without a GPU), wasm with
 * SIMD and threads (the page is cross-origin isolated, so SharedArrayBuffer exists), wasm with SIMD
 * and no threads, wasm without SIMD, and cpu; and the same figures in Node (wasm, cpu) in the same
 * run, with the browser's best over Node's.
 */
import { parseArgs } from 'node:util';
import { chromium } from 'playwright';
import { createServer } from 'vite';
import { CHROMIUM_ARGS, chromiumPath } from '../tests/chromium.ts';
import { useBackend } from '../src/platform/tf.ts';
import { measureBackendFigures, type BackendFigures, type FigureOptions } from './backend-figures.ts';

const VARIANTS = [
  { name: 'webgpu', backend: 'webgpu' },
  { name: 'wasm (SIMD, threads)', backend: 'wasm' },
  { name: 'wasm (SIMD, no threads)', backend: 'wasm', threads: false },
  { name: 'wasm (no SIMD, no threads)', backend: 'wasm', simd: false, threads: false },
  { name: 'cpu', backend: 'cpu' },
] as const;

export async function browserBench(argv: string[]): Promise<unknown> {
  const { values } = parseArgs({ args: argv, options: { 'fit-transitions': { type: 'string', default: '600' }, skip: { type: 'string', default: '' } } });
  const options: FigureOptions = { fitTransitions: Number(values['fit-transitions']) };
  const skip = new Set(values.skip.split(',').filter(Boolean));

  const browser: Record<string, unknown> = {};
  // COOP/COEP make the page cross-origin isolated: what wasm threads need (SharedArrayBuffer).
  const server = await createServer({
    configFile: 'vite.config.ts',
    server: { port: 0, host: '127.0.0.1', headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } },
    logLevel: 'error',
  });
  await server.listen();
  const chrome = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true });
  try {
    const page = await chrome.newPage();
    const address = server.resolvedUrls?.local[0];
    if (!address) throw new Error('the Vite server did not report its address');
    await page.goto(new URL('bench/pages/backend-figures.html', address).href);
    await page.waitForFunction(() => (window as unknown as { benchReady?: boolean }).benchReady === true, undefined, { timeout: 120_000 });
    for (const variant of VARIANTS) {
      if (skip.has(variant.backend) || skip.has(variant.name)) continue;
      browser[variant.name] = await page.evaluate((v) => (window as unknown as { measure: (v: unknown) => Promise<unknown> }).measure(v), { ...variant, options });
    }
  } finally {
    await chrome.close();
    await server.close();
  }

  const node: Record<string, BackendFigures> = {};
  for (const backend of ['wasm', 'cpu'] as const) {
    if (skip.has(backend)) continue;
    await useBackend([backend]);
    node[backend] = await measureBackendFigures(options);
  }

  const best = (key: keyof BackendFigures): number =>
    Math.max(0, ...Object.values(browser).map((r) => ((r as { ok?: boolean; figures?: BackendFigures }).ok ? Number((r as { figures: BackendFigures }).figures[key]) : 0)));
  const ratio = (key: keyof BackendFigures) => (node.wasm ? Number((best(key) / Number(node.wasm[key])).toFixed(2)) : null);
  return {
    fitTransitions: options.fitTransitions,
    browser,
    node,
    bestBrowserOverNodeWasm: { update: ratio('updateSamplesPerSec'), rollout: ratio('rolloutStepsPerSec'), fit: ratio('fitTransitionsPerSec'), predict: ratio('predictTransitionsPerSec') },
  };
}
