/**
 * The Evaluate view's trace report (issue 57, "Watch the agent"): a web episode the view plays is
 * downloaded as the HTML page `rollout --trace` writes (the same builder), with a picture of the
 * page at every step, drawn inside the page's frame: a bundled page's (same origin) and a page of
 * a folder the person opened (an opaque origin the app cannot reach into).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { exportPolicy } from '../../src/policy/policy-file.ts';
import { DEFAULT_POLICY, Policy } from '../../src/policy/policy.ts';
import { useBackend } from '../../src/platform/tf.ts';
import { ARTIFACTS, collectErrors, launch } from './browser.ts';

/** Markup in the folder's instruction and a button's name: text in the report, never markup. */
const HOSTILE = '<img src=x onerror="document.title=\'pwned\'"><script>document.title="pwned"</script>';

/** A folder of one page with a hostile instruction and button; Done wins. */
function hostileFolder(dir: string): string {
  const site = path.join(dir, 'hostile-site');
  mkdirSync(site, { recursive: true });
  const literal = (text: string): string => JSON.stringify(text).replace(/</g, '\\u003c');
  writeFileSync(path.join(site, 'a.html'), `<!doctype html><html lang="en"><head><title>Hostile</title>
<style>body { background: #fffbe6; font: 18px sans-serif; } button { background: #2e7d32; color: #fff; }</style></head><body>
<p id="query"></p><button id="bad"></button> <button onclick="window.R = 1; window.D = true">Done</button>
<script>document.getElementById('query').textContent = ${literal(`Press Done. ${HOSTILE}`)};
document.getElementById('bad').textContent = ${literal(HOSTILE)};</script></body></html>`);
  writeFileSync(path.join(site, 'site.json'), JSON.stringify({
    name: 'hostile',
    tasks: [{ id: 'press-done', page: 'a.html' }],
    seeds: { train: [0, 5], test: [5, 7] },
    maxSteps: 3,
    hooks: { start: 'window.R = 0; window.D = false', instruction: "document.getElementById('query').textContent", reward: 'window.R', done: 'window.D' },
  }));
  return site;
}

interface ReadStep {
  picture: number;
  state: string;
  action: string;
  probability: string;
  alternatives: number;
  reward: string;
}

describe('the Evaluate view\'s trace report', () => {
  let browser: Browser;
  let dir: string;
  let policyFile: string;

  beforeAll(async () => {
    browser = await launch();
    dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-e2e-trace-'));
    // A web policy with random weights, made by the code the trainer uses.
    await useBackend(['cpu']);
    const policy = new Policy(DEFAULT_POLICY, 5);
    policyFile = path.join(dir, 'web.dgp');
    writeFileSync(policyFile, await exportPolicy(policy, {
      env: 'web', algorithm: 'grpo', backend: 'cpu', evaluation: null, createdAt: '2025-01-02T03:04:05.000Z',
      training: { mode: 'real', seed: 5, realTransitions: 0, syntheticTransitions: 0, iterations: 0 },
    }));
    policy.dispose();
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Plays task `task` of the loaded policy's test split to the end, downloads the report, and returns its file. */
  async function playAndDownload(page: Page, task: number, name: string): Promise<string> {
    await page.getByLabel('Task', { exact: true }).fill(String(task));
    await page.getByRole('button', { name: 'Start episode' }).click();
    await page.frameLocator('[data-testid="live-pages"] iframe.live-page').locator('body').waitFor();
    await page.getByRole('button', { name: 'Run to end' }).click();
    await expect.poll(() => page.getByTestId('eval-status').textContent(), { timeout: 60_000 }).toMatch(/^Episode over/);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download the report' }).click();
    const file = path.join(dir, name);
    await (await download).saveAs(file);
    return file;
  }

  /** The report opened offline: each step's picture width, state, action, probability, alternatives and reward, and every request made. */
  async function readReport(file: string) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(pathToFileURL(file).href);
    await page.waitForFunction(() => [...document.images].every((image) => image.complete));
    const read = await page.evaluate(() => ({
      title: document.title,
      scripts: document.scripts.length,
      outcome: document.querySelector('section.episode p.outcome')?.textContent ?? '',
      endPicture: document.querySelector<HTMLImageElement>('article.end img.picture')?.naturalWidth ?? 0,
      steps: [...document.querySelectorAll('article.step')].map((step): ReadStep => ({
        picture: step.querySelector<HTMLImageElement>('img.picture')?.naturalWidth ?? 0,
        state: step.querySelector('pre.state')?.textContent ?? '',
        action: step.querySelector('.action code')?.textContent ?? '',
        probability: step.querySelector('.action .prob')?.textContent ?? '',
        alternatives: step.querySelectorAll('ol.alternatives li').length,
        reward: step.querySelector('.reward b')?.textContent ?? '',
      })),
    }));
    return { ...read, requests, page };
  }

  it('downloads a web episode with every step\'s page, state, action, probability, alternatives and reward', { timeout: 240_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1100 }, acceptDownloads: true });
    const errors = collectErrors(page);
    await page.goto(`${inject('appUrl')}#evaluate`);
    await page.getByLabel('Policy file (.dgp)').setInputFiles(policyFile);
    await expect.poll(() => page.getByTestId('policy-env').textContent(), { timeout: 30_000 }).toBe('web');
    await expect.poll(() => page.getByLabel('Split').inputValue(), { timeout: 30_000 }).toBe('test');

    // A bundled page (its frame on the app's origin).
    const bundled = await readReport(await playAndDownload(page, 0, 'bundled.html'));
    expect(bundled.steps.length).toBeGreaterThan(0);
    expect(await page.getByRole('status').filter({ hasText: `Steps: ${bundled.steps.length} ·` }).count()).toBe(1);
    for (const step of bundled.steps) {
      expect(step.picture).toBeGreaterThan(100);
      expect(step.state).toMatch(/^title: .*\nurl: \/index\.html\ninstruction: /);
      expect(step.action).toMatch(/^[a-z]+\[#\d+ /);
      expect(step.probability).toMatch(/^\d{1,3}\.\d%$/);
      expect(step.reward).toMatch(/^-?\d/);
    }
    expect(bundled.outcome).toMatch(/^Outcome: (success|failure)/);
    expect(bundled.endPicture).toBeGreaterThan(100);
    expect(bundled.requests).toEqual([pathToFileURL(path.join(dir, 'bundled.html')).href]);
    await bundled.page.close();

    // A folder the person opened: its pages run in an opaque origin, and are pictured from inside.
    await page.goto(`${inject('appUrl')}#play`);
    await page.getByRole('button', { name: /^web/ }).click();
    await page.getByLabel('Open a site folder').setInputFiles(hostileFolder(dir));
    await expect.poll(() => page.getByText(/Playing the site hostile/).count(), { timeout: 60_000 }).toBe(1);
    await page.goto(`${inject('appUrl')}#evaluate`);
    await expect.poll(() => page.getByTestId('policy-env').textContent(), { timeout: 30_000 }).toBe('web');
    const file = await playAndDownload(page, 0, 'folder.html');
    await expect.poll(() => page.frameLocator('[data-testid="live-pages"] iframe.live-page').locator('body').evaluate(() => self.origin)).toBe('null');
    const folder = await readReport(file);
    expect(folder.steps.length).toBeGreaterThan(0);
    for (const step of folder.steps) {
      expect(step.picture).toBeGreaterThan(100);
      expect(step.state).toContain(`instruction: Press Done. ${HOSTILE}`);
      expect(step.state).toContain(`button: #1 ${HOSTILE}`);
      // Two actions on the page: the other one is the alternative.
      expect(step.alternatives).toBe(1);
    }
    expect(folder.title).not.toBe('pwned');
    expect(folder.scripts).toBe(0);
    expect(readFileSync(file, 'utf8')).not.toMatch(/https?:\/\//i);
    expect(folder.requests).toEqual([pathToFileURL(file).href]);
    await folder.page.screenshot({ path: `${ARTIFACTS}/evaluate-trace-report.png` });
    await folder.page.close();

    await page.goto(`${inject('appUrl')}#play`);
    await page.getByRole('button', { name: 'Back to the bundled suite' }).click();
    expect(errors).toEqual([]);
  });
});
