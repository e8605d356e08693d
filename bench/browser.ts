/**
 * `npm run bench -- browser [--fit-transitions 600] [--skip webgpu,cpu] [--probe-only]`: first the
 * backend probe the app runs for `auto` (its figures and choice), then the app's training figures
 * in the system's headless Chromium, each in a fresh dedicated worker as the app's trainer runs
 * (bench/backend-figures.ts: PPO update samples/s, rollout steps/s, neural fit and predict
 * transitions/s), on every backend the browser offers: webgpu (SwiftShader without a GPU), wasm with
 * SIMD and threads (the page is cross-origin isolated, so SharedArrayBuffer exists), wasm with SIMD
 * and no threads, wasm without SIMD, and cpu; and the same figures in Node (wasm, cpu) in the same
 * run, with the browser's best over Node's.
 */
import { parseArgs } from 'node:util';
import { useBackend } from '../src/platform/tf.ts';
import { withBenchPage } from './bench-page.ts';
import { measureBackendFigures, type BackendFigures, type FigureOptions } from './backend-figures.ts';

const VARIANTS = [
  { name: 'webgpu', backend: 'webgpu' },
  { name: 'wasm (SIMD, threads)', backend: 'wasm' },
  { name: 'wasm (SIMD, no threads)', backend: 'wasm', threads: false },
  { name: 'wasm (no SIMD, no threads)', backend: 'wasm', simd: false, threads: false },
  { name: 'cpu', backend: 'cpu' },
] as const;

export async function browserBench(argv: string[]): Promise<unknown> {
  const { values } = parseArgs({ args: argv, options: { 'fit-transitions': { type: 'string', default: '600' }, skip: { type: 'string', default: '' }, 'probe-only': { type: 'boolean', default: false } } });
  const options: FigureOptions = { fitTransitions: Number(values['fit-transitions']) };
  const skip = new Set(values.skip.split(',').filter(Boolean));

  const browser: Record<string, unknown> = {};
  // COOP/COEP make the page cross-origin isolated: what wasm threads need (SharedArrayBuffer).
  const isolated = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
  let probe: unknown = null;
  await withBenchPage(
    'bench/pages/backend-figures.html',
    async (page) => {
      const measure = (v: unknown) => page.evaluate((x) => (window as unknown as { measure: (v: unknown) => Promise<unknown> }).measure(x), v);
      // First the app's own choice: the backend probe `auto` runs, in a worker of its own.
      probe = await measure({ probe: true, backend: 'wasm' });
      if (values['probe-only']) return;
      for (const variant of VARIANTS) {
        if (skip.has(variant.backend) || skip.has(variant.name)) continue;
        browser[variant.name] = await measure({ ...variant, options });
      }
    },
    isolated,
  );

  if (values['probe-only']) return { probe };
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
    probe,
    fitTransitions: options.fitTransitions,
    browser,
    node,
    bestBrowserOverNodeWasm: { update: ratio('updateSamplesPerSec'), rollout: ratio('rolloutStepsPerSec'), fit: ratio('fitTransitionsPerSec'), predict: ratio('predictTransitionsPerSec') },
  };
}
