/**
 * Runs survive a reload: a run on the wasm backend, reloaded mid-training, is offered on the Train
 * view, resumes from its checkpoint in IndexedDB and ends with the same actions digest as the same
 * run left alone.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { collectErrors, launch, number } from './browser.ts';

// Three GRPO iterations (two of about 768 steps and a last one cut to what is left of the budget):
// the reload comes once iteration 1 is saved, so the run is caught mid-training with a whole
// iteration and the cut last one still to play after the resume (each iteration takes seconds on
// wasm, the checkpoint is polled every 250 ms). The run is played twice (resumed and left alone), so
// every iteration more costs two: one iteration before the reload is what a checkpoint needs to hold
// (a policy, an optimiser and a curve), the one after it is what the restored state must reproduce.
// The final evaluation plays 20 held-out tasks, not all 500: the digest compared is of its actions.
const BUDGET = 1800;
const FINAL_EVAL_EPISODES = 20;

/** The Train form with the test's run: shop, GRPO, wasm, a checkpoint after every iteration. */
async function fillRun(page: Page): Promise<void> {
  await page.goto(`${inject('appUrl')}#train`);
  await expect.poll(() => page.getByRole('link', { name: 'Train' }).getAttribute('aria-current')).toBe('page');
  await page.getByLabel('Environment', { exact: true }).selectOption('shop');
  await page.getByLabel('Algorithm', { exact: true }).selectOption('grpo');
  await page.getByLabel('Real-transition budget').fill(String(BUDGET));
  await page.getByLabel('Seed').fill('3');
  await page.getByLabel('Evaluate every N iterations').fill('0');
  await page.getByLabel('Final evaluation episodes').fill(String(FINAL_EVAL_EPISODES));
  await page.getByText('Advanced').click();
  await page.getByLabel('Backend', { exact: true }).selectOption('wasm');
  await page.getByLabel('Save the run every N seconds').fill('0');
}

async function digestWhenDone(page: Page): Promise<string> {
  await expect.poll(() => page.getByTestId('train-state').textContent(), { timeout: 600_000, interval: 1000 }).toBe('Done');
  return (await page.getByTestId('actions-digest').textContent()) ?? '';
}

describe('a training run survives a reload', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launch(); });
  afterAll(async () => { await browser?.close(); });

  it('reloaded mid-run, it is offered, resumes, and ends with the digest of the uninterrupted run', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1100 } });
    const errors = collectErrors(page);
    await fillRun(page);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expect.poll(() => page.getByTestId('last-save').textContent(), { timeout: 480_000, interval: 250 }).toMatch(/after iteration [1-9]/);
    const spentBefore = await number(page, 'real-transitions');
    expect(spentBefore).toBeLessThan(BUDGET);

    await page.reload();
    await page.goto(`${inject('appUrl')}#train`);
    const offer = page.getByTestId('saved-run');
    await expect.poll(() => offer.textContent(), { timeout: 60_000 }).toMatch(new RegExp(`shop · GRPO · real · seed 3: \\d+ iterations done, [\\d,]+ of ${BUDGET.toLocaleString('en-US')} real transitions, saved .* on wasm\\.`));
    await page.getByRole('button', { name: 'Resume the run' }).click();
    expect(await page.getByTestId('backend').textContent()).toMatch(/^(Starting the backend|Using wasm)/);
    const resumed = await digestWhenDone(page);
    expect(await page.getByTestId('backend').textContent()).toBe('Using wasm: the backend the run was saved on, so it ends where it would have.');
    expect(resumed).toMatch(/^[0-9a-f]{16}$/);
    // The curve goes on from the checkpoint's: the chart's first iterations are those before the reload.
    expect(await page.getByTestId('train-result').textContent()).toMatch(new RegExp(`shop · GRPO · seed 3 · [\\d,]+ real transitions in \\d+ iterations.* over ${FINAL_EVAL_EPISODES} episodes\\.`));
    expect(await offer.count()).toBe(0);

    // The same run, left alone.
    await fillRun(page);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    expect(await digestWhenDone(page)).toBe(resumed);
    await page.reload();
    await page.goto(`${inject('appUrl')}#train`);
    await expect.poll(() => page.getByTestId('train-state').textContent(), { timeout: 30_000 }).toBe('Not started');
    expect(await offer.count()).toBe(0); // a run that ended leaves nothing to resume
    expect(errors).toEqual([]);
  }, 1_500_000);
});
