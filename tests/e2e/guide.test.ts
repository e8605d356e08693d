/**
 * A newcomer's path, as a person walks it in the built app: a first visit lands on Start; one button
 * runs DreamGym's loop on the shop with the defaults, its two lanes side by side, each phase showing
 * what it does and its time left from its first second; the end shows the dream policy and a
 * real-mode one judged in the real shop, and an episode where the model's imagined states stand
 * beside the real ones. A reload in the middle of the dream is offered back, resumes from where it
 * was (the finished phases kept), and ends. The Curriculum view shows the tasks the dream chose by
 * variance; the dream policy opens in Evaluate in one click and is judged there on more held-out
 * tasks; the finished summary is still there after a reload; a second run reloaded while it fits
 * is offered back as interrupted. The run is the short one (Advanced: Length), the full run's every
 * phase and view on a third of its steps: what is pinned is the path, not how much the policies learn
 * (the full run's time and figures are `npm run bench -- guide`'s).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { GUIDE_LENGTHS, GUIDE_MEASURED } from '../../src/jobs/guide-plan.ts';
import { seriousViolations } from './axe.ts';
import { ARTIFACTS, collectErrors, launch } from './browser.ts';

const tab = (page: Page, name: string) => page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name, exact: true });
const phaseState = (page: Page, id: string) => page.getByTestId(`guide-phase-${id}-state`).textContent();
/** A running phase's progress line; otherwise its state and any alert, so a failing poll says why. */
const progressOf = async (page: Page, id: string) => {
  const state = await phaseState(page, id);
  if (state === 'running') return page.getByTestId(`guide-phase-${id}-progress`).textContent({ timeout: 2000 }).catch(() => 'no progress line');
  return `${id} ${state}: ${(await page.getByRole('alert').allTextContents()).join(' ')}`;
};
const EVALUATED_HERE = 20;
const SHORT = GUIDE_LENGTHS.short;
const int = (n: number) => n.toLocaleString('en-US');

describe('a newcomer\'s first run', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launch(); });
  afterAll(async () => { await browser?.close(); });

  it('runs the guided loop through a reload and a resume, evaluates its dream policy from the result, and keeps its summary', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1100 } });
    const errors = collectErrors(page);
    await page.goto(inject('appUrl'));
    await expect.poll(() => tab(page, 'Start').getAttribute('aria-current')).toBe('page');
    expect(await page.getByRole('img', { name: 'The DreamGym loop' }).count()).toBe(1);
    // The promise it makes is the bench's figure.
    expect(await page.getByRole('main').textContent()).toMatch(/One button runs the loop on the shop with the defaults: about [\d a-z]+ on a 2-core machine/);

    // WebGPU in this headless Chromium is SwiftShader (software), minutes slower than wasm here: a
    // person without a GPU picks wasm in Advanced.
    await page.getByText('Advanced', { exact: true }).click();
    await page.getByLabel('Backend', { exact: true }).selectOption(process.env.DREAMGYM_E2E_BACKEND ?? 'wasm');
    await page.getByLabel('Length', { exact: true }).selectOption('short');
    // The promise follows the length chosen.
    expect(await page.getByRole('main').textContent()).toContain(`with the defaults: about ${GUIDE_MEASURED.short.total} s on ${GUIDE_MEASURED.machine} (npm run bench -- guide --length short)`);
    await page.getByRole('button', { name: 'Run it on the shop' }).click();

    // From its first second, each running phase says what it does and how long is left.
    await expect.poll(() => progressOf(page, 'seed'), { timeout: 10_000, interval: 200 }).toMatch(/ · about \d+ s left/);
    expect(await page.getByTestId('guide-phase-seed').textContent()).toContain(`Scripted shoppers play ${SHORT.seedEpisodes} episodes`);
    // The two lanes run at once: the real-mode run trains while the dream's lane fits or dreams.
    // (Polled together: the untrained policy's evaluation can end before the seeding does, so the
    // real run may start while the fit still waits.)
    const lanesTogether = async () => (await phaseState(page, 'real')) === 'running' && [await phaseState(page, 'fit'), await phaseState(page, 'dream')].includes('running');
    await expect.poll(lanesTogether, { timeout: 300_000, interval: 200 }).toBe(true);
    await expect.poll(() => phaseState(page, 'dream'), { timeout: 300_000, interval: 500 }).toBe('running');
    await expect.poll(() => progressOf(page, 'dream'), { timeout: 120_000, interval: 500 })
      .toMatch(new RegExp(`^[\\d,]+ / ${int(SHORT.steps)} synthetic steps inside the model · about .* left`));

    // A reload in the middle of the dream: Start offers the run back, with what had finished kept.
    const fitTook = await page.getByTestId('guide-phase-fit-seconds').getAttribute('data-seconds');
    await page.reload();
    await expect.poll(() => page.getByTestId('guide-state').textContent(), { timeout: 30_000 }).toBe('Interrupted.');
    expect(await phaseState(page, 'seed')).toBe('done');
    expect(await phaseState(page, 'fit')).toBe('done');
    expect(await phaseState(page, 'dream')).toBe('interrupted');
    expect(await page.getByTestId('guide-phase-fit-seconds').getAttribute('data-seconds')).toBe(fitTook);
    await page.getByText('Advanced', { exact: true }).click();
    await page.getByLabel('Backend', { exact: true }).selectOption(process.env.DREAMGYM_E2E_BACKEND ?? 'wasm');
    await page.getByRole('button', { name: 'Resume the guided run' }).click();
    await expect.poll(() => phaseState(page, 'dream'), { timeout: 30_000 }).toBe('running');
    // What was done is not done again.
    expect(await phaseState(page, 'seed')).toBe('done');
    expect(await page.getByTestId('guide-phase-fit-seconds').getAttribute('data-seconds')).toBe(fitTook);

    await expect.poll(() => page.getByTestId('guide-state').textContent(), { timeout: 900_000, interval: 2000 }).toBe('Done.');
    for (const id of ['seed', 'fit', 'baseline', 'dream', 'real', 'compare']) expect(await phaseState(page, id)).toBe('done');
    const dream = page.getByTestId('guide-dream');
    // The resumed run kept its length (from the record, not from the form).
    expect(await dream.textContent()).toMatch(new RegExp(`\\d+\\.\\d% success on ${SHORT.evalEpisodes} real test tasks in the shop .*trained on ${int(SHORT.steps)} synthetic steps and 0 real ones`));
    expect(await page.getByTestId('guide-real').textContent()).toMatch(new RegExp(`\\d+\\.\\d% success on ${SHORT.evalEpisodes} real test tasks in the shop .*trained on ${int(SHORT.steps)} real steps`));
    expect(await page.getByTestId('guide-untrained').textContent()).toMatch(new RegExp(`\\d+\\.\\d% success on ${SHORT.evalEpisodes} real test tasks`));
    expect(await page.getByTestId('guide-dream-gain').textContent()).toMatch(/^[+−]\d+\.\d points$/);
    expect(await page.getByTestId('guide-real-gain').textContent()).toMatch(/^[+−]\d+\.\d points$/);
    expect(await page.getByTestId('guide-backend-note').textContent()).toMatch(/^Using wasm: chosen under Advanced\.$/);
    const rows = page.getByTestId('guide-comparison').locator('tbody tr');
    expect(await rows.count()).toBeGreaterThan(0);
    expect(await rows.first().locator('td').nth(2).textContent()).toMatch(/page/);
    await page.screenshot({ path: `${ARTIFACTS}/guide-done.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    // The Curriculum view shows the dream's curriculum: tasks chosen by their outcome variance (the
    // return's where no task's success varies any more, as a short run's last iterations may find).
    await tab(page, 'Curriculum').click();
    await expect.poll(() => page.getByTestId('curriculum-summary').textContent(), { timeout: 30_000 }).toMatch(/variance of the (success \(0 or 1\)|return)/);
    const slots = (await page.getByTestId('curriculum-last-iteration').textContent()) ?? '';
    expect(Number(/(\d+) task slots by variance/.exec(slots)?.[1])).toBeGreaterThan(0);

    // The dream policy opens in Evaluate in one click, and is judged there on more held-out tasks.
    await tab(page, 'Start').click();
    await page.getByTestId('guide-dream-evaluate').click();
    await expect.poll(() => tab(page, 'Evaluate').getAttribute('aria-current')).toBe('page');
    await expect.poll(() => page.getByTestId('policy-source').textContent(), { timeout: 30_000 }).toMatch(/^of the run shop GRPO dream/);
    await page.getByLabel('Held-out tasks', { exact: true }).fill(String(EVALUATED_HERE));
    await page.getByRole('button', { name: `Evaluate on ${EVALUATED_HERE} held-out tasks` }).click();
    await expect.poll(() => page.getByTestId('heldout-result').textContent(), { timeout: 120_000 })
      .toMatch(new RegExp(`^Success \\d+\\.\\d% \\(\\d+ of ${EVALUATED_HERE} held-out test tasks\\) in the real shop environment`));
    await expect.poll(() => page.getByTestId('heldout-chart').locator('canvas').count()).toBe(1);

    // The finished summary is still there after a reload.
    await tab(page, 'Start').click();
    await page.reload();
    await expect.poll(() => page.getByTestId('guide-state').textContent(), { timeout: 30_000 }).toBe('Done.');
    expect(await page.getByTestId('guide-dream-success').textContent()).toMatch(/^\d+\.\d%$/);
    expect(await page.getByTestId('guide-comparison').locator('tbody tr').count()).toBeGreaterThan(0);

    // A second guided run, reloaded while it fits, is offered back as interrupted (not the first's summary).
    await page.getByRole('button', { name: 'Run it again' }).click();
    await expect.poll(() => phaseState(page, 'fit'), { timeout: 120_000, interval: 500 }).toBe('running');
    await page.reload();
    await expect.poll(() => page.getByTestId('guide-state').textContent(), { timeout: 30_000 }).toBe('Interrupted.');
    expect(await phaseState(page, 'seed')).toBe('done');
    expect(await phaseState(page, 'fit')).toBe('interrupted');
    expect(await page.getByRole('button', { name: 'Resume the guided run' }).count()).toBe(1);
    expect(await page.getByTestId('guide-dream-success').count()).toBe(0);

    // The first run's two trained runs are kept for the Runs view; a later visit without a hash lands on Play.
    await tab(page, 'Runs').click();
    await expect.poll(() => page.getByTestId('runs-list').locator('tbody tr').count(), { timeout: 30_000 }).toBe(2);
    await page.goto(inject('appUrl'));
    await page.reload();
    await expect.poll(() => tab(page, 'Play').getAttribute('aria-current')).toBe('page');
    expect(errors).toEqual([]);
  }, 1_500_000);
});
