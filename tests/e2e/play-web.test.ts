/**
 * Web pages in the built app: a person plays a bundled task on the live page (clicks and typing on
 * the page become the agent's actions), records it into the replay buffer, watches the oracle on
 * the live page, and opens a folder of pages of their own, which runs in an opaque origin.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS, collectErrors, launch, number } from './browser.ts';

async function startTask(page: Page, task: string): Promise<void> {
  // The bundled suite's test split lists each seed's 30 tasks in the site's order.
  const order = ['click-button', 'click-link', 'click-button-sequence', 'enter-text', 'enter-text-enter', 'login-user'];
  await page.getByLabel('Task', { exact: true }).fill(String(order.indexOf(task)));
  await page.getByRole('button', { name: 'Start episode' }).click();
  // The new episode's task (the instruction of the last one stays until it has started).
  await expect.poll(() => page.getByRole('heading', { name: /^Task / }).textContent(), { timeout: 30_000 }).toContain(`${task}:`);
  await page.frameLocator('iframe.live-page').locator('body').waitFor();
}

/** Starts a real-mode run on `web` in the Train view (wasm: SwiftShader's WebGPU is slow here). */
async function startWebTraining(page: Page, budget: number, algo?: 'ppo' | 'grpo'): Promise<void> {
  await page.getByLabel('Environment', { exact: true }).selectOption('web');
  if (algo) await page.getByLabel('Algorithm', { exact: true }).selectOption(algo);
  await page.getByLabel('Real-transition budget').fill(String(budget));
  await page.getByText('Advanced').click();
  await page.getByLabel('Backend', { exact: true }).selectOption('wasm');
  await page.getByRole('button', { name: 'Start', exact: true }).click();
}

describe('web pages in the built app', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launch(); });
  afterAll(async () => { await browser?.close(); });

  it('a person plays a task on the live page, and the steps are recorded into the buffer', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const errors = collectErrors(page);
    await page.goto(`${inject('appUrl')}#play`);
    await page.getByRole('button', { name: /^web/ }).click();
    await startTask(page, 'enter-text-enter');
    await page.getByLabel(/Record the steps played/).check();
    const instruction = (await page.getByTestId('instruction').textContent()) ?? '';
    const wanted = /"([^"]+)"/.exec(instruction)?.[1];
    expect(wanted, instruction).toBeTruthy();

    // Typing into the page's field and pressing Enter: two steps, the type and the key.
    const live = page.frameLocator('iframe.live-page');
    const field = live.locator('input').first();
    await field.fill(wanted as string);
    await field.press('Enter');
    const status = page.getByTestId('status');
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toBe('Episode over: reward 1.00 (success).');
    expect(await page.getByRole('listitem').filter({ hasText: /^you type\[#\d+/ }).count()).toBe(1);
    expect(await page.getByRole('listitem').filter({ hasText: /^you press\[#\d+ .* \| Enter\]/ }).count()).toBe(1);
    await expect.poll(() => page.getByTestId('recorded').textContent()).toMatch(/^2 recorded/);

    // A click on the page's button is the agent's click; the page reacts once, to the env's step.
    await startTask(page, 'click-button');
    const target = /"([^"]+)"/.exec((await page.getByTestId('instruction').textContent()) ?? '')?.[1] as string;
    await live.getByRole('button', { name: target, exact: true }).click();
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toBe('Episode over: reward 1.00 (success).');
    expect(await page.getByRole('listitem').filter({ hasText: new RegExp(`^you click\\[#\\d+ ${target}\\]`) }).count()).toBe(1);
    await expect.poll(() => page.getByTestId('recorded').textContent()).toMatch(/^3 recorded/);
    await page.screenshot({ path: `${ARTIFACTS}/web-live-page.png`, fullPage: true });

    // The Buffer view holds the demonstration as real web transitions.
    await page.goto(`${inject('appUrl')}#buffer`);
    await expect.poll(() => number(page, 'count-web-real'), { timeout: 30_000 }).toBe(3);
    expect(errors).toEqual([]);
  });

  it('the oracle plays on the live page, and a folder of the person\'s own pages runs as the web env (in Play and in Train)', { timeout: 300_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const errors = collectErrors(page);
    await page.goto(`${inject('appUrl')}#play`);
    await page.getByRole('button', { name: /^web/ }).click();
    await startTask(page, 'login-user');
    await page.getByRole('button', { name: 'Watch the oracle play' }).click();
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 30_000, interval: 300 }).toBe('Episode over: reward 1.00 (success).');

    await page.getByLabel('Open a site folder').setInputFiles(path.resolve('examples/sites/page-globals'));
    await expect.poll(() => page.getByText(/Playing the site page-globals/).count(), { timeout: 60_000 }).toBe(1);
    await page.getByLabel('Task', { exact: true }).fill('0');
    await page.getByRole('button', { name: 'Start episode' }).click();
    const instruction = page.getByTestId('instruction');
    await expect.poll(() => instruction.textContent()).toMatch(/^Click the \w+ button\.$/);
    const colour = /Click the (\w+) button/.exec((await instruction.textContent()) ?? '')?.[1] as string;
    const live = page.frameLocator('iframe.live-page');
    // The page runs in an opaque origin: it cannot reach the app's storage.
    await expect.poll(() => live.locator('body').evaluate(() => self.origin)).toBe('null');
    await live.getByRole('button', { name: colour, exact: true }).click();
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 20_000 }).toBe('Episode over: reward 1.00 (success).');
    // The site has no oracle: asking for one says so.
    await page.getByRole('button', { name: 'Start episode' }).click();
    await page.getByRole('button', { name: 'Oracle: next step' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/no oracle for task "click-color"/);
    // The Train view trains on the folder's pages too: its frames are the written, opaque-origin ones.
    await page.goto(`${inject('appUrl')}#train`);
    await startWebTraining(page, 60);
    await expect.poll(() => page.locator('[data-testid="live-pages"] iframe.live-page[srcdoc]').count(), { timeout: 120_000 }).toBeGreaterThan(0);
    expect(await page.locator('[data-testid="live-pages"] iframe.live-page:not([srcdoc])').count()).toBe(0);
    // Stopped once its pages are playing: the run ends after its current iteration, never in error.
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(async () => `${await page.getByTestId('train-state').textContent()} ${await page.getByRole('alert').allTextContents()}`, { timeout: 120_000 }).toMatch(/^(Done|Stopped) $/);
    expect(await page.getByTestId('train-result').textContent()).toMatch(/^web · /);
    await page.goto(`${inject('appUrl')}#play`);
    await page.getByRole('button', { name: 'Back to the bundled suite' }).click();
    await expect.poll(() => page.getByText(/Playing the site/).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('trains on live pages in the Train view, and the Evaluate view plays a policy on the live page', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1100 }, acceptDownloads: true });
    const errors = collectErrors(page);
    await page.goto(`${inject('appUrl')}#train`);
    await expect.poll(() => page.getByRole('link', { name: 'Train' }).getAttribute('aria-current')).toBe('page');
    await startWebTraining(page, 400, 'grpo');
    // Training's episodes play on pages in the view, several at once.
    await expect.poll(() => page.locator('[data-testid="live-pages"] iframe.live-page').count(), { timeout: 60_000 }).toBeGreaterThan(1);
    const transitions = async () => Number((await page.getByTestId('real-transitions').textContent())?.replace(/,/g, ''));
    await expect.poll(transitions, { timeout: 120_000, interval: 500 }).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => page.getByTestId('train-state').textContent(), { timeout: 60_000 }).toMatch(/^(Stopped|Done)$/);
    await page.screenshot({ path: `${ARTIFACTS}/web-train-live-pages.png`, fullPage: true });

    // The trained policy, exported, plays a held-out task on the live page in the Evaluate view.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export policy' }).click();
    const file = await (await download).path();
    await page.goto(`${inject('appUrl')}#evaluate`);
    await page.getByLabel('Policy file (.dgp)').setInputFiles(file);
    await expect.poll(() => page.getByTestId('policy-env').textContent(), { timeout: 30_000 }).toBe('web');
    await page.getByRole('button', { name: 'Start episode' }).click();
    await page.frameLocator('[data-testid="live-pages"] iframe.live-page').locator('body').waitFor();
    expect(await page.locator('[data-testid="live-pages"] iframe.live-page').count()).toBe(1);
    await page.getByRole('button', { name: 'Run to end' }).click();
    await expect.poll(() => page.getByTestId('eval-status').textContent(), { timeout: 60_000 }).toMatch(/^Episode over/);
    expect(errors).toEqual([]);
  });
});
