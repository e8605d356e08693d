import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ARTIFACTS, collectErrors, launch, number } from './browser.ts';

const MARKUP = '<img src=x onerror="window.__pwned=1">';
/** A word only the first imported line holds, so a search for it finds exactly that transition. */
const WORD = 'zebrafish';
const EPISODES = 20;

/** A valid transition line for the import file; `over` replaces fields (to break one on purpose). */
function transitionLine(over: Record<string, unknown>): string {
  return JSON.stringify({
    runId: 'imported-e2e',
    taskId: 'shop-imported-1',
    env: 'shop',
    instruction: 'i need a red mug, and price lower than 20.00 dollars',
    history: [],
    state: { text: 'page: search\n[1] searchbox: Search', actions: ['search[...]'] },
    action: 'search[red mug]',
    next: { text: 'page: results\n[1] button: Back to Search', actions: ['click[Back to Search]'] },
    reward: 0,
    done: false,
    source: 'synthetic',
    createdAt: 1_700_000_000_000,
    ...over,
  });
}

// Lines 3 (not JSON) and 4 (reward of the wrong type) are bad; line 5 is blank (neither).
const IMPORT_LINES = [
  transitionLine({ instruction: `find a ${WORD} tank ${MARKUP}`, action: `search[${WORD} tank]` }),
  transitionLine({ action: 'click[Back to Search]', reward: 0.5 }),
  '{"runId": "imported-e2e", "taskId": ',
  transitionLine({ reward: 'high' }),
  '',
  transitionLine({ next: { text: `page: item\n[1] text: ${MARKUP}`, actions: [] }, done: true, reward: 1 }),
];


describe('the Buffer view, driven by a person in Chromium', () => {
  let browser: Browser;
  let dir: string;
  let importFile: string;

  beforeAll(async () => {
    browser = await launch();
    dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-e2e-buffer-'));
    importFile = path.join(dir, 'mixed.jsonl');
    writeFileSync(importFile, `${IMPORT_LINES.join('\n')}\n`);
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('seeds, imports with a line-numbered report (and a second time without doubling), searches, pages, exports, and keeps it all across a reload', async () => {
    // A fresh browser context: its own, empty IndexedDB.
    const page = await browser.newPage({ viewport: { width: 1280, height: 1100 }, acceptDownloads: true });
    const errors = collectErrors(page);
    await page.goto(`${inject('appUrl')}#buffer`);
    await expect.poll(() => page.getByRole('link', { name: 'Buffer' }).getAttribute('aria-current')).toBe('page'); // the tab follows the hash change a tick later
    await expect.poll(() => number(page, 'count-total'), { timeout: 30_000 }).toBe(0);
    expect(await page.getByTestId('list-status').textContent()).toMatch(/No transitions yet/);

    // Seed 20 shop episodes: the progress completes and the counts follow.
    await page.getByLabel('Environment', { exact: true }).selectOption('shop');
    await page.getByLabel('Episodes', { exact: true }).fill(String(EPISODES));
    await page.getByLabel('Seed', { exact: true }).fill('3');
    expect(await page.getByLabel('Agent mix').inputValue()).toBe('oracle=0.6,random=0.4');
    await page.getByRole('button', { name: 'Seed the buffer' }).click();
    const seedStatus = page.getByTestId('seed-status');
    await expect.poll(() => seedStatus.textContent(), { timeout: 60_000 }).toMatch(new RegExp(`^Seeded ${EPISODES} of ${EPISODES} episodes \\(\\d+ transitions\\) as run seed-shop-3-`));
    const seeded = Number(/\((\d+) transitions\)/.exec((await seedStatus.textContent()) ?? '')?.[1]);
    expect(seeded).toBeGreaterThan(EPISODES);
    const progress = page.locator('#seed-progress');
    expect(await progress.getAttribute('value')).toBe(String(EPISODES));
    expect(await progress.getAttribute('max')).toBe(String(EPISODES));
    await expect.poll(() => number(page, 'count-total'), { timeout: 30_000 }).toBe(seeded);
    expect(await number(page, 'count-shop-real')).toBe(seeded);
    expect(await number(page, 'count-shop-synthetic')).toBe(0);
    expect(await number(page, 'count-home-real')).toBe(0);

    // Import a file with good and bad lines: good ones land, bad ones are listed by line number.
    await page.getByLabel('Import a JSONL file').setInputFiles(importFile);
    const report = page.getByTestId('import-report');
    await expect.poll(() => report.count(), { timeout: 30_000 }).toBe(1);
    expect(await page.getByTestId('import-accepted').textContent()).toBe('3');
    expect(await page.getByTestId('import-rejected').textContent()).toBe('2');
    const problems = await report.getByRole('listitem').allTextContents();
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^line 3: not JSON/);
    expect(problems[1]).toMatch(/^line 4: reward: expected number, got /);
    await expect.poll(() => number(page, 'count-total'), { timeout: 30_000 }).toBe(seeded + 3);
    expect(await number(page, 'count-shop-synthetic')).toBe(3);
    expect(await page.getByRole('alert').count()).toBe(0);

    // The same file again stores nothing twice: its good lines are counted as already here.
    await page.getByLabel('Import a JSONL file').setInputFiles(importFile);
    await expect.poll(() => page.getByTestId('import-duplicates').textContent(), { timeout: 30_000 }).toBe('3');
    expect(await page.getByTestId('import-accepted').textContent()).toBe('0');
    expect(await report.textContent()).toMatch(/3 already in the buffer, not stored again/);
    await expect.poll(() => number(page, 'count-total'), { timeout: 30_000 }).toBe(seeded + 3);
    expect(await number(page, 'count-shop-synthetic')).toBe(3);

    // The imported transitions, by filter: the file's markup is shown as text and never runs.
    await page.getByLabel('Filter by source').selectOption('synthetic');
    const items = page.getByTestId('transition-list').getByRole('listitem');
    await expect.poll(() => items.count(), { timeout: 30_000 }).toBe(3);
    expect(await page.getByTestId('transition-list').getByText(MARKUP).count()).toBe(2);
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await page.getByLabel('Filter by source').selectOption('');

    // Search: a word only one imported line holds, then a word every shop instruction holds.
    const status = page.getByTestId('list-status');
    await page.getByLabel('Search text').fill(WORD);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toBe(`1 transition matches “${WORD}”.`);
    expect(await items.count()).toBe(1);
    expect(await items.first().textContent()).toContain(`find a ${WORD} tank ${MARKUP}`);
    await page.getByLabel('Search text').fill('price');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(/^\d+ transitions match “price”/);
    expect(await items.count()).toBeGreaterThan(1);
    expect(await items.first().textContent()).toMatch(/price/i);
    await page.getByRole('button', { name: 'Clear search' }).click();

    // Browse page by page, oldest first.
    await expect.poll(() => status.textContent()).toBe(`Transitions 1–20 of ${seeded + 3}, oldest first.`);
    expect(await items.count()).toBe(20);
    expect(await items.first().textContent()).toMatch(/^#1 · shop · real · run seed-shop-3-/);
    expect(await page.getByRole('button', { name: 'Previous page' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => status.textContent()).toBe(`Transitions 21–40 of ${seeded + 3}, oldest first.`);
    expect(await items.first().textContent()).toMatch(/^#21 · /);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(() => status.textContent()).toBe(`Transitions 1–20 of ${seeded + 3}, oldest first.`);

    // Export everything: one line per stored transition, markup intact as data.
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByRole('button', { name: 'Export JSONL' }).click()]);
    expect(download.suggestedFilename()).toBe('replay-all.jsonl');
    await download.saveAs(`${ARTIFACTS}/buffer-export.jsonl`);
    const exported = readFileSync(`${ARTIFACTS}/buffer-export.jsonl`, 'utf8').split('\n').filter((l) => l.trim() !== '');
    expect(exported).toHaveLength(await number(page, 'count-total'));
    const rows = exported.map((l) => JSON.parse(l) as { env: string; instruction: string; vector?: unknown });
    expect(rows.every((r) => r.env === 'shop' && r.vector === undefined)).toBe(true);
    expect(rows.some((r) => r.instruction.includes(MARKUP))).toBe(true);

    // Asking for persistent storage answers either way, without an error.
    const persist = page.getByRole('button', { name: 'Keep data persistent' });
    if (!(await persist.isDisabled())) await persist.click();
    await expect.poll(() => page.getByTestId('persisted').textContent()).toMatch(/^(Persistent|Not persistent|Persistence: unknown)/);
    expect(await page.getByTestId('storage-usage').textContent()).toMatch(/used of/);
    await page.screenshot({ path: `${ARTIFACTS}/buffer.png`, fullPage: true });

    // A reload: everything came from IndexedDB, so the counts are still there.
    await page.reload();
    await expect.poll(() => number(page, 'count-total'), { timeout: 30_000 }).toBe(seeded + 3);
    expect(await number(page, 'count-shop-real')).toBe(seeded);
    expect(await number(page, 'count-shop-synthetic')).toBe(3);
    await expect.poll(() => items.count(), { timeout: 30_000 }).toBe(20);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `${ARTIFACTS}/buffer-dark.png`, fullPage: true });
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(errors).toEqual([]);
  }, 240_000);

  it('stops a long seeding run, keeping the episodes it stored, and deletes the run', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const errors = collectErrors(page);
    await page.goto(`${inject('appUrl')}#buffer`);
    await expect.poll(() => number(page, 'count-total'), { timeout: 30_000 }).toBe(0);

    await page.getByLabel('Episodes', { exact: true }).fill('20000');
    await page.getByRole('button', { name: 'Seed the buffer' }).click();
    const seedStatus = page.getByTestId('seed-status');
    await expect.poll(() => seedStatus.textContent(), { timeout: 60_000 }).toMatch(/^Seeding: [1-9][\d,]* \/ 20,000 episodes/);
    expect(await page.getByRole('button', { name: 'Seed the buffer' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect.poll(() => seedStatus.textContent(), { timeout: 60_000 }).toMatch(/^Stopped: seeded [\d,]+ of 20,000 episodes \([\d,]+ transitions\) as run seed-shop-1-/);
    const [, episodes, transitions] = (/seeded ([\d,]+) of .* \(([\d,]+) transitions\)/.exec((await seedStatus.textContent()) ?? '') ?? []).map((s) => Number(s?.replace(/,/g, '')));
    expect(episodes).toBeGreaterThan(0);
    expect(episodes).toBeLessThan(20_000);
    expect(await page.locator('#seed-progress').getAttribute('value')).toBe(String(episodes));
    await expect.poll(() => number(page, 'count-total'), { timeout: 30_000 }).toBe(transitions);

    // The stopped run is listed with what it stored, and deleting it empties the buffer.
    await page.getByText('Runs (1)').click();
    const runId = /run (seed-shop-1-\w+)/.exec((await seedStatus.textContent()) ?? '')?.[1] as string;
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: `Delete run ${runId}` }).click();
    await expect.poll(() => number(page, 'count-total'), { timeout: 30_000 }).toBe(0);
    expect(await page.getByText('No runs yet').count()).toBe(1);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(errors).toEqual([]);
  }, 240_000);
});
