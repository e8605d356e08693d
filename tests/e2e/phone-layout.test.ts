/**
 * Every view at a phone's size (390×844 CSS px): none scrolls sideways, empty or with content (a
 * seeded buffer, a shop episode in Play and in Experience, imported runs), the tabs and the title
 * fit, and the loop picture's text stays readable (at least 11 px). At a desktop's size (1280 px)
 * the tabs stay on one line beside the title. With content, no view at the phone's size has a serious
 * accessibility violation (axe-core). Opens views only: nothing here trains.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from './axe.ts';
import { ARTIFACTS, collectErrors, launch, seedShop } from './browser.ts';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const VIEWS = ['start', 'play', 'train', 'evaluate', 'buffer', 'experience', 'curriculum', 'runs'] as const;
const FIXTURE = 'tests/e2e/fixtures/tiny-run.json';
/** The smallest text the loop picture may show, CSS px. */
const MIN_TEXT_PX = 11;

interface Width {
  view: string;
  /** The document's scroll width: above the viewport's, the page scrolls sideways. */
  page: number;
  /** How far main's content reaches past main's own box, px (0 when nothing sticks out). */
  mainOverflow: number;
  /** The elements that reach past the viewport's right edge outside a box that scrolls them. */
  culprits: string[];
}

/** Open a view by its hash, as a tab does (no reload), and let stored state arrive. */
async function openView(page: Page, view: string): Promise<void> {
  await page.evaluate((id) => { window.location.hash = id; }, view);
  await page.locator(`main#${view}`).waitFor();
  await page.waitForTimeout(300);
}

async function width(page: Page, view: string): Promise<Width> {
  await openView(page, view);
  const measured = await page.evaluate(() => {
    const main = document.querySelector('main') as HTMLElement;
    // What a person may unfold counts too.
    for (const details of main.querySelectorAll('details')) details.open = true;
    const viewport = document.documentElement.clientWidth;
    // Inside a box that scrolls or clips sideways (a table's scroll wrapper), sticking out is fine;
    // an element positioned absolutely is clipped only by its containing block and what holds it.
    const clipped = (el: Element): boolean => {
      const from = ['absolute', 'fixed'].includes(getComputedStyle(el).position) ? (el as HTMLElement).offsetParent : el.parentElement;
      for (let p = from; p && p !== document.body; p = p.parentElement) {
        if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(p).overflowX)) return true;
      }
      return false;
    };
    const culprits = [...document.body.querySelectorAll('*')]
      .filter((el) => el.checkVisibility() && el.getBoundingClientRect().right > viewport + 0.5 && !clipped(el))
      // The innermost ones say what to fix.
      .filter((el, _, all) => !all.some((other) => other !== el && el.contains(other)))
      .slice(0, 6)
      .map((el) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').join('.')}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}" right ${Math.round(el.getBoundingClientRect().right)}`);
    return { page: document.documentElement.scrollWidth, mainOverflow: Math.max(0, main.scrollWidth - main.clientWidth), culprits };
  });
  return { view, ...measured };
}

/** Each drawn text of the loop picture: its font size on screen (CSS px), by font size × the SVG's scale. */
async function loopTextSizes(page: Page): Promise<{ text: string; px: number; boxPx: number }[]> {
  return page.locator('.loop-picture svg text').evaluateAll((texts) => texts
    .filter((t) => t.checkVisibility())
    .map((t) => {
      const el = t as SVGTextElement;
      const scale = el.getScreenCTM()?.a ?? 0;
      return { text: el.textContent ?? '', px: Number((parseFloat(getComputedStyle(el).fontSize) * scale).toFixed(2)), boxPx: Number(el.getBoundingClientRect().height.toFixed(2)) };
    }));
}

/** The tabs' lines: how many distinct rows their tops fall on. */
async function tabRows(page: Page): Promise<number> {
  const tops = await page.getByRole('navigation', { name: 'Views' }).getByRole('link').evaluateAll((links) => links.map((l) => Math.round(l.getBoundingClientRect().top)));
  return new Set(tops).size;
}

describe('the app at a phone\'s size', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launch(); });
  afterAll(async () => { await browser?.close(); });

  it('scrolls no view sideways at 390×844, empty and with content, and keeps the tabs, the title and the loop picture readable', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    const errors = collectErrors(page);
    await page.goto(`${inject('appUrl')}#start`);
    await page.locator('main#start').waitFor();

    // The header: the title on one line, the eight tabs on at most two, all inside the screen.
    const title = await page.locator('.topbar h1').evaluate((h) => ({ height: h.getBoundingClientRect().height, line: parseFloat(getComputedStyle(h).lineHeight) }));
    expect(title.height).toBeLessThan(1.5 * title.line);
    expect(await tabRows(page)).toBeLessThanOrEqual(2);

    // The loop picture: every text drawn at least 11 px high.
    const sizes = await loopTextSizes(page);
    expect(sizes.length).toBeGreaterThanOrEqual(13);
    expect(sizes.filter((s) => s.px < MIN_TEXT_PX || s.boxPx < MIN_TEXT_PX)).toEqual([]);
    expect(await page.getByRole('img', { name: 'The DreamGym loop' }).count()).toBe(1);

    const empty: Width[] = [];
    for (const view of VIEWS) empty.push(await width(page, view));
    await page.screenshot({ path: `${ARTIFACTS}/phone-start.png`, fullPage: true });

    // Content: a small seeded buffer, a shop episode in Play and in Experience, runs imported from files.
    await seedShop(page, 4);
    await openView(page, 'play');
    await page.getByRole('button', { name: /^shop/ }).click();
    await page.getByRole('button', { name: 'Start episode' }).click();
    await page.getByTestId('instruction').waitFor();
    await page.getByLabel('Search the store').fill('shoes');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('group', { name: 'Admissible actions' }).getByRole('button', { name: /^click\[b0/ }).first().waitFor();
    await openView(page, 'experience');
    await page.getByRole('button', { name: 'Start episode' }).click();
    await expect.poll(() => page.getByTestId('experience-instruction').textContent(), { timeout: 30_000 }).toMatch(/price lower than/);
    await page.getByLabel('Search the store').fill('running shoes');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { name: /^Step 1:/ }).count(), { timeout: 60_000 }).toBe(1);
    await openView(page, 'runs');
    await page.getByLabel('Run files (.json)').setInputFiles(FIXTURE);
    await expect.poll(() => page.getByTestId('runs-import-note').textContent(), { timeout: 30_000 }).toMatch(/^tiny-run\.json \(training run\): 1 run added\.$/);
    const run = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, unknown>;
    const report = {
      kind: 'dreamgym-paper-experiment', version: 1, env: 'shop', preset: 'quick', seeds: [1], createdAt: '2025-01-02T03:04:05.000Z',
      rows: [{ id: 'dream-grpo-curriculum', label: 'DreamGym GRPO with the curriculum and a long label', mode: 'dream', algo: 'grpo', runs: [{ ...run, seed: 1 }] }],
    };
    await page.getByLabel('Run files (.json)').setInputFiles({ name: 'paper-quick-with-a-rather-long-file-name.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(report)) });
    await expect.poll(() => page.getByTestId('runs-list').locator('tbody tr').count(), { timeout: 30_000 }).toBe(2);

    const full: Width[] = [];
    // The phone's layout reads as well to a screen reader as the desktop's (tests/e2e/accessibility.test.ts).
    const violations: string[] = [];
    for (const view of VIEWS) {
      full.push(await width(page, view));
      violations.push(...(await seriousViolations(page)).map((v) => `#${view}: ${v}`));
    }
    // Run names in the Runs tables read as words, not a column of single letters.
    await openView(page, 'runs');
    const nameWidths = await page.locator('table.runs-table tbody th[scope="row"], table.compare-table tbody th[scope="row"]').evaluateAll((cells) => cells.map((c) => c.getBoundingClientRect().width));
    expect(nameWidths.length).toBeGreaterThan(0);
    expect(Math.min(...nameWidths)).toBeGreaterThan(100);
    await page.screenshot({ path: `${ARTIFACTS}/phone-runs.png`, fullPage: true });

    writeFileSync(`${ARTIFACTS}/phone-layout.json`, `${JSON.stringify({ viewport: PHONE, loopText: sizes, empty, full }, null, 2)}\n`);
    for (const w of [...empty, ...full]) {
      expect(w, `${w.view} at ${PHONE.width} px`).toEqual({ view: w.view, page: PHONE.width, mainOverflow: 0, culprits: [] });
    }
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('keeps the tabs on one line beside the title at 1280 px, and the loop picture readable at a tablet\'s and a desktop\'s width', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    const errors = collectErrors(page);
    await page.goto(`${inject('appUrl')}#start`);
    await page.locator('main#start').waitFor();
    expect(await tabRows(page)).toBe(1);
    const header = await page.evaluate(() => {
      const h1 = document.querySelector('.topbar h1')!.getBoundingClientRect();
      const nav = document.querySelector('.topbar nav')!.getBoundingClientRect();
      return { navBesideTitle: nav.left > h1.right && nav.top < h1.bottom, navRight: nav.right };
    });
    expect(header.navBesideTitle).toBe(true);
    expect(header.navRight).toBeLessThanOrEqual(DESKTOP.width);
    for (const w of [DESKTOP.width, 800, 640]) {
      await page.setViewportSize({ width: w, height: DESKTOP.height });
      const sizes = await loopTextSizes(page);
      expect(sizes.length, `loop picture at ${w} px`).toBeGreaterThanOrEqual(13);
      expect(sizes.filter((s) => s.px < MIN_TEXT_PX), `loop picture at ${w} px`).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `page at ${w} px`).toBe(w);
    }
    expect(errors).toEqual([]);
  });
});
