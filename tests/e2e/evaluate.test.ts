import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Browser, Download, Page } from 'playwright-core';
import { readPolicyHeader } from '../../src/policy/dgp.ts';
import { exportPolicy, type PolicyFileInfo } from '../../src/policy/policy-file.ts';
import { DEFAULT_POLICY, Policy } from '../../src/policy/policy.ts';
import { useBackend } from '../../src/platform/tf.ts';
import { ARTIFACTS, collectErrors, launch } from './browser.ts';

const MARKUP = '<img src=x onerror="window.__pwned=1">';

function info(env: string, algorithm: string, backend: string): PolicyFileInfo {
  return {
    env,
    algorithm,
    backend,
    training: { mode: 'real', seed: 7, realBudget: 5000, realTransitions: 4321, syntheticTransitions: 0, iterations: 6, wallSeconds: 12.5 },
    evaluation: { split: 'test', episodes: 20, successRate: 0.25, meanScore: 41.5 },
    createdAt: '2025-01-02T03:04:05.000Z',
  };
}

/** Drop a file onto the drop zone as a person dragging it from the desktop would. */
async function dropFile(page: Page, name: string, bytes: Uint8Array): Promise<void> {
  const data = await page.evaluateHandle(({ name, b64 }) => {
    const raw = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([raw], name, { type: 'application/octet-stream' }));
    return transfer;
  }, { name, b64: Buffer.from(bytes).toString('base64') });
  const zone = page.getByRole('group', { name: 'Drop a .dgp policy file here' });
  await zone.dispatchEvent('dragenter', { dataTransfer: data });
  await zone.dispatchEvent('dragover', { dataTransfer: data });
  await zone.dispatchEvent('drop', { dataTransfer: data });
}

describe('the Evaluate view, driven by a person in Chromium', () => {
  let browser: Browser;
  // One page for the three tests, as a person goes from one file to the next: the first policy
  // loaded starts the trainer worker's tfjs, which measures every backend (software WebGPU among
  // them) on the real shapes, seconds of CPU a fresh page would pay again for each test. Each test
  // loads its own policy and reads only what that load shows.
  let page: Page;
  let errors: string[];
  let dir: string;
  let shopFile: string;
  let brokenFile: string;
  let homeBytes: Uint8Array;

  beforeAll(async () => {
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 }, acceptDownloads: true });
    errors = collectErrors(page);
    // Policy files made in Node by the same code the CLI and the trainer use (random weights).
    await useBackend(['cpu']);
    dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-e2e-'));
    const shop = new Policy(DEFAULT_POLICY, 1);
    const shopBytes = await exportPolicy(shop, info('shop', 'grpo', 'webgpu'));
    shop.dispose();
    shopFile = path.join(dir, 'shop-grpo.dgp');
    writeFileSync(shopFile, shopBytes);
    brokenFile = path.join(dir, 'broken.dgp');
    writeFileSync(brokenFile, shopBytes.subarray(0, shopBytes.length - 1000));
    const home = new Policy(DEFAULT_POLICY, 2);
    homeBytes = await exportPolicy(home, info('home', 'ppo', MARKUP));
    home.dispose();
  });
  // Each test answers for the page errors of its own steps.
  beforeEach(() => { errors.length = 0; });
  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('imports a policy, shows its header, steps it, and refuses a truncated file without losing it', async () => {
    await page.goto(`${inject('appUrl')}#evaluate`);
    await expect.poll(() => page.getByRole('link', { name: 'Evaluate' }).getAttribute('aria-current')).toBe('page'); // the tab follows the hash change a tick later

    await page.getByLabel('Policy file (.dgp)').setInputFiles(shopFile);
    await expect.poll(() => page.getByTestId('policy-env').textContent(), { timeout: 30_000 }).toBe('shop');
    expect(await page.getByTestId('policy-algorithm').textContent()).toBe('grpo');
    const headerText = await page.getByTestId('policy-header').textContent();
    expect(headerText).toContain('webgpu');
    expect(headerText).toContain('4,321');
    expect(headerText).toMatch(/success 25\.0%/);
    // What the figure counts and where, the score as a person reads it.
    expect(await page.getByTestId('policy-evaluation').textContent()).toBe('success 25.0%, mean score 41.5 of 100, on 20 episodes of the test split in the real shop environment');
    // A fresh browser keeps no run: the list of kept policies says where they come from.
    expect(await page.getByTestId('stored-empty').textContent()).toMatch(/No run kept in this browser has a policy yet\. Every run the Train view or the guided run \(Start\) finishes keeps its policy/);
    // The card's held-out result is charted (a chart, not text arrows), where evaluations here will join it.
    await expect.poll(() => page.getByTestId('heldout-chart').locator('canvas').count(), { timeout: 30_000 }).toBe(1);
    const sha = readPolicyHeader(readFileSync(shopFile)).weightsSha256;
    expect(headerText).toContain(sha.slice(0, 12));

    // The split selector comes from the env worker: shop's splits, the test split first chosen.
    await expect.poll(() => page.getByLabel('Split').inputValue(), { timeout: 30_000 }).toBe('test');
    // A task number the split does not have is said beside the field, and Start waits for a good one.
    const start = page.getByRole('button', { name: 'Start episode' });
    const testSize = Number(/\((\d+)\)/.exec((await page.getByLabel('Split').locator('option:checked').textContent()) ?? '')?.[1]);
    for (const [typed, said] of [['99999', 'got 99999'], ['-5', 'got -5'], ['', 'the field is empty']] as const) {
      await page.getByLabel('Task', { exact: true }).fill(typed);
      await expect.poll(() => page.getByTestId('eval-task-problem').textContent()).toBe(`Task: a whole number from 0 to ${(testSize - 1).toLocaleString('en-US')} (the test split has ${testSize.toLocaleString('en-US')} tasks); ${said}.`);
      expect(await start.isDisabled()).toBe(true);
    }
    await page.getByLabel('Task', { exact: true }).fill('3');
    await expect.poll(() => page.getByTestId('eval-task-problem').count()).toBe(0);
    await start.click();
    await expect.poll(() => page.getByTestId('eval-instruction').textContent(), { timeout: 30_000 }).toMatch(/price lower than/);

    for (let i = 1; i <= 3; i++) {
      await page.getByRole('button', { name: 'Step', exact: true }).click();
      await expect.poll(() => page.getByRole('status').filter({ hasText: `Steps: ${i}` }).count(), { timeout: 30_000 }).toBe(1);
    }
    const action = await page.getByTestId('chosen-action').textContent();
    expect(action).toMatch(/^(search|click)\[/);
    const candidates = page.getByTestId('candidates').getByRole('listitem');
    const count = await candidates.count();
    expect(count).toBeGreaterThanOrEqual(1);
    expect(count).toBeLessThanOrEqual(5);
    expect(await candidates.first().textContent()).toMatch(/\d+\.\d%$/);

    await page.getByRole('button', { name: 'Run to end' }).click();
    await expect.poll(() => page.getByTestId('eval-status').textContent(), { timeout: 60_000 }).toMatch(/^Episode over: reward \d\.\d\d \(.+\)\.$/);

    // A truncated file: the worker's message in the alert, the loaded policy and episode unchanged.
    await page.getByLabel('Policy file (.dgp)').setInputFiles(brokenFile);
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent(), { timeout: 30_000 }).toMatch(/^broken\.dgp: the policy file is truncated/);
    expect(await page.getByTestId('policy-env').textContent()).toBe('shop');
    expect(await page.getByTestId('policy-algorithm').textContent()).toBe('grpo');
    expect(await page.getByText('shop-grpo.dgp').count()).toBe(1);
    expect(await page.getByTestId('eval-status').textContent()).toMatch(/^Episode over/);
    await page.screenshot({ path: `${ARTIFACTS}/evaluate-truncated.png`, fullPage: true });
    expect(errors).toEqual([]);
  });

  it('loads a policy dropped on the drop zone and shows file text as text', async () => {
    await page.goto(`${inject('appUrl')}#evaluate`);
    await dropFile(page, 'home.dgp', homeBytes);
    await expect.poll(() => page.getByTestId('policy-env').textContent(), { timeout: 30_000 }).toBe('home');
    expect(await page.getByTestId('policy-algorithm').textContent()).toBe('ppo');
    // The backend field carried markup: shown verbatim, never parsed.
    expect(await page.getByText(MARKUP).count()).toBe(1);
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.getByRole('alert').count()).toBe(0);

    await page.getByRole('button', { name: 'Start episode' }).click();
    await page.getByTestId('eval-instruction').waitFor();
    expect(await page.getByLabel('Split').inputValue()).toBe('valid-unseen');
    await page.getByRole('button', { name: 'Step', exact: true }).click();
    await expect.poll(() => page.getByTestId('chosen-action').count(), { timeout: 30_000 }).toBe(1);
    await page.screenshot({ path: `${ARTIFACTS}/evaluate-home.png`, fullPage: true });
    expect(errors).toEqual([]);
  });

  it('exports the loaded policy as safetensors and config.json, and loads the two back to the same weights', async () => {
    await page.goto(`${inject('appUrl')}#evaluate`);
    await page.getByLabel('Policy file (.dgp)').setInputFiles(shopFile);
    await expect.poll(() => page.getByTestId('policy-env').textContent(), { timeout: 30_000 }).toBe('shop');
    const downloads: Promise<Download>[] = [];
    page.on('download', (d) => downloads.push(Promise.resolve(d)));
    await page.getByRole('button', { name: 'Export as safetensors' }).click();
    await expect.poll(() => downloads.length, { timeout: 30_000 }).toBe(2);
    const files = await Promise.all(downloads.map(async (d) => {
      const download = await d;
      const target = path.join(dir, `exported-${download.suggestedFilename()}`);
      await download.saveAs(target);
      return target;
    }));
    expect(files.map((f) => path.basename(f)).sort()).toEqual(['exported-config.json', 'exported-model.safetensors']);
    const card = JSON.parse(readFileSync(files.find((f) => f.endsWith('.json')) as string, 'utf8'));
    expect(card).toMatchObject({ format: 'dreamgym-policy-safetensors', env: 'shop', algorithm: 'grpo' });

    // Only the weights: refused with what is missing; then both: the same policy.
    await page.getByLabel('Policy file (.dgp)').setInputFiles(files.find((f) => f.endsWith('.safetensors')) as string);
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/holds only the weights: choose it together with its config\.json/);
    await page.getByLabel('Policy file (.dgp)').setInputFiles(files);
    await expect.poll(() => page.getByText(/exported-model\.safetensors \+ exported-config\.json/).count(), { timeout: 30_000 }).toBe(1);
    const sha = readPolicyHeader(readFileSync(shopFile)).weightsSha256;
    expect(await page.getByTestId('policy-header').textContent()).toContain(sha.slice(0, 12));
    expect(errors).toEqual([]);
  });
});
