import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ARTIFACTS, collectErrors, launch } from './browser.ts';

describe('the built app, played by a person in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launch(); });
  afterAll(async () => { await browser?.close(); });

  it('plays a shop episode by clicks through to Buy Now and shows the reward', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectErrors(page);
    await page.goto(`${inject('appUrl')}#play`);
    await page.getByRole('button', { name: /^shop/ }).click();
    await page.getByRole('button', { name: 'Start episode' }).click();
    const instruction = await page.getByTestId('instruction').textContent();
    expect(instruction).toMatch(/price lower than/);

    // A person types part of the instruction, opens the first product and buys it.
    const query = instruction!.replace(/,? and price lower than.*$/, '').split(' with ')[0]!;
    await page.getByLabel('Search the store').fill(query);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.getByText('page', { exact: true }).count()).toBeGreaterThan(0);
    const firstProduct = page.getByRole('group', { name: 'Admissible actions' }).getByRole('button', { name: /^click\[b0/ }).first();
    await firstProduct.click();
    await page.getByRole('button', { name: 'click[Buy Now]' }).waitFor();
    await page.getByRole('button', { name: 'click[Buy Now]' }).click();

    const status = page.getByTestId('status');
    await expect.poll(() => status.textContent()).toMatch(/^Episode over: reward \d\.\d\d \((success|not a success)\)\.$/);
    const total = Number(await page.getByTestId('total-reward').textContent());
    expect(total).toBeGreaterThanOrEqual(0);
    expect(total).toBeLessThanOrEqual(1);
    expect(await page.getByRole('listitem').filter({ hasText: 'click[Buy Now]' }).count()).toBe(1);
    await page.screenshot({ path: `${ARTIFACTS}/shop-episode.png`, fullPage: true });
    expect(errors).toEqual([]);
  });

  it('lets a person watch the oracle win a home episode step by step', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectErrors(page);
    await page.goto(`${inject('appUrl')}#play`);
    await page.getByRole('button', { name: /^home/ }).click();
    await page.getByRole('button', { name: 'Start episode' }).click();
    await page.getByTestId('instruction').waitFor();
    await page.getByRole('button', { name: 'Watch the oracle play' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Pause the oracle' }).count()).toBe(1);
    await expect
      .poll(() => page.getByTestId('status').textContent(), { timeout: 60_000, interval: 500 })
      .toBe('Episode over: reward 1.00 (success).');
    expect(await page.getByRole('listitem').filter({ hasText: /^oracle/ }).count()).toBeGreaterThan(2);
    await page.screenshot({ path: `${ARTIFACTS}/home-oracle.png`, fullPage: true });
    expect(errors).toEqual([]);
  });

  it('shows environment text as text, never as markup', async () => {
    const page = await browser.newPage();
    await page.goto(`${inject('appUrl')}#play`);
    await page.getByRole('button', { name: 'Start episode' }).click();
    await page.getByLabel('Type any action').fill('search[<img src=x onerror="window.__pwned=1"> shoes]');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByText('<img src=x onerror="window.__pwned=1"> shoes').count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('.state img').count()).toBe(0);
    // An invalid action: the transcript says why, in the env's words (malformed here), not only "invalid".
    await page.getByLabel('Type any action').fill('dance[wildly');
    await page.getByRole('button', { name: 'Send' }).click();
    const last = page.locator('ol.transcript > li').last();
    await expect.poll(() => last.textContent()).toMatch(/dance\[wildly → reward 0\.00 \(invalid: "dance\[wildly" is not a well-formed action \(search\[\.\.\.\] or click\[\.\.\.\]\), so nothing changes/);
    // and so does the status line a screen reader announces, not only "not valid here".
    expect(await page.getByTestId('status').textContent())
      .toBe('That action is not valid here. "dance[wildly" is not a well-formed action (search[...] or click[...]), so nothing changes and the reward is 0.');
  });
});
