/**
 * The Experience view, driven by a person in Chromium: step kNN by hand beside the real shop (after
 * seeding the buffer through the Buffer view) and read the fidelity meter; fit the neural model
 * from that buffer, watch its chart, step with it, find it again after a reload, export it and have
 * a bad file refused; choose a WebLLM model with no network and get a clear error, not a hang or a
 * blank page; an HTTP endpoint that is not running, and one that answers slowly in prose (the wait
 * counted against its time limit, its answer shown, and a malformed action's reason after it).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startChatServer } from '../../src/experience/llm/chat-server.ts';
import { encodePolicyFile } from '../../src/policy/dgp.ts';
import { ARTIFACTS, collectErrors, launch, number, seedShop } from './browser.ts';

const SCORE = /^\d\.\d\d$/;
/** Where WebLLM fetches models and libraries from; aborted so the test never depends on the network. */
const MODEL_HOSTS = /huggingface\.co|hf\.co|githubusercontent\.com|mlc\.ai/;

describe('the Experience view, driven by a person in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launch({ webgpu: true }); });
  afterAll(async () => { await browser?.close(); });

  /**
   * One browser profile whose buffer is seeded through the Buffer view, for the kNN test and the
   * neural fit after it: neither fits before the fit test's own first check that nothing is fitted,
   * so the second need not seed the same 20 episodes again in a profile of its own. The first test
   * to ask goes on in the page that seeded (on the Buffer view, as after seeding by hand); a later
   * one opens the Buffer view of that profile in a page of its own. Either test also runs alone.
   */
  let seededProfile: Promise<{ context: BrowserContext; seeded: number; page: Page | null; errors: string[] }> | undefined;
  async function seededShopPage(viewport: { width: number; height: number }): Promise<{ page: Page; errors: string[]; seeded: number }> {
    seededProfile ??= (async () => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const errors = collectErrors(page);
      return { context, page, errors, seeded: await seedShop(page, 20) };
    })();
    const profile = await seededProfile;
    if (profile.page) {
      const { page } = profile;
      profile.page = null;
      await page.setViewportSize(viewport);
      return { page, errors: profile.errors, seeded: profile.seeded };
    }
    const page = await profile.context.newPage();
    await page.setViewportSize(viewport);
    const errors = collectErrors(page);
    await page.goto(`${inject('appUrl')}#buffer`);
    await expect.poll(() => number(page, 'count-shop-real'), { timeout: 30_000 }).toBe(profile.seeded);
    return { page, errors, seeded: profile.seeded };
  }

  it('steps kNN beside the real shop from a seeded buffer and shows both answers and the fidelity meter', async () => {
    // Seed the buffer as a person does, in the Buffer view.
    const { page, errors, seeded } = await seededShopPage({ width: 1280, height: 1100 });
    expect(seeded).toBeGreaterThan(20);

    await page.getByRole('link', { name: 'Experience' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Experience' }).getAttribute('aria-current')).toBe('page'); // the tab follows the hash change a tick later
    // Until the experience worker has read this browser's saved models it says it is checking, not `knn`.
    await expect.poll(() => page.getByTestId('active-experience').textContent(), { timeout: 30_000 }).toBe('knn');
    await expect.poll(() => page.getByTestId('buffer-note').textContent(), { timeout: 30_000 })
      .toBe(`Retrieval draws on the ${seeded.toLocaleString('en-US')} real shop transitions in the replay buffer (Buffer view).`);

    // Start a shop task and search, as the first action.
    await expect.poll(() => page.getByLabel('Environment').inputValue()).toBe('shop');
    await page.getByRole('button', { name: 'Start episode' }).click();
    const instruction = page.getByTestId('experience-instruction');
    await expect.poll(() => instruction.textContent(), { timeout: 30_000 }).toMatch(/price lower than/);
    const query = (await instruction.textContent())!.replace(/,? and price lower than.*$/, '').split(' with ')[0]!;
    await page.getByLabel('Search the store').fill(query);
    await page.getByRole('button', { name: 'Search', exact: true }).click();

    // Both columns answer: the model's prediction (with kNN's reasoning) and the real next state.
    await expect.poll(() => page.getByRole('heading', { name: /^Step 1:/ }).count(), { timeout: 30_000 }).toBe(1);
    const predicted = page.getByTestId('predicted');
    const real = page.getByTestId('real');
    expect(await predicted.getByRole('heading', { name: /Experience model/ }).textContent()).toMatch(/knn$/);
    expect(await page.getByTestId('predicted-reasoning').textContent()).toMatch(/^kNN: copied the outcome of the most similar real transition/);
    expect(await page.getByTestId('predicted-next').textContent()).toMatch(/page\s*results/);
    expect(await page.getByTestId('real-next').textContent()).toMatch(/page\s*results/);
    expect(await page.getByTestId('predicted-next').getByRole('listitem').count()).toBeGreaterThan(0);
    expect(await real.getByRole('heading', { name: 'Real environment' }).count()).toBe(1);
    expect(await page.getByTestId('real-outcome').textContent()).toBe('Reward 0.00 · episode goes on');
    expect(await page.getByTestId('step-next-f1').textContent()).toMatch(SCORE);
    expect(await page.getByText(/^The 3 retrieved real transitions the model saw$/).count()).toBe(1);

    // The meter shows numbers for the one scored step.
    expect(await page.getByTestId('meter-steps').textContent()).toBe('1');
    for (const id of ['meter-next-f1', 'meter-action-f1', 'meter-reward-mae', 'meter-done-accuracy']) {
      expect(await page.getByTestId(id).textContent()).toMatch(SCORE);
    }
    const f1 = await number(page, 'meter-next-f1');
    expect(f1).toBeGreaterThan(0);
    expect(f1).toBeLessThanOrEqual(1);

    // A second action, clicked from the admissible ones of the REAL results page.
    await page.getByRole('group', { name: 'Admissible actions' }).getByRole('button', { name: /^click\[b0/ }).first().click();
    await expect.poll(() => page.getByRole('heading', { name: /^Step 2:/ }).count(), { timeout: 30_000 }).toBe(1);
    expect(await page.getByTestId('real-next').textContent()).toMatch(/page\s*item/);
    expect(await page.getByTestId('predicted-next').textContent()).not.toBe('');
    expect(await page.getByTestId('meter-steps').textContent()).toBe('2');
    expect(await page.getByRole('heading', { name: 'Steps so far' }).count()).toBe(1);
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}/experience-knn.png`, fullPage: true });

    // Switching tabs keeps the episode and the meter.
    await page.getByRole('link', { name: 'Buffer', exact: true }).click();
    await page.getByRole('link', { name: 'Experience' }).click();
    expect(await page.getByTestId('meter-steps').textContent()).toBe('2');
    expect(await page.getByRole('heading', { name: /^Step 2:/ }).count()).toBe(1);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `${ARTIFACTS}/experience-knn-dark.png`, fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);

  it('fits the neural model from the buffer with progress and a chart, steps with it, keeps it across a reload, exports it and refuses a bad file', async () => {
    const { page, errors, seeded } = await seededShopPage({ width: 1280, height: 1400 });
    expect(seeded).toBeGreaterThan(20);

    await page.getByRole('link', { name: 'Experience' }).click();
    await page.getByRole('heading', { name: 'Experience model', exact: true }).waitFor();
    // Nothing fitted yet: the neural choice is the default, kNN answers, and the view says how to get one.
    expect(await page.getByRole('radio', { name: /Neural \(no download\)/ }).isChecked()).toBe(true);
    await expect.poll(() => page.getByTestId('active-experience').textContent(), { timeout: 30_000 }).toBe('knn');
    await expect.poll(() => page.getByTestId('neural-hint').textContent(), { timeout: 30_000 }).toMatch(/^No neural model is fitted for shop yet, so kNN answers\./);
    expect(await page.getByRole('button', { name: 'Fit the neural model (no download)' }).isVisible()).toBe(true);
    expect(await page.getByTestId('neural-model').textContent()).toBe('No neural model is fitted for shop yet.');

    // Fit one epoch: progress shows while it runs, Stop is there, and the page stays usable.
    const epochs = page.getByLabel('Epochs', { exact: true });
    expect(await epochs.inputValue()).toBe('6');
    await epochs.fill('1');
    await page.getByRole('button', { name: 'Fit', exact: true }).click();
    await expect.poll(() => page.getByTestId('fit-status').textContent(), { timeout: 30_000 }).toMatch(/^(Starting|Preparing|Epoch 1 \/ 1)/);
    const stop = page.getByRole('button', { name: 'Stop', exact: true });
    expect(await stop.count()).toBe(1);
    expect(await page.getByLabel('Retrieved real transitions per step (k)').isEnabled()).toBe(true);
    await expect.poll(() => page.getByTestId('active-experience').textContent(), { timeout: 240_000 }).toBe('neural');
    expect(await page.getByTestId('fit-status').textContent()).toBe('Fitted.');
    expect(await stop.isDisabled()).toBe(true);
    expect(await page.getByTestId('neural-hint').count()).toBe(0);
    const backend = /^Using (\w+)/.exec((await page.getByTestId('neural-backend').textContent()) ?? '')?.[1];
    // Chromium offers webgpu (--enable-unsafe-webgpu; SwiftShader here), wasm and cpu: the worker
    // measured them and took the fastest, which without a GPU is wasm.
    expect(backend).toBe('wasm');
    expect(await page.getByTestId('probe-figure').evaluateAll((spans) => spans.map((s) => s.getAttribute('data-backend')).sort())).toEqual(['cpu', 'wasm', 'webgpu']);
    expect(await page.getByTestId('neural-model').textContent()).toMatch(/^Fitted .* on wasm · [\d,]+ real transitions \([\d,]+ held out\) · 1 epoch · \d+ KB, saved in this browser\.$/);
    expect(await page.getByRole('status').filter({ hasText: /^Fitted the neural model for shop on wasm/ }).count()).toBe(1);

    // The chart: uPlot's canvas with the four fidelity series, and the numbers as text beside it.
    const chart = page.getByTestId('neural-chart');
    expect(await chart.getByText('Fidelity on held-out episodes, per epoch').count()).toBe(1);
    // uPlot draws its canvas in an effect after the first paint: wait for it rather than race it.
    await expect.poll(() => chart.locator('canvas').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    for (const label of ['next-state F1', 'action-set F1', 'reward accuracy', 'done accuracy']) {
      expect(await chart.locator('.u-legend').getByText(label, { exact: true }).count()).toBe(1);
    }
    expect(await page.getByTestId('neural-validation').textContent()).toMatch(/^Held-out episodes after the last epoch: next-state F1 \d\.\d\d · action-set F1 \d\.\d\d · reward accuracy \d\.\d\d · done accuracy \d\.\d\d$/);
    await page.screenshot({ path: `${ARTIFACTS}/experience-neural-fitted.png`, fullPage: true });

    // Step by hand with it: the neural model's reasoning, next state, reward and done beside the real ones.
    await page.getByRole('button', { name: 'Start episode' }).click();
    const instruction = page.getByTestId('experience-instruction');
    await expect.poll(() => instruction.textContent(), { timeout: 30_000 }).toMatch(/price lower than/);
    await page.getByLabel('Search the store').fill('running shoes');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { name: /^Step 1:/ }).count(), { timeout: 60_000 }).toBe(1);
    expect(await page.getByTestId('predicted').getByRole('heading', { name: /Experience model/ }).textContent()).toMatch(/neural$/);
    expect((await page.getByTestId('predicted-reasoning').textContent())!.length).toBeGreaterThan(0);
    expect((await page.getByTestId('predicted-next').textContent())!.length).toBeGreaterThan(0);
    expect(await page.getByTestId('predicted-outcome').textContent()).toMatch(/^Reward \d\.\d\d · episode (ends|goes on)$/);
    expect(await page.getByTestId('real-next').textContent()).toMatch(/page\s*results/);
    expect(await page.getByTestId('step-next-f1').textContent()).toMatch(SCORE);
    expect(await page.getByTestId('meter-steps').textContent()).toBe('1');
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}/experience-neural-step.png`, fullPage: true });

    // A second fit, stopped: the model that was there stays.
    const before = await page.getByTestId('neural-model').textContent();
    await epochs.fill('6');
    await page.getByRole('button', { name: 'Fit', exact: true }).click();
    await expect.poll(() => page.getByTestId('fit-status').textContent(), { timeout: 30_000 }).toMatch(/^(Preparing|Epoch 1 \/ 6)/);
    await stop.click();
    await expect.poll(() => page.getByTestId('fit-status').textContent(), { timeout: 60_000 }).toBe('Stopped: the model that was there is kept.');
    expect(await page.getByRole('status').filter({ hasText: 'The fit was stopped; shop keeps the model it had.' }).count()).toBe(1);
    expect(await page.getByTestId('neural-model').textContent()).toBe(before);
    expect(await page.getByTestId('active-experience').textContent()).toBe('neural');
    expect(await page.getByRole('alert').count()).toBe(0);

    // A reload finds the model in IndexedDB and uses it.
    await page.reload();
    await expect.poll(() => page.getByTestId('active-experience').textContent(), { timeout: 60_000 }).toBe('neural');
    const summary = await page.getByTestId('neural-model').textContent();
    expect(summary).toMatch(/^Fitted .* on wasm/);
    // The probe runs again in the fresh worker (software WebGPU's warm-up included): minutes on a loaded machine.
    await expect.poll(() => page.getByTestId('neural-backend').textContent(), { timeout: 240_000 }).toMatch(/^Using wasm: the fastest here/);
    // After a reload the chart's epochs arrive with the stored model, and uPlot draws after a paint.
    await expect.poll(() => page.getByTestId('neural-chart').locator('canvas').count(), { timeout: 10_000 }).toBeGreaterThan(0);

    // Export: a .dgx download.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export .dgx' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^neural-shop-[\dT-]+\.dgx$/);
    const file = `${ARTIFACTS}/${download.suggestedFilename()}`;
    await download.saveAs(file);
    const bytes = readFileSync(file);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('DGXF');

    // Bad files: a specific error in an alert, and nothing changes.
    const importer = page.getByLabel('Import a .dgx file');
    await importer.setInputFiles({ name: 'notes.dgx', mimeType: 'application/octet-stream', buffer: Buffer.from('these are my notes, not a model') });
    const fileError = page.getByTestId('neural-file-error');
    await expect.poll(() => fileError.textContent(), { timeout: 30_000 }).toMatch(/^notes\.dgx: /);
    expect(await fileError.getAttribute('role')).toBe('alert');
    const policy = encodePolicyFile(
      { env: 'shop', algorithm: 'grpo', backend: 'cpu', architecture: {}, featurizer: {}, training: {}, evaluation: null, createdAt: '2025-01-01T00:00:00.000Z' },
      [{ name: 'w', shape: [2], data: new Float32Array([1, 2]) }],
    );
    await importer.setInputFiles({ name: 'policy.dgx', mimeType: 'application/octet-stream', buffer: Buffer.from(policy) });
    await expect.poll(() => fileError.textContent(), { timeout: 30_000 }).toMatch(/^policy\.dgx: .*policy file \(\.dgp\), not an experience model file/);
    expect(await page.getByTestId('neural-model').textContent()).toBe(summary);
    expect(await page.getByTestId('active-experience').textContent()).toBe('neural');
    await page.screenshot({ path: `${ARTIFACTS}/experience-neural-bad-file.png`, fullPage: true });

    // The exported file imports cleanly.
    await importer.setInputFiles(file);
    await expect.poll(() => page.getByTestId('neural-model').textContent(), { timeout: 60_000 }).toMatch(/^Imported from neural-shop-.*\.dgx .* on wasm/);
    expect(await fileError.count()).toBe(0);
    expect(await page.getByTestId('active-experience').textContent()).toBe('neural');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `${ARTIFACTS}/experience-neural-dark.png`, fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  }, 420_000);

  it('shows a clear error, not a hang or a blank page, when a WebLLM model is chosen with no network', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const blocked: string[] = [];
    await context.route(MODEL_HOSTS, (route) => {
      blocked.push(route.request().url());
      return route.abort('internetdisconnected');
    });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    const scripts: string[] = [];
    page.on('request', (r) => { if (r.resourceType() === 'script' || r.url().endsWith('.js')) scripts.push(r.url()); });

    await page.goto(`${inject('appUrl')}#experience`);
    await page.getByRole('heading', { name: 'Experience model', exact: true }).waitFor();
    // WebLLM (megabytes) is not part of the first page: it comes only when the person picks it.
    expect(scripts.some((u) => /webllm/i.test(u))).toBe(false);

    await page.getByRole('radio', { name: /WebLLM/ }).check();
    const select = page.getByLabel('Model', { exact: true });
    await expect.poll(() => select.locator('option').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    expect(scripts.some((u) => /webllm/i.test(u))).toBe(true);
    const modelId = await select.inputValue();
    expect(modelId).toMatch(/-MLC$/);
    await expect.poll(() => page.getByTestId('cache-status').textContent(), { timeout: 30_000 }).toMatch(/^(Not in the browser cache|The browser cache cannot be read)/);

    const load = page.getByRole('button', { name: 'Load model' });
    await load.click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.count(), { timeout: 90_000 }).toBe(1);
    const message = (await alert.textContent()) ?? '';
    expect(message).toMatch(/could not be fetched|Check the network|WebGPU/);
    if (/could not be fetched/.test(message)) {
      // The download was tried (from WebLLM's worker) and refused by the route: no real network involved.
      expect(message).toContain(modelId);
      expect(blocked.length).toBeGreaterThan(0);
    }

    // The page is usable again: the load can be retried, nothing is stuck loading, kNN is still in use.
    expect(await load.isEnabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Cancel loading' }).isDisabled()).toBe(true);
    expect(await page.getByTestId('load-status').textContent()).toBe('Loading failed (see the message above).');
    expect(await page.getByTestId('active-experience').textContent()).toBe('knn');
    expect((await page.locator('main').innerText()).length).toBeGreaterThan(200);
    expect(await page.getByRole('button', { name: 'Start episode' }).isEnabled()).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}/experience-webllm-offline.png`, fullPage: true });

    // With an empty buffer the view says to seed it first, and kNN's step says so too.
    await page.getByRole('button', { name: 'Start episode' }).click();
    await expect.poll(() => page.getByTestId('buffer-note').textContent(), { timeout: 30_000 }).toMatch(/holds no real shop transitions.*seed the buffer first/);
    await page.getByLabel('Search the store').fill('shoes');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.getByTestId('predicted-problem').textContent(), { timeout: 30_000 }).toMatch(/seed it from the real environment first/);
    expect(await page.getByTestId('real-next').textContent()).toMatch(/page\s*results/);
    await page.screenshot({ path: `${ARTIFACTS}/experience-empty-buffer.png`, fullPage: true });
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 240_000);

  it('says what to do when the HTTP endpoint is not running, and the real environment does not move', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`${inject('appUrl')}#experience`);
    await page.getByRole('radio', { name: /HTTP endpoint/ }).check();
    await page.getByLabel('Endpoint', { exact: true }).fill('http://127.0.0.1:9');
    await page.getByLabel('Model name').fill('qwen2.5:0.5b');
    await page.getByRole('button', { name: 'Use this endpoint' }).click();
    await expect.poll(() => page.getByTestId('active-experience').textContent(), { timeout: 30_000 }).toBe('llm:http/qwen2.5:0.5b@127.0.0.1:9');

    await page.getByRole('button', { name: 'Start episode' }).click();
    await page.getByLabel('Search the store').fill('shoes');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.count(), { timeout: 90_000 }).toBe(1);
    expect(await alert.textContent()).toMatch(/could not (connect to|reach) http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions/);
    // No step was recorded: the real shop still shows its search page, ready for another try.
    expect(await page.getByRole('heading', { name: /^Step 1:/ }).count()).toBe(0);
    expect(await page.getByLabel('Search the store').isEnabled()).toBe(true);

    // A bad address is refused when chosen, in words.
    await page.getByLabel('Endpoint', { exact: true }).fill('localhost:8080');
    await page.getByRole('button', { name: 'Use this endpoint' }).click();
    await expect.poll(() => alert.textContent(), { timeout: 30_000 }).toMatch(/must start with http:\/\/ or https:\/\//);
    expect(await page.getByTestId('active-experience').textContent()).toBe('llm:http/qwen2.5:0.5b@127.0.0.1:9');
    await page.screenshot({ path: `${ARTIFACTS}/experience-http-refused.png`, fullPage: true });
    expect(pageErrors).toEqual([]);
  }, 240_000);

  it('counts the wait on a slow endpoint, and shows what it answered when the answer cannot be used', async () => {
    const prose = 'I imagine the store would show a few pairs of shoes here.';
    // A real OpenAI-compatible server on loopback that takes a second and answers in prose, every time.
    const server = await startChatServer({
      model: 'prose-model',
      answer: async () => {
        await new Promise((done) => setTimeout(done, 1_200));
        return { content: prose };
      },
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const errors = collectErrors(page);
    try {
      await page.goto(`${inject('appUrl')}#experience`);
      await page.getByRole('radio', { name: /HTTP endpoint/ }).check();
      await page.getByLabel('Endpoint', { exact: true }).fill(server.url);
      await page.getByLabel('Model name').fill('prose-model');
      await page.getByRole('button', { name: 'Use this endpoint' }).click();
      await expect.poll(() => page.getByTestId('active-experience').textContent(), { timeout: 30_000 }).toMatch(/^llm:http\/prose-model@/);
      await page.getByRole('button', { name: 'Start episode' }).click();
      await page.getByLabel('Search the store').fill('shoes');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      // Three attempts of a second each: the view counts the seconds while it waits.
      await expect.poll(() => page.getByTestId('experience-waited').textContent(), { timeout: 30_000 }).toMatch(/^waiting [1-9]\d* s$/);
      // and how long the endpoint has before a request is given up, so the wait is seen to end.
      expect(await page.getByTestId('experience-wait-limit').textContent()).toBe(' (the endpoint has 60 s to answer each request)');
      await expect.poll(() => page.getByTestId('predicted-problem').textContent(), { timeout: 60_000 })
        .toMatch(/^Unusable: the model's reply could not be used after 3 attempts: no JSON object in the reply/);
      expect(await page.getByTestId('predicted-reply').textContent()).toBe(prose);
      expect(await page.getByTestId('experience-waited').count()).toBe(0);
      // A malformed action: the real panel says why the shop did not take it, and the history keeps
      // the first step marked as an unusable answer, not a poor prediction.
      await page.getByLabel('Type any action').fill('dance[wildly');
      await page.getByRole('button', { name: 'Send' }).click();
      await expect.poll(() => page.getByTestId('real-invalid').textContent(), { timeout: 30_000 })
        .toBe('The real environment did not accept the action. "dance[wildly" is not a well-formed action (search[...] or click[...]), so nothing changes and the reward is 0.');
      // The model was not asked about it: its panel says so, not "Unusable" as if the model had failed.
      expect(await page.getByTestId('predicted-not-asked').textContent()).toBe('Not asked: the action is not admissible, so the simulator ends in its failure state.');
      expect(await page.getByTestId('predicted-problem').count()).toBe(0);
      const history = page.getByRole('region', { name: 'Steps so far' }).getByRole('listitem');
      expect(await history.nth(0).textContent()).toMatch(/^search\[shoes\] → next-state F1 \d\.\d\d .* · the model's answer was unusable$/);
      expect(await history.nth(1).textContent()).toBe('dance[wildly → not admissible (not scored)');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await server.close();
    }
  }, 240_000);
});
