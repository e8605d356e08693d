/**
 * `rollout --trace DIR` (issue 57, "Watch the agent"): one HTML page in DIR, made by the report
 * builder the app's Evaluate view uses too, with every step of every episode traced (a picture of
 * the page, the abstract state, the action with its probability and the next alternatives, the
 * reward) and each episode's outcome. Pages are hostile: what they say is text in the report,
 * never markup, and the report opens offline and calls nowhere. A long rollout is traced only in
 * part, and the report says what it left out.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { main } from '../../../src/cli/main.ts';
import type { Env, Observation, StepResult, Task } from '../../../src/core/types.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { TraceRecorder } from '../../../src/jobs/trace-recorder.ts';
import { traceReportHtml, type TraceReport } from '../../../src/jobs/trace-report.ts';
import { CHROMIUM_ARGS, chromiumPath } from '../../../src/platform/chromium.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { exportPolicy } from '../../../src/policy/policy-file.ts';
import { DEFAULT_POLICY, Policy } from '../../../src/policy/policy.ts';
import { capture } from '../../cli-io.ts';

/** Markup a hostile page puts in its instruction and an element's name: it would run if the report read it as HTML. */
const HOSTILE = '<img src=x onerror="document.title=\'pwned\'"></pre><script>document.title="pwned"</script>';

/** A site of one page whose instruction and one button's name carry HOSTILE; its other button, Done, wins. */
function hostileSite(dir: string): string {
  const site = path.join(dir, 'site');
  // A text inside the page's own script: its `</script>` must not end the script early.
  const literal = (text: string): string => JSON.stringify(text).replace(/</g, '\\u003c');
  mkdirSync(site, { recursive: true });
  writeFileSync(path.join(site, 'a.html'), `<!doctype html><html lang="en"><head><title>Hostile</title></head><body>
<p id="query"></p><button id="bad"></button> <button onclick="window.R = 1; window.D = true">Done</button>
<script>
document.getElementById('query').textContent = ${literal(`Press Done. ${HOSTILE}`)};
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

async function cli(args: string[]): Promise<{ result: Record<string, unknown>; stderr: string }> {
  const io = capture();
  const code = await main(args, io);
  if (code !== 0) throw new Error(`cli ${args.join(' ')} exited ${code}: ${io.stderr.join('\n')}`);
  return { result: JSON.parse(io.stdout.at(-1) as string) as Record<string, unknown>, stderr: io.stderr.join('\n') };
}

interface ReadStep {
  picture: { src: string; width: number } | null;
  state: string;
  action: string;
  probability: string;
  alternatives: string[];
  reward: string;
}

interface ReadReport {
  title: string;
  scripts: number;
  handlers: number;
  notes: string[];
  episodes: { outcome: string; steps: ReadStep[]; endPicture: boolean }[];
  requests: string[];
}

describe('rollout --trace', () => {
  let dir: string;
  let site: string;
  let dgp: string;
  let browser: Browser;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-trace-'));
    site = hostileSite(dir);
    // A saved web policy (random weights), made by the code the trainer uses.
    await useBackend(['cpu']);
    const policy = new Policy(DEFAULT_POLICY, 3);
    dgp = path.join(dir, 'P.dgp');
    writeFileSync(dgp, await exportPolicy(policy, {
      env: 'web', algorithm: 'grpo', backend: 'cpu', evaluation: null, createdAt: '2025-01-02T03:04:05.000Z',
      training: { mode: 'real', seed: 3, realTransitions: 0, syntheticTransitions: 0, iterations: 0 },
    }));
    policy.dispose();
    browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true });
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The report as Chromium shows it, offline: what each step holds, and every request the page made. */
  async function readReport(file: string): Promise<ReadReport> {
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    try {
      await page.goto(pathToFileURL(file).href);
      await page.waitForFunction(() => [...document.images].every((image) => image.complete));
      const read = await page.evaluate(() => ({
        title: document.title,
        scripts: document.scripts.length,
        handlers: [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).length,
        notes: [...document.querySelectorAll('header .note')].map((n) => n.textContent ?? ''),
        episodes: [...document.querySelectorAll('section.episode')].map((section) => ({
          outcome: section.querySelector('p.outcome')?.textContent ?? '',
          endPicture: section.querySelector('article.end img.picture') !== null,
          steps: [...section.querySelectorAll('article.step')].map((step) => {
            const image = step.querySelector<HTMLImageElement>('img.picture');
            return {
              picture: image ? { src: image.src.slice(0, 22), width: image.naturalWidth } : null,
              state: step.querySelector('pre.state')?.textContent ?? '',
              action: step.querySelector('.action code')?.textContent ?? '',
              probability: (step.querySelector('.action .prob') ?? step.querySelector('.action .muted'))?.textContent ?? '',
              alternatives: [...step.querySelectorAll('ol.alternatives li')].map((li) => li.textContent ?? ''),
              reward: step.querySelector('.reward b')?.textContent ?? '',
            };
          }),
        })),
      }));
      return { ...read, requests };
    } finally {
      await page.close();
    }
  }

  /** What every report must be: nothing of the pages ran, nothing was fetched, no address to fetch. */
  function expectInert(file: string, read: ReadReport): void {
    expect(read.title).not.toBe('pwned');
    expect(read.scripts).toBe(0);
    expect(read.handlers).toBe(0);
    expect(read.requests).toEqual([pathToFileURL(file).href]);
    expect(readFileSync(file, 'utf8')).not.toMatch(/https?:\/\//i);
  }

  it('writes every step of a saved policy: the page, the state, the action with its probability and alternatives, the reward', async () => {
    const out = path.join(dir, 'dgp-trace');
    const { result, stderr } = await cli(['rollout', '--env', 'web', '--site', site, '--policy', dgp, '--backend', 'cpu', '--episodes', '2', '--trace', out, '--json']);
    const file = path.join(out, 'index.html');
    expect(result.trace).toEqual({ path: file, episodes: 2, untracedEpisodes: 0 });
    expect(stderr).toContain(`trace: ${file} (2 episodes`);
    const read = await readReport(file);
    expectInert(file, read);
    expect(read.episodes).toHaveLength(2);
    const steps = read.episodes.flatMap((e) => e.steps);
    // One section per step the rollout took.
    expect(steps.length).toBe(Math.round((result.meanSteps as number) * 2));
    for (const step of steps) {
      expect(step.picture?.src).toBe('data:image/png;base64,');
      expect(step.picture?.width).toBeGreaterThan(100);
      // The page's markup is in the state as text, as it reached the policy.
      expect(step.state).toContain(`instruction: Press Done. ${HOSTILE}`);
      expect(step.state).toContain(`button: #1 ${HOSTILE}`);
      expect(step.state).toMatch(/button: #2 Done/);
      expect(step.action).toMatch(/^click\[#[12] /);
      expect(step.probability).toMatch(/^\d{1,3}\.\d%$/);
      // The page admits two actions: the other one is the alternative, with its probability.
      expect(step.alternatives).toHaveLength(1);
      expect(step.alternatives[0]).toMatch(/^click\[#[12] .*\d\.\d%$/);
      expect(step.reward).toMatch(/^-?\d+(\.\d+)?$/);
    }
    const probabilities = steps.map((s) => Number.parseFloat(s.probability) + Number.parseFloat((s.alternatives[0] as string).split(' ').at(-1) as string));
    for (const total of probabilities) expect(total).toBeCloseTo(100, 0);
    for (const episode of read.episodes) {
      expect(episode.outcome).toMatch(/^Outcome: (success|failure[^,]*), reward -?\d/);
      expect(episode.endPicture).toBe(true);
    }
  });

  it('says a scripted policy gives no probabilities, and still shows every page', async () => {
    const out = path.join(dir, 'random-trace');
    const { result } = await cli(['rollout', '--env', 'web', '--site', site, '--policy', 'random', '--episodes', '2', '--seed', '5', '--trace', out, '--json']);
    const file = path.join(out, 'index.html');
    const read = await readReport(file);
    expectInert(file, read);
    expect(read.notes.join(' ')).toMatch(/random is a scripted policy: .*gives no probabilities/);
    const steps = read.episodes.flatMap((e) => e.steps);
    expect(steps.length).toBe(Math.round((result.meanSteps as number) * 2));
    for (const step of steps) {
      expect(step.picture?.width).toBeGreaterThan(100);
      expect(step.probability).toBe('probability not known');
      expect(step.alternatives).toEqual([]);
    }
  });

  it('keeps the first 50 episodes of a long rollout and says so', async () => {
    const out = path.join(dir, 'long-trace');
    const { result, stderr } = await cli(['rollout', '--env', 'shop', '--policy', 'oracle', '--episodes', '53', '--trace', out, '--json']);
    expect(result).toMatchObject({ episodes: 53, trace: { episodes: 50, untracedEpisodes: 3 } });
    expect(stderr).toMatch(/trace: The trace keeps the first 50 episodes: 3 more were played \(they count in the rollout's figures\) and not traced/);
    const html = readFileSync(path.join(out, 'index.html'), 'utf8');
    expect(html.match(/<section class="episode"/g)).toHaveLength(50);
    expect(html).toContain('3 more were played');
    // The shop shows no pages: its steps have no pictures and say nothing about them.
    expect(html).not.toMatch(/<img|No picture/);
  });

  it('refuses a --trace folder it cannot make, before any episode', async () => {
    const blocker = path.join(dir, 'a-file');
    writeFileSync(blocker, 'x');
    const io = capture();
    expect(await main(['rollout', '--env', 'shop', '--policy', 'oracle', '--episodes', '2', '--trace', path.join(blocker, 'trace')], io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(/--trace .*a-file\/trace: the folder cannot be made: a part of its path is not a folder/);
    expect(io.stdout).toEqual([]);
  });
});

/** An env of four steps that shows a picture of 1,000 bytes (a PNG's signature, then zeros). */
class PicturedEnv implements Env {
  readonly name = 'shop';
  private steps = 0;
  async reset(): Promise<Observation> {
    this.steps = 0;
    return { text: 'state 0', actions: ['go'] };
  }
  async step(): Promise<StepResult> {
    this.steps++;
    const done = this.steps === 4;
    return { observation: { text: `state ${this.steps}`, actions: ['go'] }, reward: done ? 1 : 0, done, info: { valid: true, won: done, truncated: false } };
  }
  async screenshot(): Promise<Uint8Array> {
    const png = new Uint8Array(1000);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    return png;
  }
}

describe('the trace recorder', () => {
  it('keeps episodes, steps and pictures within its limits, and counts what it left out', async () => {
    const recorder = new TraceRecorder({ episodes: 1, stepsPerEpisode: 2, steps: 10, pictureBytes: 1500 });
    const shop = envSpec('shop');
    const env = recorder.spec({ ...shop, createEnv: () => new PicturedEnv() }).createEnv();
    const task = shop.tasks('test')[0] as Task;
    for (let episode = 0; episode < 2; episode++) {
      await env.reset(task);
      for (let done = false; !done;) done = (await env.step('go')).done;
    }
    const report = recorder.report({ env: 'shop', policy: 'test', split: 'test' });
    expect(report.episodes).toHaveLength(1);
    const [episode] = report.episodes;
    expect(episode?.steps.map((s) => s.state)).toEqual(['state 0', 'state 1']);
    expect(episode?.untracedSteps).toBe(2);
    expect(episode?.outcome).toEqual({ won: true, totalReward: 1, truncated: false });
    // Two pictures fit 1,500 bytes (the second began below it); the last one is left out.
    expect(episode?.steps.map((s) => s.picture !== undefined && 'png' in s.picture)).toEqual([true, true]);
    expect(episode?.last).toMatchObject({ state: 'state 4', picture: { missing: expect.stringMatching(/left out/) } });
    expect(report.notes).toEqual([
      'The trace keeps the first 1 episodes: 1 more were played (they count in the rollout\'s figures) and not traced.',
      '2 steps were played and not traced: the trace keeps at most 2 steps of an episode and 10 in all.',
      expect.stringMatching(/^1 pictures were left out: the trace keeps at most 0\.0014\d* MiB of pictures\.$/),
    ]);
  });
});

describe('the trace report', () => {
  it('escapes every text it shows and embeds only PNG bytes', () => {
    const report: TraceReport = {
      env: HOSTILE, policy: HOSTILE, split: HOSTILE, probabilityNote: HOSTILE, notes: [HOSTILE], createdAt: HOSTILE,
      episodes: [{
        index: 0, taskId: HOSTILE, instruction: HOSTILE, untracedSteps: 0,
        steps: [{
          state: HOSTILE, actions: [HOSTILE], picture: { png: new TextEncoder().encode(HOSTILE) }, action: HOSTILE,
          choice: { probability: 0.5, alternatives: [{ action: HOSTILE, probability: 0.5 }], candidates: 2 }, reward: 0, valid: false, explanation: HOSTILE,
        }],
        last: { state: HOSTILE, picture: { missing: HOSTILE } },
        outcome: { won: false, totalReward: 0, truncated: false, envError: HOSTILE },
      }],
    };
    const html = traceReportHtml(report);
    expect(html).not.toMatch(/<script|<img src=x|<\/pre><script/i);
    expect(html).toContain('&lt;script&gt;document.title=&quot;pwned&quot;&lt;/script&gt;');
    expect(html).not.toContain('data:image/png');
    expect(html).toContain('No picture: the bytes given were not a PNG.');
  });
});
