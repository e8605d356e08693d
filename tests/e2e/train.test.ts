import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { readPolicyHeader } from '../../src/policy/dgp.ts';
import { ARTIFACTS, collectErrors, launch } from './browser.ts';

// WebGPU in this headless Chromium is SwiftShader (software): a run of thousands of steps takes minutes
// there, seconds on wasm. So the test picks wasm through the view's Advanced selector; set
// DREAMGYM_E2E_BACKEND=auto|webgpu|cpu to drive another.
const BACKEND = process.env.DREAMGYM_E2E_BACKEND ?? 'wasm';
// Three PPO iterations or so (64 episodes each): the pause, clicked once the first has arrived,
// lands before the last one. The final evaluation is the default one (every held-out task, 500):
// the one e2e test that pins what an empty Final evaluation episodes field means.
const BUDGET = 2000;

describe('the Train view, driven by a person in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launch(); });
  afterAll(async () => { await browser?.close(); });

  it('trains shop with PPO live: backend, progress, charts, pause/resume, export, result', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1100 }, acceptDownloads: true });
    const errors = collectErrors(page);
    await page.goto(`${inject('appUrl')}#train`);
    await expect.poll(() => page.getByRole('link', { name: 'Train' }).getAttribute('aria-current')).toBe('page'); // the tab follows the hash change a tick later

    await page.getByLabel('Environment', { exact: true }).selectOption('shop');
    await page.getByLabel('Algorithm', { exact: true }).selectOption('ppo');
    await page.getByLabel('Real-transition budget').fill(String(BUDGET));
    await page.getByLabel('Evaluation episodes', { exact: true }).fill('20');
    if (BACKEND !== 'auto') {
      await page.getByText('Advanced').click();
      await page.getByLabel('Backend', { exact: true }).selectOption(BACKEND);
    }
    const state = page.getByTestId('train-state');
    const exportButton = page.getByRole('button', { name: 'Export policy' });
    expect(await exportButton.isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Start', exact: true }).click();

    await expect.poll(() => page.getByTestId('backend').textContent(), { timeout: 60_000 }).toMatch(/^Using (webgpu|wasm|cpu)\b/);
    if (BACKEND !== 'auto') expect(await page.getByTestId('backend').textContent()).toBe(`Using ${BACKEND}: the one the form names.`);
    expect(await page.getByRole('button', { name: 'Start', exact: true }).isDisabled()).toBe(true);

    // The first iteration arrives: progress and the charts' canvases.
    const transitions = async () => Number((await page.getByTestId('real-transitions').textContent())?.replace(/,/g, ''));
    await expect.poll(transitions, { timeout: 240_000, interval: 500 }).toBeGreaterThan(0);
    expect(await page.locator('.chart canvas').count()).toBeGreaterThanOrEqual(3);
    expect(await page.getByLabel(/real transitions/).getAttribute('max')).toBe(String(BUDGET));

    // Pause, export while paused, resume.
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => state.textContent(), { timeout: 30_000 }).toBe('Paused');
    // One button: Pause becomes Resume while paused.
    expect(await page.getByRole('button', { name: 'Resume' }).isDisabled()).toBe(false);
    expect(await page.getByRole('button', { name: 'Pause' }).count()).toBe(0);
    const [paused] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), exportButton.click()]);
    expect(paused.suggestedFilename()).toBe('dreamgym-shop-ppo-1.dgp');
    const pausedBytes = readFileSync(await paused.path());
    expect(pausedBytes.subarray(0, 4).toString('latin1')).toBe('DGPF');
    expect(readPolicyHeader(pausedBytes)).toMatchObject({ env: 'shop', algorithm: 'ppo' });
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => state.textContent(), { timeout: 30_000 }).toMatch(/^(Training|Done)$/);

    // The run finishes: the held-out result, then the final policy exported.
    await expect.poll(() => state.textContent(), { timeout: 400_000, interval: 1000 }).toBe('Done');
    expect(await page.getByTestId('train-result').textContent()).toMatch(/Held-out split test: success \d+\.\d%, score \d+\.\d over 500 episodes\./);
    // The budget is a cap: the last round stops when another episode step would not fit.
    const used = await transitions();
    expect(used).toBeGreaterThan(BUDGET / 2);
    expect(used).toBeLessThanOrEqual(BUDGET);
    const [final] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), exportButton.click()]);
    expect(final.suggestedFilename()).toBe('dreamgym-shop-ppo-1.dgp');
    await final.saveAs(`${ARTIFACTS}/browser-export.dgp`);
    const bytes = readFileSync(`${ARTIFACTS}/browser-export.dgp`);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('DGPF');
    const header = readPolicyHeader(bytes);
    expect(header).toMatchObject({ env: 'shop', algorithm: 'ppo', training: { realTransitions: used } });

    await page.screenshot({ path: `${ARTIFACTS}/train-done.png`, fullPage: true });
    // The charts follow the colour scheme (they are redrawn when it flips).
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => page.locator('.chart canvas').count()).toBe(3);
    await page.screenshot({ path: `${ARTIFACTS}/train-done-dark.png`, fullPage: true });
    expect(errors).toEqual([]);
  }, 600_000);
});
