/**
 * `.dgx` neural experience model files travel both ways between the command line and the app:
 *
 * - CLI → app: the real CLI (child processes) seeds a small shop buffer and fits the neural model
 *   (`experience fit`, 2 epochs on the cpu backend); the Experience view in Chromium imports that
 *   file and shows what the CLI learned: the same real and held-out transition counts, the same
 *   number of epochs in its summary and its fidelity chart, the last epoch's held-out scores.
 * - app → CLI: the Experience view fits the model from a buffer seeded in the Buffer view, exports
 *   it with its Export button, and the CLI's `experience eval` loads the downloaded file and
 *   measures its fidelity; the file's header records that the app fitted it, with its epochs.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { inspectNeuralModel } from '../../src/experience/neural/model-io.ts';
import { readTrainingRecord, type NeuralEpoch } from '../../src/experience/neural/training-record.ts';
import { ARTIFACTS, collectErrors, launch, seedShop } from './browser.ts';
import { runCliProcess, type CliRun } from '../cli-process.ts';

const EPOCHS = 2;

/** Run the CLI as a person does, in a child process. */
const runCli = runCliProcess;

/** The JSON result a `--json` command prints as its last stdout line; fails with its stderr if it did not succeed. */
function jsonResult<T>(run: CliRun): T {
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as T;
}

/** The value a uPlot legend row shows beside `label` (its latest value while the cursor is away). */
function legendValue(chart: Locator, label: string): Promise<string | null> {
  return chart.locator('.u-legend .u-series').filter({ has: chart.page().getByText(label, { exact: true }) }).locator('.u-value').textContent();
}

async function openExperience(page: Page): Promise<void> {
  await page.goto(`${inject('appUrl')}#experience`);
  await page.getByRole('heading', { name: 'Experience model', exact: true }).waitFor();
  expect(await page.getByRole('radio', { name: /Neural \(no download\)/ }).isChecked()).toBe(true);
}

const int = (n: number) => n.toLocaleString('en-US');

describe('.dgx experience model files between the CLI and the app', () => {
  let browser: Browser;
  let dir: string;
  /** A small shop buffer, seeded by the CLI: the CLI fits from it and evaluates the app's model against it. */
  let bufferFile: string;

  beforeAll(async () => {
    browser = await launch();
    dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-dgx-exchange-'));
    bufferFile = path.join(dir, 'shop-seed30.jsonl');
    const seeded = jsonResult<{ episodes: number; transitions: number }>(
      await runCli(['buffer', 'seed', '--env', 'shop', '--episodes', '30', '--seed', '1', '--out', bufferFile, '--json']),
    );
    expect(seeded.episodes).toBe(30);
    expect(seeded.transitions).toBeGreaterThan(30);
  }, 120_000);
  afterAll(async () => { await browser?.close(); });

  it('CLI → app: a model fitted by `experience fit` imports into the Experience view with its transitions and its epochs', async () => {
    const modelFile = path.join(dir, 'cli-shop.dgx');
    const fit = jsonResult<{ env: string; out: string; backend: string; realTransitions: number; validationTransitions: number; epochs: number; history: NeuralEpoch[] }>(
      await runCli(['experience', 'fit', '--env', 'shop', '--buffer', bufferFile, '--out', modelFile, '--epochs', String(EPOCHS), '--max-transitions', '200', '--seed', '1', '--backend', 'cpu', '--json']),
    );
    expect(fit).toMatchObject({ env: 'shop', out: modelFile, backend: 'cpu', epochs: EPOCHS });
    expect(fit.realTransitions).toBeGreaterThan(0);
    expect(fit.realTransitions).toBeLessThanOrEqual(200);
    expect(fit.history.map((e) => e.epoch)).toEqual([1, 2]);
    // The file says the same as the command's result, and that the CLI fitted it.
    const header = inspectNeuralModel(readFileSync(modelFile));
    expect(header.env).toBe('shop');
    expect(header.training.source).toBe('cli');
    const record = readTrainingRecord(header.training);
    expect(record.transitions).toBe(fit.realTransitions);
    expect(record.validationTransitions).toBe(fit.validationTransitions);
    expect(record.history.map((e) => e.epoch)).toEqual([1, 2]);
    const last = fit.history.at(-1)!.validation;
    expect(last).not.toBeNull(); // 30 episodes hold some out for the per-epoch fidelity

    // A fresh browser profile: nothing fitted, kNN answers.
    const page = await browser.newPage({ viewport: { width: 1280, height: 1300 } });
    const errors = collectErrors(page);
    await openExperience(page);
    await expect.poll(() => page.getByTestId('neural-model').textContent(), { timeout: 30_000 }).toBe('No neural model is fitted for shop yet.');
    expect(await page.getByTestId('active-experience').textContent()).toBe('knn');
    expect(await page.getByTestId('neural-chart').count()).toBe(0);

    // Import the CLI's file through the view's file input.
    await page.getByLabel('Import a .dgx file').setInputFiles(modelFile);
    const summary = new RegExp(
      `^Imported from cli-shop\\.dgx .* on cpu · ${int(fit.realTransitions)} real transitions \\(${int(fit.validationTransitions)} held out\\) · ${EPOCHS} epochs · \\d+ KB, saved in this browser\\.$`,
    );
    await expect.poll(() => page.getByTestId('neural-model').textContent(), { timeout: 60_000 }).toMatch(summary);
    expect(await page.getByTestId('neural-file-error').count()).toBe(0);
    await expect.poll(() => page.getByTestId('active-experience').textContent(), { timeout: 30_000 }).toBe('neural');
    expect(await page.getByTestId('neural-hint').count()).toBe(0);

    // The epoch chart carries the CLI's history: the latest point is epoch 2, with the CLI's scores.
    const chart = page.getByTestId('neural-chart');
    expect(await chart.getByText('Fidelity on held-out episodes, per epoch').count()).toBe(1);
    await expect.poll(() => chart.locator('canvas').count(), { timeout: 10_000 }).toBeGreaterThan(0); // uPlot draws after a paint
    await expect.poll(() => legendValue(chart, 'epoch')).toBe(String(EPOCHS));
    const score = (n: number) => n.toFixed(2);
    expect(await page.getByTestId('neural-validation').textContent()).toBe(
      `Held-out episodes after the last epoch: next-state F1 ${score(last!.nextStateF1)} · action-set F1 ${score(last!.actionSetF1)} · ` +
        `reward accuracy ${score(last!.rewardAccuracy)} · done accuracy ${score(last!.doneAccuracy)}`,
    );
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}/dgx-exchange-cli-to-app.png`, fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);

  it('app → CLI: a model fitted and exported in the Experience view loads in `experience eval`, and its file says the app fitted it', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1300 } });
    const errors = collectErrors(page);
    const seeded = await seedShop(page, 20);
    expect(seeded).toBeGreaterThan(20);

    await page.getByRole('link', { name: 'Experience' }).click();
    await page.getByRole('heading', { name: 'Experience model', exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('neural-model').textContent(), { timeout: 30_000 }).toBe('No neural model is fitted for shop yet.');
    await page.getByLabel('Epochs', { exact: true }).fill(String(EPOCHS));
    await page.getByRole('button', { name: 'Fit', exact: true }).click();
    await expect.poll(() => page.getByTestId('active-experience').textContent(), { timeout: 400_000 }).toBe('neural');
    expect(await page.getByTestId('fit-status').textContent()).toBe('Fitted.');
    const shown = (await page.getByTestId('neural-model').textContent()) ?? '';
    const match = /^Fitted .* on (\S+) · ([\d,]+) real transitions(?: \(([\d,]+) held out\))? · (\d+) epochs? · \d+ KB, saved in this browser\.$/.exec(shown);
    expect(match, shown).not.toBeNull();
    const [, fittedOn, transitions, heldOut, epochs] = match!;
    expect(Number(epochs)).toBe(EPOCHS);
    expect(Number(transitions!.replace(/,/g, ''))).toBeGreaterThan(0);
    await expect.poll(() => legendValue(page.getByTestId('neural-chart'), 'epoch')).toBe(String(EPOCHS));
    await page.screenshot({ path: `${ARTIFACTS}/dgx-exchange-app-fitted.png`, fullPage: true });

    // Export: the download is the .dgx file.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export .dgx' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^neural-shop-[\dT-]+\.dgx$/);
    const modelFile = path.join(dir, download.suggestedFilename());
    await download.saveAs(modelFile);
    expect(errors).toEqual([]);
    await page.close();

    // Its header: fitted by the app, on the backend and from the transitions the view showed, with every epoch.
    const header = inspectNeuralModel(readFileSync(modelFile));
    expect(header.env).toBe('shop');
    expect(header.backend).toBe(fittedOn);
    expect(header.training.source).toBe('app');
    expect(header.training.epochs).toBe(EPOCHS);
    const record = readTrainingRecord(header.training);
    expect(record.transitions).toBe(Number(transitions!.replace(/,/g, '')));
    expect(record.validationTransitions ?? 0).toBe(Number((heldOut ?? '0').replace(/,/g, '')));
    expect(record.history.map((e) => e.epoch)).toEqual([1, 2]);
    for (const epoch of record.history) expect(epoch.loss).not.toBeNull();

    // The CLI loads it and measures its fidelity on held-out real transitions.
    const run = await runCli([
      'experience', 'eval', '--env', 'shop', '--experience', 'neural', '--model', modelFile, '--buffer', bufferFile,
      '--heldout', '50', '--seed', '1', '--backend', 'cpu', '--json',
    ]);
    const result = jsonResult<{ env: string; experience: string; backend: string; modelFile: string; transitions: number; nextStateF1: number }>(run);
    expect(result).toMatchObject({ env: 'shop', experience: 'neural', backend: 'cpu', modelFile, transitions: 50 });
    expect(result.nextStateF1).toBeGreaterThanOrEqual(0);
    expect(result.nextStateF1).toBeLessThanOrEqual(1);
  }, 480_000);
});
