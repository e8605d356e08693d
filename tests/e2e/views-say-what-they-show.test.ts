/**
 * Issue 59, as a newcomer meets it: every view shows what it holds at once after a reload and says
 * what its figures count and where. Play names the product beside its code; the Buffer shows the
 * whole agent mix and what each agent is; the Experience view shows the saved neural model right
 * after a reload, marks where the imagined state differs from the real one and says when no step of
 * this episode is scored; a GRPO dream in Train says which figures are inside the model, has no
 * value loss, draws its charts from the first iteration, says which backend it uses in words, and
 * resumed after a reload shows its own settings with one Resume button.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS, collectErrors, launch, seedShop } from './browser.ts';

// wasm, as the other Train tests: software WebGPU is slow.
const BACKEND = process.env.DREAMGYM_E2E_BACKEND ?? 'wasm';
// A few GRPO iterations in the dream (64 synthetic episodes each), so a reload lands mid-run.
const BUDGET = 1500;

const tab = (page: Page, name: string) => page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name, exact: true });

async function openTab(page: Page, name: string): Promise<void> {
  await tab(page, name).click();
  await expect.poll(() => tab(page, name).getAttribute('aria-current')).toBe('page');
}

/** The Train view's latest iteration (from its note) and whether the success chart shows a series' colour (not blank). */
async function chartSample(page: Page): Promise<{ iteration: number; drawn: boolean }> {
  return page.evaluate(() => {
    const note = document.querySelector('[data-testid="metrics-note"]')?.textContent ?? '';
    const iteration = Number(/Iteration (\d+)\./.exec(note)?.[1] ?? 0);
    const canvas = document.querySelector<HTMLCanvasElement>('.chart canvas');
    const context = canvas?.getContext('2d');
    if (!canvas || !context || canvas.width === 0) return { iteration, drawn: false };
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    let drawn = false;
    for (let i = 0; i < data.length && !drawn; i += 4) {
      const [r, g, b, a] = [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
      // The train success line (#3b82f6) or the train score line (#f08c00).
      drawn = a > 128 && ((r < 100 && g > 105 && g < 160 && b > 215) || (r > 215 && g > 115 && g < 165 && b < 50));
    }
    return { iteration, drawn };
  });
}

describe('views say what they show, at once after a reload', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launch({ webgpu: true }); });
  afterAll(async () => { await browser?.close(); });

  it('Buffer shows the whole agent mix and each agent; Play shows the product title beside its code', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1100 } });
    const errors = collectErrors(page);
    await page.goto(`${inject('appUrl')}#buffer`);
    const mix = page.getByLabel('Agent mix');
    await mix.fill('oracle=0.4,noisy=0.3,random=0.3');
    // The whole mix is in view, not cut by its field.
    expect(await mix.evaluate((input: HTMLInputElement) => input.scrollWidth <= input.clientWidth)).toBe(true);
    expect(await page.getByTestId('seed-agents').textContent()).toMatch(/noisy: the oracle, except that at each step it may take a random action instead \(with probability 0\.5\)/);
    await mix.fill('oracle=0.6,random=0.4');
    await seedShop(page, 5);
    await page.getByText(/^Runs \(\d+\)$/).click();
    expect(await page.getByTestId('run-kind').first().textContent()).toBe('seeded by scripted agents: oracle 60%, random 40%');

    await openTab(page, 'Play');
    await page.getByRole('button', { name: /^shop/ }).click();
    await page.getByRole('button', { name: 'Start episode' }).click();
    await page.getByLabel('Search the store').fill('running shoes');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const product = page.getByRole('group', { name: 'Admissible actions' }).getByRole('button', { name: /^click\[b0/ }).first();
    await product.waitFor();
    // The code and, beside it, the title and price the results page lists for it.
    expect(await product.textContent()).toMatch(/^click\[b0\w+\] .+ · \$\d+\.\d\d$/);
    expect(await product.getByTestId('action-title').textContent()).toMatch(/ · \$\d+\.\d\d$/);
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);

  it('Experience and Train: the saved model at once after a reload, marked differences, a GRPO dream labelled and resumed with its own settings', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
    const errors = collectErrors(page);
    await seedShop(page, 20);

    // Fit a one-epoch neural model; the backend is said in words, the probe's figures behind a details.
    await openTab(page, 'Experience');
    await page.getByLabel('Epochs', { exact: true }).fill('1');
    await page.getByRole('button', { name: 'Fit', exact: true }).click();
    await expect.poll(() => page.getByTestId('active-experience').textContent(), { timeout: 240_000 }).toBe('neural');
    expect(await page.getByTestId('neural-backend').textContent()).toMatch(/^Using wasm: the fastest here \(.*webgpu (took|did not)/);
    expect(await page.getByTestId('neural-backend').textContent()).not.toMatch(/stopped early|predict \d/);
    expect(await page.getByTestId('probe-figure').count()).toBe(3);
    expect(await page.getByTestId('probe-figure').first().isVisible()).toBe(false); // behind the details

    // The meter before this episode's first step, then the imagined state's differences marked.
    await page.getByRole('button', { name: 'Start episode' }).click();
    await expect.poll(() => page.getByTestId('meter-empty').textContent(), { timeout: 30_000 }).toMatch(/^No step scored yet in this episode\./);
    await page.getByLabel('Search the store').fill('running shoes');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.getByTestId('state-diff-summary').textContent(), { timeout: 60_000 })
      .toMatch(/^(The imagined next state is line for line the real one\.|Marked ≠ below: \d+ of the \d+ imagined lines and \d+ of the \d+ real lines)/);
    const summary = (await page.getByTestId('state-diff-summary').textContent()) ?? '';
    const marked = await page.getByTestId('predicted-next').locator('.differs').count();
    // Each differing line is marked where it is (the instruction, not shown, is the one line that could differ unmarked).
    expect(marked).toBeLessThanOrEqual(Number(/: (\d+) of the/.exec(summary)?.[1] ?? 0));
    expect(await page.getByTestId('meter-steps').textContent()).toBe('1');
    // A second episode: the meter says this one has no scored step yet, not "Mean over 1 scored step".
    await page.getByRole('button', { name: 'Start episode' }).click();
    await expect.poll(() => page.getByTestId('meter-empty').textContent(), { timeout: 30_000 })
      .toMatch(/^No step scored yet in this episode\. .* The meter keeps the 1 step scored in earlier episodes with this model/);
    expect(await page.getByTestId('meter-summary').count()).toBe(0);

    // A reload: the saved model shows at once, not "No neural model is fitted" while tfjs starts.
    await page.reload();
    await expect.poll(() => page.getByTestId('neural-model').textContent(), { timeout: 8_000 }).toMatch(/^Fitted .* on wasm/);
    await expect.poll(() => page.getByTestId('active-experience').textContent(), { timeout: 2_000 }).toBe('neural');
    expect(await page.getByTestId('neural-hint').count()).toBe(0);

    // A GRPO dream with the curriculum, evaluated in the real shop after every iteration.
    await openTab(page, 'Train');
    await page.getByLabel('Environment', { exact: true }).selectOption('shop');
    await page.getByLabel('Algorithm', { exact: true }).selectOption('grpo');
    await page.getByLabel('Train in').selectOption('dream');
    await page.getByLabel('Synthetic-transition budget').fill(String(BUDGET));
    await page.getByLabel('Seed').fill('2');
    await page.getByLabel('Evaluate every N iterations').fill('1');
    await page.getByLabel('Evaluation episodes', { exact: true }).fill('5');
    await page.getByLabel('Final evaluation episodes').fill('10');
    await page.getByText('Advanced').click();
    if (BACKEND !== 'auto') await page.getByLabel('Backend', { exact: true }).selectOption(BACKEND);
    await page.getByLabel('Save the run every N seconds').fill('0');
    expect(await page.getByTestId('backend').textContent()).toMatch(/^The backend is chosen when a run starts/);
    await page.getByRole('button', { name: 'Start', exact: true }).click();

    // The charts draw from the first iteration (one point each: a dot, not a blank chart).
    await expect.poll(async () => { const s = await chartSample(page); return s.drawn || s.iteration > 1; }, { timeout: 240_000, interval: 100 }).toBe(true);
    expect((await chartSample(page)).iteration).toBeGreaterThanOrEqual(1);
    const first = await chartSample(page);
    if (first.iteration === 1) expect(first.drawn).toBe(true);
    if (BACKEND !== 'auto') expect(await page.getByTestId('backend').textContent()).toBe(`Using ${BACKEND}: the one the form names.`);

    // What the figures count and where: the train ones inside the model, the held-out ones in the real shop, on how many episodes.
    const tiles = await page.locator('.metrics dt').allTextContents();
    expect(tiles).toContain('train success in the dream');
    expect(tiles).toContain('train score in the dream');
    expect(tiles).toContain('held-out success in the real shop, 5 episodes');
    expect(tiles.some((t) => /value loss/.test(t))).toBe(false); // GRPO has no value function
    const note = await page.getByTestId('metrics-note').textContent();
    expect(note).toMatch(/measured inside the experience model/);
    expect(note).toMatch(/measured in the real shop on tasks kept out of training: 5 episodes after iteration \d+/);
    expect(note).toMatch(/The result at the end plays 10 episodes/);
    const legend = await page.locator('.chart .u-legend').allTextContents();
    expect(legend.join(' ')).toContain('synthetic steps (in the dream)');
    expect(legend.join(' ')).not.toContain('real transitions');
    expect(legend.join(' ')).toContain('train success in the dream');
    expect(legend.join(' ')).toContain('held-out success in the real shop');
    expect(legend.join(' ')).not.toContain('value loss');
    await page.screenshot({ path: `${ARTIFACTS}/train-dream-grpo-labels.png`, fullPage: true });

    // A reload mid-run: one Resume button (the offer's), then the form shows the resumed run's settings.
    await expect.poll(() => page.getByTestId('last-save').textContent(), { timeout: 240_000, interval: 250 }).toMatch(/after iteration [1-9]/);
    await page.reload();
    await page.goto(`${inject('appUrl')}#train`);
    const offer = page.getByTestId('saved-run');
    await expect.poll(() => offer.textContent(), { timeout: 60_000 }).toMatch(/shop · GRPO · dream · seed 2/);
    expect(await page.getByRole('button', { name: /resume/i }).count()).toBe(1);
    expect(await page.getByLabel('Algorithm', { exact: true }).inputValue()).toBe('ppo'); // the form's defaults until resumed
    await page.getByRole('button', { name: 'Resume the run' }).click();
    expect(await page.getByLabel('Algorithm', { exact: true }).inputValue()).toBe('grpo');
    expect(await page.getByLabel('Train in').inputValue()).toBe('dream');
    expect(await page.getByLabel('Synthetic-transition budget').inputValue()).toBe(String(BUDGET));
    expect(await page.getByLabel('Seed').inputValue()).toBe('2');
    expect(await page.getByLabel('Curriculum').isChecked()).toBe(true);
    expect(await page.getByLabel('Final evaluation episodes').inputValue()).toBe('10');
    await expect.poll(() => page.getByTestId('train-state').textContent(), { timeout: 60_000 }).toMatch(/^(Training|Done)$/);
    expect(await page.getByRole('button', { name: /resume/i }).count()).toBe(0);
    expect(await page.getByTestId('backend').textContent()).toMatch(/^Using wasm: (the backend the run was saved on|the fastest here)/);
    // The Curriculum view says what its variances are computed over (after the reload: on a fast
    // machine the first run could end while the test looked at it, leaving no run to reload mid-way).
    await openTab(page, 'Curriculum');
    await expect.poll(() => page.getByTestId('curriculum-summary').textContent(), { timeout: 60_000 }).toMatch(/variance of the (success \(0 or 1\)|return)/);
    await openTab(page, 'Train');
    const state = page.getByTestId('train-state');
    // The run can end between reading its state and the click (on a loaded machine it did, and the
    // click then waited on a disabled button): a Stop that fails while the run still trains fails the test.
    if ((await state.textContent()) === 'Training') {
      await page.getByRole('button', { name: 'Stop', exact: true }).click({ timeout: 10_000 }).catch(async (error: unknown) => {
        if ((await state.textContent()) === 'Training') throw error;
      });
    }
    await expect.poll(() => state.textContent(), { timeout: 240_000, interval: 500 }).toMatch(/^(Stopped|Done)$/);
    expect(errors).toEqual([]);
    await page.close();
  }, 900_000);
});
