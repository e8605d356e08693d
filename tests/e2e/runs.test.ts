import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS, collectErrors, launch } from './browser.ts';

// As in train.test.ts: wasm is seconds where software WebGPU is minutes.
const BACKEND = process.env.DREAMGYM_E2E_BACKEND ?? 'wasm';
// A few PPO iterations (64 episodes each) with the curriculum on, a held-out evaluation on the way.
const BUDGET = 2000;
// The final evaluation: 20 held-out tasks drawn with the seed, not every one of the 500 (what the
// empty field means is train.test.ts's to pin); the Runs view shows how many it played.
const FINAL_EVAL_EPISODES = 20;
const FIXTURE = 'tests/e2e/fixtures/tiny-run.json';
const MARKUP = '<img src=x onerror="window.__pwned=1">';

/** A paper experiment report of two runs, made from the fixture (one row label carries markup). */
function paperReport(): string {
  const run = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { seed: number; wallSeconds: number };
  return JSON.stringify({
    kind: 'dreamgym-paper-experiment', version: 1, env: 'shop', preset: 'quick', seeds: [1, 2], createdAt: '2025-01-02T03:04:05.000Z',
    rows: [{ id: 'real-grpo', label: `Real GRPO ${MARKUP}`, mode: 'real', algo: 'grpo', runs: [{ ...run, seed: 1, wallSeconds: 11 }, { ...run, seed: 2, wallSeconds: 12 }] }],
  });
}

/** Drop files onto the Runs view's drop zone as a person dragging them from the desktop would. */
async function dropFiles(page: Page, files: { name: string; text: string }[]): Promise<void> {
  const data = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer();
    for (const f of list) transfer.items.add(new File([f.text], f.name, { type: 'application/json' }));
    return transfer;
  }, files);
  const zone = page.getByRole('group', { name: 'Drop run files here' });
  await zone.dispatchEvent('dragenter', { dataTransfer: data });
  await zone.dispatchEvent('dragover', { dataTransfer: data });
  await zone.dispatchEvent('drop', { dataTransfer: data });
}

const tab = (page: Page, name: string) => page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name, exact: true });

async function openTab(page: Page, name: string): Promise<void> {
  await tab(page, name).click();
  await expect.poll(() => tab(page, name).getAttribute('aria-current')).toBe('page');
}

describe('the Curriculum and Runs views, driven by a person in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launch(); });
  afterAll(async () => { await browser?.close(); });

  it('trains with the curriculum, lists its tasks, keeps the run, compares it with imported ones, survives a reload', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1100 }, acceptDownloads: true });
    const errors = collectErrors(page);
    await page.goto(`${inject('appUrl')}#curriculum`);
    await expect.poll(() => tab(page, 'Curriculum').getAttribute('aria-current')).toBe('page');
    // Before any run: the view says how to get a curriculum.
    expect(await page.getByTestId('curriculum-empty').textContent()).toMatch(/No run has started in this page yet\. Open Train, tick Curriculum/);

    // A small real-mode run with the curriculum on.
    await openTab(page, 'Train');
    await page.getByLabel('Environment', { exact: true }).selectOption('shop');
    await page.getByLabel('Algorithm', { exact: true }).selectOption('ppo');
    await page.getByLabel('Real-transition budget').fill(String(BUDGET));
    await page.getByLabel('Evaluate every N iterations').fill('2');
    await page.getByLabel('Evaluation episodes', { exact: true }).fill('10');
    await page.getByLabel('Final evaluation episodes').fill(String(FINAL_EVAL_EPISODES));
    const lambda = page.getByLabel('λ (largest share of generated tasks)');
    expect(await lambda.isDisabled()).toBe(true);
    await page.getByLabel('Curriculum', { exact: true }).check();
    expect(await lambda.isDisabled()).toBe(false);
    expect(await lambda.inputValue()).toBe('0.25');
    // λ is a share: out of range, the run cannot start.
    await lambda.fill('1.5');
    expect(await page.getByRole('button', { name: 'Start', exact: true }).isDisabled()).toBe(true);
    await lambda.fill('0.25');
    if (BACKEND !== 'auto') {
      await page.getByText('Advanced', { exact: true }).click();
      await page.getByLabel('Backend', { exact: true }).selectOption(BACKEND);
    }
    await page.locator('#run-title').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}/train-curriculum-form.png` });
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    const transitions = async () => Number((await page.getByTestId('real-transitions').textContent())?.replace(/,/g, ''));
    await expect.poll(transitions, { timeout: 240_000, interval: 500 }).toBeGreaterThan(0);

    // The Curriculum view fills from the live run: attempted tasks, their variance, the summary.
    await openTab(page, 'Curriculum');
    const table = page.getByTestId('curriculum-table');
    await expect.poll(() => table.count(), { timeout: 60_000 }).toBe(1);
    expect(await page.getByTestId('curriculum-summary').textContent()).toMatch(/^Pool of [\d,]+ tasks, [\d,]+ generated · λ 0\.25 · generator \S+ · groups by embedding cluster \(PPO\) · (.+ · )?as of iteration \d+/);
    const headers = await table.locator('thead th').allTextContents();
    expect(headers.map((h) => h.replace(/[▲▼]/g, '').trim())).toEqual(['Instruction', 'Origin', 'Parent', 'Attempts', 'Success', 'Variance', 'Difficulty', 'Policy version']);
    // Sorted by variance, most first: the top rows were attempted and have a variance.
    expect(await table.getByRole('columnheader', { name: /Variance/ }).getAttribute('aria-sort')).toBe('descending');
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(100);
    const topVariance = await rows.first().getByTestId('variance').textContent();
    expect(topVariance).toMatch(/^0\.\d{3}$/);
    expect(Number(await rows.first().locator('td').nth(2).textContent())).toBeGreaterThan(0);
    // Sort by attempts, then the other way.
    await table.getByRole('button', { name: 'Attempts' }).click();
    expect(await table.getByRole('columnheader', { name: /Attempts/ }).getAttribute('aria-sort')).toBe('descending');
    const attempts = (await rows.locator('td:nth-child(4)').allTextContents()).map(Number);
    expect(attempts).toEqual([...attempts].sort((a, b) => b - a));
    expect(attempts[0]).toBeGreaterThan(0);
    await table.getByRole('button', { name: 'Attempts' }).click();
    expect(await table.getByRole('columnheader', { name: /Attempts/ }).getAttribute('aria-sort')).toBe('ascending');
    await table.getByRole('button', { name: 'Variance' }).click();

    // Back to Train until the run is done; the Curriculum view then shows its final state.
    await openTab(page, 'Train');
    await expect.poll(() => page.getByTestId('train-state').textContent(), { timeout: 400_000, interval: 1000 }).toBe('Done');
    const resultText = (await page.getByTestId('train-result').textContent()) ?? '';
    expect(resultText).toMatch(/Curriculum λ 0\.25: [\d,]+ tasks in the pool, \d+ generated\./);
    const iterations = Number(/ in (\d+) iterations/.exec(resultText)?.[1]);
    expect(iterations).toBeGreaterThanOrEqual(2);
    await openTab(page, 'Curriculum');
    await expect.poll(() => page.getByTestId('curriculum-summary').textContent(), { timeout: 30_000 }).toContain(`as of iteration ${iterations}`);
    // Generated only: every row shown is a generated task with its badge and its parent.
    await page.getByLabel('Generated only').check();
    const generated = await table.count() === 1 ? await rows.count() : 0;
    if (generated > 0) {
      expect(await table.locator('tbody tr[data-origin="seed"]').count()).toBe(0);
      expect(await rows.first().locator('.badge.generated').textContent()).toBe('generated');
      expect(await rows.first().locator('td').nth(1).textContent()).not.toBe('—');
    }
    await page.getByLabel('Generated only').uncheck();
    // The table is long (100 rows a page): the screenshots show its top.
    await page.screenshot({ path: `${ARTIFACTS}/curriculum.png` });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `${ARTIFACTS}/curriculum-dark.png` });
    await page.emulateMedia({ colorScheme: 'light' });

    // Runs: the finished run is kept, listed, compared and charted.
    await openTab(page, 'Runs');
    const list = page.getByTestId('runs-list');
    await expect.poll(() => list.locator('tbody tr').count(), { timeout: 30_000 }).toBe(1);
    const label = 'shop PPO real + curriculum λ 0.25 seed 1';
    expect(await list.locator('tbody tr').first().textContent()).toContain(label);
    expect(await page.getByLabel(`Compare ${label}`).isChecked()).toBe(true);
    const compare = page.getByTestId('runs-compare');
    expect(await compare.locator('tbody tr').count()).toBe(1);
    const cells = await compare.locator('tbody tr').first().locator('th, td').allTextContents();
    expect(cells[0]?.trim()).toBe(label);
    expect(cells.slice(1, 6)).toEqual(['shop', 'real + curriculum λ 0.25', 'PPO', BACKEND === 'auto' ? expect.any(String) : BACKEND, '—']);
    expect(Number(cells[6]?.replace(/,/g, ''))).toBeGreaterThan(BUDGET / 2);
    expect(cells[7]).toBe('0');
    expect(cells[9]).toMatch(new RegExp(`^\\d+\\.\\d% \\(test, ${FINAL_EVAL_EPISODES} ep\\.\\)$`));
    expect(cells[10]).toMatch(/^\d+\.\d$/);
    await expect.poll(() => page.getByTestId('runs-charts').locator('.chart canvas').count()).toBe(2);
    // A run trained here keeps its policy: download it, or evaluate it in one click (runs-evaluate.test.ts).
    expect(await page.getByRole('button', { name: `Evaluate the policy of ${label}` }).count()).toBe(1);
    expect(await page.getByRole('button', { name: `Download policy (.dgp) of ${label}` }).count()).toBe(1);

    // Download it: the whole TrainResult, as the CLI writes one; imported again, it is recognised.
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByRole('button', { name: `Download run ${label}` }).click()]);
    expect(download.suggestedFilename()).toBe('shop-ppo-real-curriculum-0.25-seed-1.json');
    const downloaded = `${ARTIFACTS}/${download.suggestedFilename()}`;
    await download.saveAs(downloaded);
    const saved = JSON.parse(readFileSync(downloaded, 'utf8')) as { history: Record<string, unknown>[] } & Record<string, unknown>;
    expect(saved).toMatchObject({ env: 'shop', mode: 'real', algo: 'ppo', seed: 1, curriculum: { lambda: 0.25 } });
    expect(saved.history).toHaveLength(iterations);
    expect(saved.history[0]).toHaveProperty('policyLoss');
    // Its curve as CSV and JSONL: one row per iteration, as `train --history FILE.csv|.jsonl` writes it.
    const [csv] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByRole('button', { name: `Download the curve of ${label} as CSV` }).click()]);
    expect(csv.suggestedFilename()).toBe('shop-ppo-real-curriculum-0.25-seed-1.csv');
    await csv.saveAs(`${ARTIFACTS}/curve.csv`);
    const csvRows = readFileSync(`${ARTIFACTS}/curve.csv`, 'utf8').trimEnd().split('\r\n');
    expect(csvRows[0]).toMatch(/^iteration,phase,realTransitions,/);
    expect(csvRows).toHaveLength(iterations + 1);
    const [jsonl] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByRole('button', { name: `Download the curve of ${label} as JSONL` }).click()]);
    await jsonl.saveAs(`${ARTIFACTS}/curve.jsonl`);
    expect(readFileSync(`${ARTIFACTS}/curve.jsonl`, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual(saved.history);

    await page.getByLabel('Run files (.json)').setInputFiles(downloaded);
    await expect.poll(() => page.getByTestId('runs-import-note').textContent(), { timeout: 30_000 })
      .toBe('shop-ppo-real-curriculum-0.25-seed-1.json (training run): 0 runs added, 1 run already listed.');
    expect(await list.locator('tbody tr').count()).toBe(1);

    // Import a training run as the CLI writes it (file picker), then a paper report (drag and drop).
    await page.getByLabel('Run files (.json)').setInputFiles(FIXTURE);
    await expect.poll(() => page.getByTestId('runs-import-note').textContent(), { timeout: 30_000 }).toBe('tiny-run.json (training run): 1 run added.');
    // A run from a file has no policy: nothing to evaluate or download.
    expect(await page.getByRole('button', { name: 'Evaluate the policy of tiny-run' }).count()).toBe(0);
    await dropFiles(page, [{ name: 'paper-quick.json', text: paperReport() }]);
    await expect.poll(() => page.getByTestId('runs-import-note').textContent(), { timeout: 30_000 }).toBe('paper-quick.json (paper experiment report): 2 runs added.');
    expect(await list.locator('tbody tr').count()).toBe(4);
    expect(await compare.locator('tbody tr').count()).toBe(4);
    expect(await compare.getByText(`Real GRPO ${MARKUP} seed 2`).count()).toBe(1);
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await expect.poll(() => page.getByTestId('runs-charts').locator('.chart canvas').count()).toBe(2);
    // The same file again adds nothing.
    await page.getByLabel('Run files (.json)').setInputFiles(FIXTURE);
    await expect.poll(() => page.getByTestId('runs-import-note').textContent(), { timeout: 30_000 }).toBe('tiny-run.json (training run): 0 runs added, 1 run already listed.');
    await page.screenshot({ path: `${ARTIFACTS}/runs.png`, fullPage: true });

    // Bad files: a clear message each, the list unchanged.
    await dropFiles(page, [{ name: 'notes.json', text: 'these are my notes' }]);
    const problem = page.getByTestId('runs-import-error');
    await expect.poll(() => problem.textContent(), { timeout: 30_000 }).toMatch(/^Not imported: notes\.json: not JSON \(/);
    await page.getByLabel('Run files (.json)').setInputFiles({ name: 'eval.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ env: 'shop', policy: 'a.dgp', split: 'test', episodes: 5, successRate: 0.2, meanScore: 30, actionsDigest: 'x' })) });
    await expect.poll(() => problem.textContent(), { timeout: 30_000 }).toMatch(/^Not imported: eval\.json: an evaluation report \(from `rollout`\), not a training run: it has no "history"/);
    expect(await list.locator('tbody tr').count()).toBe(4);

    // Compare fewer: untick two runs, the table and the charts follow.
    await page.getByLabel(`Compare Real GRPO ${MARKUP} seed 1`).uncheck();
    await page.getByLabel(`Compare Real GRPO ${MARKUP} seed 2`).uncheck();
    expect(await compare.locator('tbody tr').count()).toBe(2);
    await expect.poll(() => page.getByTestId('runs-charts').locator('.chart canvas').count()).toBe(2);

    // A reload: the runs are still there (IndexedDB), and one can be deleted.
    await page.reload();
    await expect.poll(() => tab(page, 'Runs').getAttribute('aria-current')).toBe('page');
    await expect.poll(() => list.locator('tbody tr').count(), { timeout: 30_000 }).toBe(4);
    expect(await list.locator('tbody tr').first().textContent()).toContain(label);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete run tiny-run' }).click();
    await expect.poll(() => list.locator('tbody tr').count(), { timeout: 30_000 }).toBe(3);
    await page.reload();
    await expect.poll(() => list.locator('tbody tr').count(), { timeout: 30_000 }).toBe(3);
    expect(await list.textContent()).not.toContain('tiny-run');
    await expect.poll(() => page.getByTestId('runs-charts').locator('.chart canvas').count()).toBe(2);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => page.getByTestId('runs-charts').locator('.chart canvas').count()).toBe(2);
    await page.screenshot({ path: `${ARTIFACTS}/runs-dark.png`, fullPage: true });
    expect(errors).toEqual([]);
  }, 600_000);
});
