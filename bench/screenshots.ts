/**
 * `npm run bench -- screenshots [--out docs/screenshots] [--guide] [--backend wasm|webgpu|cpu|auto]`:
 * a picture of every view at a desktop size (1280×900) and a phone size (390×844), as PNGs named
 * `<view>-desktop.png` and `<view>-phone.png` (the whole page, scrolled). Builds the app as
 * `npm run build` does (into a temporary folder, so a dist/ that tests are serving is left alone),
 * serves it on loopback and opens it in the system's headless Chromium with a fresh profile. With
 * `--guide` it first runs Start's guided run to its end (wasm by default, as `bench -- guide`), so
 * the views have a buffer, a model, runs and a curriculum to show. Then it starts a shop episode in
 * Play and, where the buffer holds shop steps, one in Experience (a search each), so those views show
 * an episode rather than their empty form. It reports each picture's page width: at the phone size a
 * width over 390 means that view scrolls sideways. A page error fails the command (after the pictures
 * are saved, to look at): a picture of a broken page is not one to commit.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { build, preview } from 'vite';
import { CHROMIUM_ARGS, chromiumPath } from '../src/platform/chromium.ts';

/** The app's views, in the tab bar's order (src/app/App.tsx). */
export const VIEWS = ['start', 'play', 'train', 'evaluate', 'buffer', 'experience', 'curriculum', 'runs'] as const;

export const SIZES = {
  desktop: { width: 1280, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

interface Shot {
  file: string;
  /** The page's scroll width, CSS px: above the viewport's width, the page scrolls sideways. */
  scrollWidth: number;
  scrollHeight: number;
}

/**
 * A shop episode in Play and in Experience, one search into each, as a person would; best effort: a
 * step that does not happen is reported, and the view is pictured as it is.
 */
async function stageEpisodes(page: Page): Promise<string[]> {
  const missed: string[] = [];
  const attempt = async (what: string, steps: () => Promise<void>) => {
    try {
      await steps();
    } catch (error) {
      missed.push(`${what}: ${(error as Error).message.split('\n')[0]}`);
    }
  };
  await attempt('play', async () => {
    await openView(page, 'play');
    await page.getByRole('button', { name: /^shop/ }).first().click({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Start episode' }).click({ timeout: 10_000 });
    await page.getByTestId('instruction').waitFor({ timeout: 30_000 });
    await page.getByLabel('Search the store').fill('laptop', { timeout: 10_000 });
    await page.getByRole('button', { name: 'Search', exact: true }).click({ timeout: 10_000 });
    await page.getByRole('group', { name: 'Admissible actions' }).getByRole('button', { name: /^click\[b0/ }).first().waitFor({ timeout: 30_000 });
  });
  await attempt('experience', async () => {
    await openView(page, 'experience');
    await page.getByRole('button', { name: 'Start episode' }).click({ timeout: 10_000 });
    await page.getByTestId('experience-instruction').waitFor({ timeout: 30_000 });
    await page.getByLabel('Search the store').fill('laptop', { timeout: 10_000 });
    await page.getByRole('button', { name: 'Search', exact: true }).click({ timeout: 10_000 });
    await page.getByRole('heading', { name: /^Step 1:/ }).waitFor({ timeout: 60_000 });
  });
  return missed;
}

/** Open a view by its tab, as a person does (no reload: the views keep their state in the page). */
async function openView(page: Page, view: string): Promise<void> {
  await page.evaluate((id) => { window.location.hash = id; }, view);
  await page.locator(`main#${view}`).waitFor({ timeout: 30_000 });
  // Let stored state arrive (IndexedDB reads, a chart's first draw) and the fonts settle.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForTimeout(1200);
}

/** CSS pixels of a page kept in a picture at most. */
const MAX_SHOT_HEIGHT = 2400;

export async function screenshotsBench(args: string[]): Promise<unknown> {
  const { values } = parseArgs({
    args,
    options: {
      out: { type: 'string', default: 'docs/screenshots' },
      guide: { type: 'boolean', default: false },
      backend: { type: 'string', default: 'wasm' },
    },
    strict: true,
    allowPositionals: false,
  });
  const out = values.out;
  mkdirSync(out, { recursive: true });
  const outDir = mkdtempSync(join(tmpdir(), 'dreamgym-screenshots-'));
  await build({ logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const server = await preview({ logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port: 0 } });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview did not report a local URL');
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true });
  const errors: string[] = [];
  try {
    const page = await browser.newPage({ viewport: SIZES.desktop });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${url}#start`);
    let guideSeconds: number | null = null;
    if (values.guide) {
      await page.getByText('Advanced').click();
      await page.getByLabel('Backend', { exact: true }).selectOption(values.backend);
      const started = performance.now();
      await page.getByRole('button', { name: 'Run it on the shop' }).click();
      await page.getByTestId('guide-state').filter({ hasText: /^(Done|Stopped|Failed)\.$/ }).waitFor({ timeout: 30 * 60_000 });
      guideSeconds = Number(((performance.now() - started) / 1000).toFixed(1));
      const state = await page.getByTestId('guide-state').textContent();
      if (state !== 'Done.') throw new Error(`the guided run ended ${state}: ${(await page.getByRole('alert').allTextContents()).join(' ')}`);
    }
    const notStaged = await stageEpisodes(page);
    const shots: Record<string, Shot> = {};
    // One size at a time: a view is drawn afresh each time it is opened, at the size it is opened in.
    for (const [size, viewport] of Object.entries(SIZES)) {
      await page.setViewportSize(viewport);
      for (const view of VIEWS) {
        await openView(page, view);
        const file = join(out, `${view}-${size}.png`);
        const { scrollWidth, scrollHeight } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, scrollHeight: document.documentElement.scrollHeight }));
        // The whole page, down to MAX_SHOT_HEIGHT: a long table's hundredth row shows nothing its tenth does not, and weighs a megabyte.
        await page.screenshot({ path: file, fullPage: true, clip: { x: 0, y: 0, width: scrollWidth, height: Math.min(scrollHeight, MAX_SHOT_HEIGHT) } });
        shots[`${view}-${size}`] = { file, scrollWidth, scrollHeight };
      }
    }
    const phoneTooWide = Object.entries(shots).filter(([name, s]) => name.endsWith('-phone') && s.scrollWidth > SIZES.phone.width).map(([name]) => name);
    if (errors.length > 0) {
      const distinct = [...new Set(errors)];
      throw new Error(`the page threw ${errors.length} errors (${distinct.length} distinct: ${distinct.slice(0, 5).join(' | ')}): the pictures in ${out} may show a broken page`);
    }
    return { out, guide: values.guide, backend: values.guide ? values.backend : null, guideSeconds, notStaged, shots, phoneTooWide };
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
    rmSync(outDir, { recursive: true, force: true });
  }
}
