/**
 * Where real RL is impractical (issue 27), in the built app: a person records demonstrations of an
 * app-like task by playing its live page (here the oracle plays while Record is on), fits the
 * experience model on them, trains a policy in the dream on that task alone, and reads its result
 * on the task's held-out live pages.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ARTIFACTS, collectErrors, launch, number } from './browser.ts';

/** The suite's train split lists each seed's 30 tasks in the site's order; feed-like is the 23rd. */
const FEED_LIKE = 22;
const DEMONSTRATIONS = 3;

describe('record → fit → dream → evaluate on a bundled app-like task', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launch(); });
  afterAll(async () => { await browser?.close(); });

  it('trains a policy from a person\'s demonstrations on the live pages, with no real RL', { timeout: 600_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1200 } });
    const errors = collectErrors(page);
    const tab = (name: string) => page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name });

    // Record: the task's train instances, played on the live page with Record on.
    await page.goto(`${inject('appUrl')}#play`);
    await page.getByRole('button', { name: /^web/ }).click();
    await page.getByLabel('Split', { exact: true }).selectOption('train');
    const status = page.getByTestId('status');
    for (let i = 0; i < DEMONSTRATIONS; i++) {
      await page.getByLabel('Task', { exact: true }).fill(String(FEED_LIKE + 30 * i));
      await page.getByRole('button', { name: 'Start episode' }).click();
      await expect.poll(() => page.getByRole('heading', { name: /^Task / }).textContent(), { timeout: 30_000 }).toContain(`feed-like:${i}`);
      // The Record switch shows with the first episode and stays on.
      if (i === 0) await page.getByLabel(/Record the steps played/).check();
      await page.getByRole('button', { name: 'Watch the oracle play' }).click();
      await expect.poll(() => status.textContent(), { timeout: 30_000, interval: 300 }).toBe('Episode over: reward 1.00 (success).');
    }
    const recorded = Number(/^(\d+) recorded/.exec((await page.getByTestId('recorded').textContent()) ?? '')?.[1]);
    expect(recorded).toBeGreaterThanOrEqual(DEMONSTRATIONS);

    // Fit: the Experience view's neural model for web, on the buffer's demonstrations.
    await tab('Experience').click();
    await page.getByRole('heading', { name: 'Experience model', exact: true }).waitFor();
    await page.getByLabel('Environment', { exact: true }).selectOption('web');
    await page.getByLabel('Epochs', { exact: true }).fill('2');
    // The build ships the pretrained web weights: the fit starts from the pretrained model unless unticked.
    await expect.poll(() => page.getByLabel('From the pretrained web model').isChecked(), { timeout: 30_000 }).toBe(true);
    await page.getByRole('button', { name: 'Fit', exact: true }).click();
    await expect.poll(() => page.getByTestId('fit-status').textContent(), { timeout: 240_000, interval: 500 }).toBe('Fitted.');
    expect(await page.getByTestId('neural-model').textContent()).toMatch(new RegExp(`^Fine-tuned from the pretrained web model .* · ${recorded} real transitions`));

    // Dream: the Train view on feed-like alone, 0 real transitions; the final evaluation plays its 30 held-out pages.
    await tab('Train').click();
    await page.getByLabel('Environment', { exact: true }).selectOption('web');
    await page.getByLabel('Tasks', { exact: true }).fill('feed-like');
    await page.getByLabel('Train in').selectOption('dream');
    expect(await page.getByLabel('Start from the pretrained web policy').isChecked()).toBe(true);
    await page.getByLabel('Synthetic-transition budget').fill('160');
    await page.getByLabel('Evaluation episodes', { exact: true }).fill('10');
    await page.getByText('Advanced').click();
    await page.getByLabel('Backend', { exact: true }).selectOption('wasm');
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expect.poll(async () => `${await page.getByTestId('train-state').textContent()} ${await page.getByRole('alert').allTextContents()}`, { timeout: 480_000, interval: 1000 }).toMatch(/^Done $/);
    const result = (await page.getByTestId('train-result').textContent()) ?? '';
    expect(result).toMatch(/^web \(tasks feed-like\) · PPO · seed 1 · dream: [\d,]+ synthetic transitions from neural\S*, 0 real, in \d+ iterations from the pretrained web policy \(/);
    expect(result).toMatch(/Held-out split test: success \d+\.\d%, score \d+\.\d over 30 episodes\./);
    await page.screenshot({ path: `${ARTIFACTS}/web-demonstrations-dream.png`, fullPage: true });

    // A Tasks entry the site does not have is refused by name, before any step.
    await page.getByLabel('Tasks', { exact: true }).fill('feed-liek');
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 60_000 }).toMatch(/Tasks: the site "suite" has no task "feed-liek"/);

    // The buffer holds the demonstrations as real web transitions, beside the dream's synthetic ones.
    await tab('Buffer').click();
    await expect.poll(() => number(page, 'count-web-real'), { timeout: 30_000 }).toBe(recorded);
    expect(await number(page, 'count-web-synthetic')).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });
});
