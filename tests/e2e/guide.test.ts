/**
 * A new user's first visit: the built app opens on Start, one button runs DreamGym's loop on the shop
 * with the defaults (seed, fit, dream, real, compare), each phase narrated with its progress, and the
 * end shows the dream policy judged in the real shop beside a real-mode one, and an episode where the
 * model's imagined states stand beside the real ones. The screenshot is the README's.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { GUIDE } from '../../src/jobs/guide-plan.ts';
import { seriousViolations } from './axe.ts';
import { ARTIFACTS, collectErrors, launch } from './browser.ts';

describe('the guided first run', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launch(); });
  afterAll(async () => { await browser?.close(); });

  it('lands a first visit on Start, runs the loop with its defaults, and shows the two policies judged in the real shop', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1100 } });
    const errors = collectErrors(page);
    await page.goto(inject('appUrl'));
    await expect.poll(() => page.getByRole('link', { name: 'Start' }).getAttribute('aria-current')).toBe('page');
    expect(await page.getByRole('img', { name: 'The DreamGym loop' }).count()).toBe(1);

    // WebGPU in this headless Chromium is SwiftShader (software), minutes slower than wasm here, as in
    // the Train view's test: a person without a GPU picks wasm in Advanced.
    await page.getByText('Advanced').click();
    await page.getByLabel('Backend', { exact: true }).selectOption(process.env.DREAMGYM_E2E_BACKEND ?? 'wasm');
    await page.getByRole('button', { name: 'Run it on the shop' }).click();
    // Each phase is narrated and shows its progress while it runs.
    const seed = page.getByTestId('guide-phase-seed');
    await expect.poll(() => seed.textContent(), { timeout: 30_000 }).toMatch(/Scripted shoppers play 300 episodes/);
    await expect.poll(() => page.getByTestId('guide-phase-fit-state').textContent(), { timeout: 120_000 }).toBe('running');
    await expect.poll(() => page.getByTestId('guide-phase-dream-state').textContent(), { timeout: 300_000, interval: 1000 }).toBe('running');
    await expect.poll(() => page.getByTestId('guide-phase-dream').textContent(), { timeout: 120_000, interval: 500 }).toMatch(/[\d,]+ \/ 8,000 synthetic steps · about .* left/);

    await expect.poll(() => page.getByTestId('guide-state').textContent(), { timeout: 1_200_000, interval: 2000 }).toBe('Done.');
    for (const id of ['seed', 'fit', 'baseline', 'dream', 'real', 'compare']) expect(await page.getByTestId(`guide-phase-${id}-state`).textContent()).toBe('done');
    // The two policies, judged the same way, side by side; each figure links to where it lives.
    const dream = page.getByTestId('guide-dream');
    const real = page.getByTestId('guide-real');
    expect(await dream.textContent()).toMatch(new RegExp(`\\d+\\.\\d% success on ${GUIDE.evalEpisodes} real test tasks .*trained on 8,000 synthetic steps and 0 real ones`));
    expect(await real.textContent()).toMatch(new RegExp(`\\d+\\.\\d% success on ${GUIDE.evalEpisodes} real test tasks .*trained on 8,000 real steps`));
    expect(await page.getByTestId('guide-dream-success').getAttribute('href')).toBe('#runs');
    // Gains are measured from the policy both runs start from.
    expect(await page.getByTestId('guide-untrained').textContent()).toMatch(new RegExp(`\\d+\\.\\d% success on ${GUIDE.evalEpisodes} real test tasks`));
    expect(await page.getByTestId('guide-dream-gain').textContent()).toMatch(/^[+−]\d+\.\d points$/);
    expect(await page.getByTestId('guide-real-gain').textContent()).toMatch(/^[+−]\d+\.\d points$/);
    // The imagined episode: at least a step, the model's state beside the shop's.
    const rows = page.getByTestId('guide-comparison').locator('tbody tr');
    expect(await rows.count()).toBeGreaterThan(0);
    expect(await rows.first().locator('td').nth(2).textContent()).toMatch(/page/);
    expect(await rows.first().locator('td').nth(3).textContent()).toMatch(/page/);
    await page.screenshot({ path: `${ARTIFACTS}/guide-done.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    // The runs are kept for the Runs view; a later visit lands on Play.
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Runs' }).click();
    await expect.poll(() => page.getByRole('row').count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    await page.goto(inject('appUrl'));
    await page.reload();
    await expect.poll(() => page.getByRole('link', { name: 'Play' }).getAttribute('aria-current')).toBe('page');
    expect(errors).toEqual([]);
  }, 1_500_000);
});
