/**
 * A finished run's policy is not a dead end: a tiny run trained in the Train view is kept with its
 * policy; Runs downloads that policy and opens it in Evaluate in one click; Evaluate plays it on 10
 * held-out tasks in the real environment with progress, says what the result counts and where,
 * and charts it beside the run's training curve; a reload opens the same run again.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { readPolicyHeader } from '../../src/policy/dgp.ts';
import { ARTIFACTS, collectErrors, launch } from './browser.ts';

// As in train.test.ts: wasm is seconds where software WebGPU is minutes.
const BACKEND = process.env.DREAMGYM_E2E_BACKEND ?? 'wasm';
const BUDGET = 600;
const EPISODES = 10;

const tab = (page: Page, name: string) => page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name, exact: true });

describe('a finished run\'s policy, from Runs to Evaluate, driven by a person in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launch(); });
  afterAll(async () => { await browser?.close(); });

  it('trains a tiny run, downloads its policy, evaluates it on 10 held-out tasks from Runs, and reopens it after a reload', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1100 }, acceptDownloads: true });
    const errors = collectErrors(page);
    await page.goto(`${inject('appUrl')}#train`);
    await expect.poll(() => tab(page, 'Train').getAttribute('aria-current')).toBe('page');
    await page.getByLabel('Environment', { exact: true }).selectOption('shop');
    await page.getByLabel('Algorithm', { exact: true }).selectOption('ppo');
    await page.getByLabel('Real-transition budget').fill(String(BUDGET));
    await page.getByLabel('Evaluate every N iterations').fill('0');
    await page.getByLabel('Final evaluation episodes').fill(String(EPISODES));
    if (BACKEND !== 'auto') {
      await page.getByText('Advanced', { exact: true }).click();
      await page.getByLabel('Backend', { exact: true }).selectOption(BACKEND);
    }
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expect.poll(() => page.getByTestId('train-state').textContent(), { timeout: 400_000, interval: 1000 }).toBe('Done');

    // Runs: the run is listed with its policy's two actions.
    await tab(page, 'Runs').click();
    const list = page.getByTestId('runs-list');
    await expect.poll(() => list.locator('tbody tr').count(), { timeout: 30_000 }).toBe(1);
    const label = 'shop PPO real seed 1';
    expect(await list.locator('tbody tr').first().textContent()).toContain(label);
    const heldOutCell = (await list.locator('tbody tr').first().locator('td').nth(5).textContent()) ?? '';
    expect(heldOutCell).toMatch(new RegExp(`^\\d+\\.\\d% \\(${EPISODES} ep\\.\\)$`));
    const trainedSuccess = heldOutCell.split(' ')[0];

    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByRole('button', { name: `Download policy (.dgp) of ${label}` }).click()]);
    expect(download.suggestedFilename()).toBe('shop-ppo-real-seed-1.dgp');
    await download.saveAs(`${ARTIFACTS}/run-policy.dgp`);
    const bytes = readFileSync(`${ARTIFACTS}/run-policy.dgp`);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('DGPF');
    expect(readPolicyHeader(bytes)).toMatchObject({ env: 'shop', algorithm: 'ppo', training: { mode: 'real', seed: 1 }, evaluation: { episodes: EPISODES } });

    // One click: Evaluate opens on that run's policy.
    await page.getByRole('button', { name: `Evaluate the policy of ${label}` }).click();
    await expect.poll(() => tab(page, 'Evaluate').getAttribute('aria-current')).toBe('page');
    expect(page.url()).toMatch(/#evaluate\?run=run-/);
    await expect.poll(() => page.getByTestId('policy-source').textContent(), { timeout: 30_000 }).toBe(`of the run ${label}`);
    expect(await page.getByTestId('policy-env').textContent()).toBe('shop');
    expect(await page.getByLabel('Run', { exact: true }).inputValue()).toMatch(/^run-/);
    expect(await page.getByTestId('policy-evaluation').textContent())
      .toMatch(new RegExp(`^success \\d+\\.\\d%, mean score \\d+\\.\\d of 100, on ${EPISODES} episodes of the test split in the real shop environment$`));
    // The run's training curve is a chart, not text.
    await expect.poll(() => page.getByTestId('heldout-chart').locator('canvas').count(), { timeout: 30_000 }).toBe(1);

    // Evaluate on N held-out tasks: a field bounded by the split, progress, then the result.
    const field = page.getByLabel('Held-out tasks', { exact: true });
    expect(await field.inputValue()).toBe('100');
    await field.fill('0');
    await expect.poll(() => page.getByTestId('heldout-problem').textContent()).toMatch(/^Held-out tasks: a whole number from 1 to [\d,]+ \(the test split has [\d,]+ tasks\); got 0\.$/);
    await field.fill(String(EPISODES));
    const run = page.getByRole('button', { name: `Evaluate on ${EPISODES} held-out tasks` });
    expect(await run.isDisabled()).toBe(false);
    await run.click();
    const result = page.getByTestId('heldout-result');
    await expect.poll(() => result.count(), { timeout: 120_000 }).toBe(1);
    const text = (await result.textContent()) ?? '';
    expect(text).toMatch(new RegExp(`^Success \\d+\\.\\d% \\(\\d+ of ${EPISODES} held-out test tasks\\) in the real shop environment · mean score \\d+\\.\\d of 100 · \\d+\\.\\d steps per episode · \\d+(\\.\\d)? s$`));
    // The same tasks (drawn with the run's seed), the same policy, the same backend: the run's own final result.
    expect(text.split(' ')[1]).toBe(trainedSuccess);
    expect(await page.getByTestId('heldout-progress').count()).toBe(0);
    await expect.poll(() => page.getByTestId('heldout-chart').locator('canvas').count()).toBe(1);
    expect(await page.getByTestId('heldout-chart').textContent()).toContain(`held-out, evaluated here (real shop, ${EPISODES} episodes)`);
    await page.screenshot({ path: `${ARTIFACTS}/evaluate-run.png`, fullPage: true });

    // A reload opens the same run's policy again.
    await page.reload();
    await expect.poll(() => page.getByTestId('policy-source').textContent(), { timeout: 60_000 }).toBe(`of the run ${label}`);
    expect(await page.getByRole('alert').count()).toBe(0);

    // A larger evaluation shows its progress while it plays, and Stop keeps what was played.
    await page.getByLabel('Held-out tasks', { exact: true }).fill('400');
    await page.getByRole('button', { name: 'Evaluate on 400 held-out tasks' }).click();
    await expect.poll(() => page.getByTestId('heldout-progress').textContent(), { timeout: 30_000 })
      .toMatch(/^Playing in the real shop environment: \d+ \/ 400 episodes · (about .+ left|time left known after the first episode)$/);
    await page.getByRole('button', { name: 'Stop', exact: true }).first().click();
    await expect.poll(() => result.textContent(), { timeout: 120_000 }).toMatch(/ held-out test tasks; stopped after \d+ of 400 asked\) in the real shop environment| of 400 held-out test tasks\) in the real shop environment/);

    // On a phone: the view with its result and chart, and Runs with the run's actions, never scroll sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
    await expect.poll(pageWidth).toBe(390);
    await page.screenshot({ path: `${ARTIFACTS}/evaluate-run-phone.png`, fullPage: true });
    await tab(page, 'Runs').click();
    await expect.poll(() => page.getByRole('button', { name: `Evaluate the policy of ${label}` }).count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(pageWidth).toBe(390);
    await page.screenshot({ path: `${ARTIFACTS}/runs-policy-phone.png`, fullPage: true });
    expect(errors).toEqual([]);
  }, 600_000);
});
