import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { fitNeuralModel } from '../../src/experience/neural/fit.ts';
import { exportNeuralModel } from '../../src/experience/neural/model-io.ts';
import { readPolicyHeader } from '../../src/policy/dgp.ts';
import { useBackend } from '../../src/platform/tf.ts';
import { seededBuffer } from '../unit/experience/fixtures.ts';
import { ARTIFACTS, collectErrors, launch, number, seedShop } from './browser.ts';

// wasm, as the real-mode Train test: SwiftShader's WebGPU is correct but slow.
const BACKEND = process.env.DREAMGYM_E2E_BACKEND ?? 'wasm';
// A few PPO iterations of 64 synthetic episodes (8 tasks played 8 times: shop's dream setting).
const BUDGET = 1200;
// The final evaluation in the real shop: 20 held-out tasks drawn with the seed, not all 500 (that
// the default plays every held-out task is train.test.ts's to pin).
const FINAL_EVAL_EPISODES = 20;

/** A small shop model made under Node, as a person would bring a .dgx file fitted elsewhere. */
async function shopModelFile(): Promise<Buffer> {
  await useBackend(['cpu']);
  const fit = await fitNeuralModel({ buffer: await seededBuffer('shop', 12, 5), env: 'shop', epochs: 1, validationShare: 0 });
  const bytes = await exportNeuralModel(fit.model, { backend: 'cpu', training: { e2e: true }, evaluation: null, createdAt: '2026-11-25T00:00:00.000Z' });
  fit.model.dispose();
  return Buffer.from(bytes);
}

describe('dream mode in the Train view, driven by a person in Chromium', () => {
  let browser: Browser;
  let model: Buffer;
  beforeAll(async () => {
    [browser, model] = await Promise.all([launch(), shopModelFile()]);
  }, 120_000);
  afterAll(async () => { await browser?.close(); });

  it('offline after the first visit: says what dream mode needs, then trains against the imported neural model with 0 real transitions, then against kNN chosen in the Experience view', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1200 }, acceptDownloads: true });
    const errors = collectErrors(page);
    // The views' tabs (the dream help text links to two of them too).
    const tab = (name: string) => page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name });

    // Offline after the first visit: once the service worker holds the app, the network goes away
    // and everything below (seeding, importing a model, a dream run, its evaluation) runs without it.
    await page.goto(inject('appUrl'));
    await page.evaluate(async () => { await navigator.serviceWorker.ready; });
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 30_000 }).toBe(true);
    await page.context().setOffline(true);
    await page.reload();
    await page.getByRole('navigation', { name: 'Views' }).waitFor();

    // Seed the buffer the model retrieves from.
    const seeded = await seedShop(page, 20);

    // Dream mode with no neural model yet: a clear message that names where to get one.
    await tab('Train').click();
    await expect.poll(() => tab('Train').getAttribute('aria-current')).toBe('page');
    await page.getByLabel('Environment', { exact: true }).selectOption('shop');
    await page.getByLabel('Algorithm', { exact: true }).selectOption('ppo');
    expect(await page.getByLabel('Curriculum').isChecked()).toBe(false);
    await page.getByLabel('Train in').selectOption('dream');
    // Dream turns the curriculum on, as the CLI's default; the budget counts synthetic transitions.
    expect(await page.getByLabel('Curriculum').isChecked()).toBe(true);
    expect(await page.getByLabel('Real-transition budget').count()).toBe(0);
    await page.getByLabel('Synthetic-transition budget').fill(String(BUDGET));
    await page.getByLabel('Evaluation episodes', { exact: true }).fill('20');
    await page.getByLabel('Final evaluation episodes').fill(String(FINAL_EVAL_EPISODES));
    if (BACKEND !== 'auto') {
      await page.getByText('Advanced').click();
      await page.getByLabel('Backend', { exact: true }).selectOption(BACKEND);
    }
    const start = page.getByRole('button', { name: 'Start', exact: true });
    const state = page.getByTestId('train-state');
    await start.click();
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 60_000 })
      .toMatch(/no neural experience model is fitted for shop in this browser: fit one \(or import a \.dgx file\) in the Experience view first/);
    expect(await state.textContent()).toBe('Failed');
    await page.screenshot({ path: `${ARTIFACTS}/train-dream-no-model.png`, fullPage: true });

    // Import a model in the Experience view, as the message says.
    await tab('Experience').click();
    await page.getByRole('heading', { name: 'Experience model', exact: true }).waitFor();
    await page.getByLabel('Import a .dgx file').setInputFiles({ name: 'shop-small.dgx', mimeType: 'application/octet-stream', buffer: model });
    await expect.poll(() => page.getByTestId('neural-model').textContent(), { timeout: 60_000 }).toMatch(/^Imported from shop-small\.dgx/);

    // Back to Train: the form kept its settings; the run dreams.
    await tab('Train').click();
    await expect.poll(() => tab('Train').getAttribute('aria-current')).toBe('page');
    expect(await page.getByLabel('Train in').inputValue()).toBe('dream');
    await start.click();
    const synthetic = () => number(page, 'synthetic-transitions');
    await expect.poll(synthetic, { timeout: 240_000, interval: 500 }).toBeGreaterThan(0);
    expect(await page.getByLabel(/synthetic transitions/).getAttribute('max')).toBe(String(BUDGET));
    expect(await page.getByTestId('real-transitions').count()).toBe(0);
    expect(await page.locator('.chart canvas').count()).toBeGreaterThanOrEqual(3);

    await expect.poll(() => state.textContent(), { timeout: 400_000, interval: 1000 }).toBe('Done');
    const used = await synthetic();
    expect(used).toBeGreaterThan(BUDGET / 2);
    expect(used).toBeLessThanOrEqual(BUDGET);
    const text = await page.getByTestId('train-result').textContent();
    expect(text).toMatch(new RegExp(`dream: ${used.toLocaleString('en-US')} synthetic transitions from neural\\S*, 0 real,`));
    // Judged in the real shop all the same.
    expect(text).toMatch(new RegExp(`Held-out split test: success \\d+\\.\\d%, score \\d+\\.\\d over ${FINAL_EVAL_EPISODES} episodes\\.`));

    // The synthetic experience joined the buffer; the real transitions are as seeded.
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByRole('button', { name: 'Export policy' }).click()]);
    expect(download.suggestedFilename()).toBe('dreamgym-shop-ppo-dream-1.dgp');
    const header = readPolicyHeader(readFileSync(await download.path()));
    expect(header).toMatchObject({ env: 'shop', algorithm: 'ppo', training: { mode: 'dream', realTransitions: 0, syntheticTransitions: used } });
    await page.screenshot({ path: `${ARTIFACTS}/train-dream-done.png`, fullPage: true });

    await tab('Buffer').click();
    await expect.poll(() => number(page, 'count-shop-synthetic'), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await number(page, 'count-shop-real')).toBe(seeded);

    // The dream uses the model chosen in the Experience view: kNN now, with k = 2 (stopped once it dreams).
    await tab('Experience').click();
    await page.getByRole('radio', { name: /^kNN/ }).check();
    await page.getByRole('button', { name: 'Use kNN' }).click();
    await expect.poll(() => page.getByTestId('active-experience').textContent(), { timeout: 30_000 }).toBe('knn');
    await page.getByLabel('Retrieved real transitions per step (k)').fill('2');
    await tab('Train').click();
    await expect.poll(() => tab('Train').getAttribute('aria-current')).toBe('page');
    expect(await page.getByTestId('dream-experience').textContent()).toBe('kNN');
    expect(await page.locator('#train-mode-help').textContent()).toMatch(/k = 2/);
    await start.click();
    await expect.poll(synthetic, { timeout: 240_000, interval: 250 }).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect.poll(() => state.textContent(), { timeout: 240_000, interval: 500 }).toBe('Stopped');
    expect(await page.getByTestId('train-result').textContent()).toMatch(/dream: [\d,]+ synthetic transitions from knn, 0 real,/);
    // A failed start before the import must not be reported as a page error.
    expect(errors).toEqual([]);
  }, 600_000);
});
