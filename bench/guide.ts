/**
 * `npm run bench -- guide [--length full|short] [--backend wasm|webgpu|cpu|auto] [--screenshot PATH] [--profile DIR]`: the guided first run as a new user
 * meets it. Builds the app as `npm run build` does, serves it on loopback, opens it in the system's
 * headless Chromium (a fresh profile: a first visit), runs Start's one button with the defaults
 * (jobs/guide-plan.ts) and reports the wall time of each phase as the page measured it (the two
 * lanes run at once, so the phases overlap), the whole run's, and the three success rates it showed. Default backend wasm: this headless Chromium's
 * WebGPU is SwiftShader, software, minutes slower. It also reports the peak JS heap of the page and
 * of each of its workers over the run (bench/heap-sampler.ts), the dream run's fit and GRPO included.
 * `--screenshot` saves the finished page, whole, as a PNG (the README's picture, docs/guide-run.png).
 * `--profile DIR` also records a CPU profile of the page and of each worker over the run and saves
 * them as DIR/<worker>.cpuprofile (open them in Chrome DevTools' Performance panel): where the
 * guided run's time goes in the browser.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';
import { GUIDE_LENGTHS, GUIDE_PHASES, type GuideLength } from '../src/jobs/guide-plan.ts';
import { CHROMIUM_ARGS, chromiumPath } from '../src/platform/chromium.ts';
import { sampleHeap } from './heap-sampler.ts';
import { benchOptions } from './options.ts';


export async function guideBench(args: string[]): Promise<unknown> {
  const { backend, screenshot, length, profile } = benchOptions(args, { backend: 'wasm', screenshot: '', length: 'full', profile: '' });
  if (!(length in GUIDE_LENGTHS)) throw new Error(`--length must be one of ${Object.keys(GUIDE_LENGTHS).join(', ')}, got "${length}"`);
  await build({ logLevel: 'warn' });
  const server = await preview({ logLevel: 'warn', preview: { host: '127.0.0.1', port: 0 } });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview did not report a local URL');
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(url);
    await page.getByText('Advanced').click();
    await page.getByLabel('Backend', { exact: true }).selectOption(backend);
    await page.getByLabel('Length', { exact: true }).selectOption(length);
    // Which phase runs at each sample: its row is marked running (guide/GuideView.tsx).
    const running = page.locator('.guide-phase.phase-running');
    const phaseOf = async (): Promise<string | null> => ((await running.count()) === 0 ? null : ((await running.first().getAttribute('data-testid'))?.replace(/^guide-phase-/, '') ?? null));
    const heap = await sampleHeap(browser, page, { phaseOf, profile: profile !== '' });
    const started = performance.now();
    await page.getByRole('button', { name: 'Run it on the shop' }).click();
    await page.getByTestId('guide-state').filter({ hasText: /^(Done|Stopped|Failed)\.$/ }).waitFor({ timeout: 30 * 60_000 });
    const wallSeconds = (performance.now() - started) / 1000;
    const { profiles, ...heapFigures } = await heap.stop();
    if (profiles) {
      mkdirSync(profile, { recursive: true });
      for (const [name, recorded] of Object.entries(profiles)) writeFileSync(path.join(profile, `${name}.cpuprofile`), JSON.stringify(recorded));
    }
    const state = await page.getByTestId('guide-state').textContent();
    if (state !== 'Done.') throw new Error(`the guided run ended ${state}: ${(await page.getByRole('alert').allTextContents()).join(' ')}`);
    if (screenshot !== '') await page.screenshot({ path: screenshot, fullPage: true });
    const phases: Record<string, number> = {};
    for (const phase of GUIDE_PHASES) {
      phases[phase.id] = Number(await page.getByTestId(`guide-phase-${phase.id}-seconds`).getAttribute('data-seconds'));
    }
    const success = async (id: string) => (await page.getByTestId(`guide-${id}-success`).textContent()) ?? '';
    return {
      backend,
      length,
      settings: GUIDE_LENGTHS[length as GuideLength],
      phaseSeconds: phases,
      totalSeconds: Number(wallSeconds.toFixed(1)),
      // The bar the Start view and the tutorial quote (issue 59): the whole run in at most a minute on 2 cores.
      atMostAMinute: wallSeconds <= 60,
      success: { untrained: await success('untrained'), dream: await success('dream'), real: await success('real') },
      heap: heapFigures,
      ...(profiles ? { profiles: profile } : {}),
    };
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
  }
}
