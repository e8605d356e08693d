/**
 * Two tabs of the app importing into the one IndexedDB buffer at once: both imports land (the sum)
 * or one is refused in words that say what the other tab is doing; never fewer transitions.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { collectErrors, launch, number } from './browser.ts';

const LINES = 6000;

function file(dir: string, name: string): string {
  const line = (i: number) =>
    JSON.stringify({
      runId: `tab-${name}`, taskId: `shop-tab-${i % 50}`, env: 'shop', instruction: `find item ${i} of ${name}`, history: [],
      state: { text: `page: search\n[1] searchbox: Search ${i}`, actions: ['search[...]'] }, action: `search[item ${i}]`,
      next: { text: `page: results\n[1] button: Back to Search`, actions: ['click[Back to Search]'] }, reward: 0, done: false, source: 'real', createdAt: 1,
    });
  const target = path.join(dir, `${name}.jsonl`);
  writeFileSync(target, `${Array.from({ length: LINES }, (_, i) => line(i)).join('\n')}\n`);
  return target;
}

describe('two tabs writing one buffer', () => {
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    browser = await launch();
    dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-e2e-tabs-'));
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('imports into one store from two tabs at once give the sum of both, or a refusal naming the other import', async () => {
    // One context: both tabs share its IndexedDB, as two tabs of one site do.
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const tabs = [await context.newPage(), await context.newPage()];
    const errors = tabs.map((tab) => collectErrors(tab));
    for (const tab of tabs) {
      await tab.goto(`${inject('appUrl')}#buffer`);
      await expect.poll(() => number(tab, 'count-total'), { timeout: 30_000 }).toBe(0);
    }
    const files = [file(dir, 'a'), file(dir, 'b')];
    await Promise.all(tabs.map((tab, i) => tab.getByLabel('Import a JSONL file').setInputFiles(files[i] as string)));
    const outcome = async (i: number) => {
      const tab = tabs[i]!;
      await expect.poll(async () => (await tab.getByTestId('import-report').count()) + (await tab.getByRole('alert').count()), { timeout: 120_000 }).toBeGreaterThan(0);
      return (await tab.getByRole('alert').count()) > 0 ? ((await tab.getByRole('alert').textContent()) ?? '') : 'imported';
    };
    const outcomes = [await outcome(0), await outcome(1)];
    const imported = outcomes.filter((o) => o === 'imported').length;
    for (const refusal of outcomes.filter((o) => o !== 'imported')) expect(refusal).toMatch(/another tab of this app is importing the buffer; wait for it to finish/);
    expect(imported).toBeGreaterThanOrEqual(1);
    await tabs[0]!.reload();
    await expect.poll(() => number(tabs[0]!, 'count-total'), { timeout: 30_000 }).toBe(LINES * imported);
    // Once the other import is done, the refused tab's import goes through.
    if (imported === 1) {
      const refused = outcomes.indexOf(outcomes.find((o) => o !== 'imported') as string);
      await tabs[refused]!.reload();
      await tabs[refused]!.getByLabel('Import a JSONL file').setInputFiles(files[refused] as string);
      await expect.poll(() => tabs[refused]!.getByTestId('import-report').count(), { timeout: 120_000 }).toBe(1);
      await expect.poll(() => number(tabs[refused]!, 'count-total'), { timeout: 30_000 }).toBe(2 * LINES);
    }
    expect(errors.flat().filter((e) => !/another tab/.test(e))).toEqual([]);
    await context.close();
  }, 300_000);
});
