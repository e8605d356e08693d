/**
 * `auto` in the app is a measurement: a run started with the default backend probes every backend
 * headless Chromium offers in the trainer worker, trains on the one with the lowest measured cost,
 * and shows every candidate's figures beside it.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { collectErrors, launch } from './browser.ts';

describe('the backend probe in the Train view', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launch({ webgpu: true }); });
  afterAll(async () => { await browser?.close(); });

  it('chooses the backend with the lowest measured cost and shows each candidate', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const errors = collectErrors(page);
    await page.goto(`${inject('appUrl')}#train`);
    await page.getByLabel('Environment', { exact: true }).selectOption('shop');
    await page.getByLabel('Real-transition budget').fill('400');
    await page.getByLabel('Evaluation episodes', { exact: true }).fill('5');
    await page.getByText('Advanced').click();
    expect(await page.getByLabel('Backend', { exact: true }).inputValue()).toBe('auto');
    await page.getByRole('button', { name: 'Start', exact: true }).click();

    await expect.poll(() => page.getByTestId('backend').textContent(), { timeout: 120_000 }).toMatch(/^Using (webgpu|wasm|cpu): the fastest here \(/);
    const chosen = /^Using (\w+)/.exec((await page.getByTestId('backend').textContent()) ?? '')?.[1];
    const figures = await page.getByTestId('probe-figure').evaluateAll((spans) => spans.map((s) => ({ backend: s.getAttribute('data-backend'), cost: s.getAttribute('data-cost') })));
    // Every backend this Chromium offers was tried: webgpu (SwiftShader here), wasm and cpu.
    expect(figures.map((f) => f.backend).sort()).toEqual(['cpu', 'wasm', 'webgpu']);
    // The chosen one is listed first, fully measured, and no fully measured one cost less.
    expect(figures[0]?.backend).toBe(chosen);
    const measured = figures.filter((f) => f.cost !== 'cut' && f.cost !== 'error').map((f) => Number(f.cost));
    expect(Number(figures[0]?.cost)).toBe(Math.min(...measured));
    // Here, without a GPU, that is wasm.
    expect(chosen).toBe('wasm');

    await expect.poll(() => page.getByTestId('train-state').textContent(), { timeout: 240_000 }).toMatch(/^(Done|Stopped)$/);
    expect(await page.getByTestId('train-result').textContent()).toContain('the fastest the probe measured');
    expect(errors).toEqual([]);
  }, 360_000);
});
