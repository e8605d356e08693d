/**
 * `record`: a person plays a site's task in a visible Chromium, under `xvfb-run`. The test is the
 * person: it reaches the recorded browser through a DevTools port (DREAMGYM_CHROMIUM_ARGS) and
 * works the page with the mouse and the keyboard, as input events through the browser's own input
 * pipeline (not the env's actions); the command maps each input to the admissible action it means,
 * plays it, and stores the episodes as a demonstration run that behaviour cloning then learns from.
 * Only `record` itself runs as a process (under xvfb-run, with a visible browser); the other
 * commands run in this process (`main`), each spawn of the CLI costing a load of the whole CLI.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import { loadStoreFile } from '../../../src/replay/file-store.ts';
import { capture } from '../../cli-io.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SITE = 'tests/unit/fixtures/web-actionable';
const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-record-'));
/** Ends what a test started and did not see end (a failed or timed-out test's `record`). */
const leftOver: (() => void)[] = [];
afterAll(() => {
  for (const stop of leftOver) stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A command in this process, as `main` runs it from the command line. */
async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = capture();
  const code = await main(args, io);
  return { code, stdout: io.stdout.join('\n'), stderr: io.stderr.join('\n') };
}

/** A free-enough port for the recorded browser's DevTools endpoint. */
const PORT = 9300 + Math.floor(Math.random() * 500);

/**
 * The recorded browser, once it listens: tried until `record` ends (not for a fixed time, which a
 * loaded machine, starting the CLI, Xvfb and Chromium, once ran past).
 */
async function connect(running: () => boolean): Promise<Browser> {
  for (;;) {
    try {
      return await chromium.connectOverCDP(`http://127.0.0.1:${PORT}`);
    } catch (error) {
      if (!running()) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** The recorded page once the env has read it (the name field has an id then, and the episode has begun). */
async function pageOf(browser: Browser, running: () => boolean): Promise<Page> {
  for (;;) {
    const page = browser.contexts().flatMap((c) => c.pages()).find((p) => p.url().endsWith('/sign-up.html'));
    if (page) return page;
    if (!running()) throw new Error('the recorded page never opened');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('record', () => {
  it('turns a person\'s mouse and keyboard on a visible page into a demonstration that BC learns from', async () => {
    const out = path.join(dir, 'demos.jsonl');
    const child = spawn('xvfb-run', ['-a', process.execPath, '--import', 'tsx', 'src/cli/main.ts', 'record', '--site', SITE, '--task', 'sign-up', '--episodes', '2', '--out', out, '--json'], {
      cwd: ROOT,
      env: { ...process.env, DREAMGYM_CHROMIUM_ARGS: `--remote-debugging-port=${PORT}` },
      stdio: ['ignore', 'pipe', 'pipe'],
      // A group of its own (xvfb-run, Xvfb, the CLI), ended whole where the test fails before `record` does.
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    let ended = false;
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => {
      ended = true;
      resolve(code);
    }));
    const running = (): boolean => !ended;
    const stop = (): void => {
      if (ended) return;
      try {
        process.kill(-(child.pid as number));
      } catch {
        // The group ended on its own meanwhile.
      }
    };
    leftOver.push(stop);
    const episodeStarted = (n: number) => new Promise<void>((resolve, reject) => {
      const check = () => (stderr.includes(`episode ${n} of 2`) ? resolve() : undefined);
      child.stderr.on('data', check);
      check();
      void exited.then(() => reject(new Error(`record ended before episode ${n}: ${stderr}`)));
    });
    const browser = await connect(running).catch((error: unknown) => {
      stop();
      throw error;
    });
    try {
      for (const n of [1, 2]) {
        await episodeStarted(n);
        const page = await pageOf(browser, running);
        // As a person: click into the field, type, then click Save (the field's change comes as it loses focus).
        await page.click('#name');
        await page.keyboard.type(n === 1 ? 'Ada' : 'Bob');
        await page.click('#save');
        await new Promise<void>((resolve) => {
          const check = () => (/done: the task succeeded|over without success/.test(stderr.split(`episode ${n} of 2`)[1] ?? '') ? resolve() : undefined);
          child.stderr.on('data', check);
          check();
        });
      }
    } catch (error) {
      stop();
      throw error;
    } finally {
      await browser.close().catch(() => undefined);
    }
    expect(await exited, stderr).toBe(0);
    const summary = JSON.parse(stdout.trim().split('\n').pop() as string) as Record<string, unknown>;
    expect(summary).toMatchObject({ task: 'sign-up', episodes: 2, won: 1, transitions: 4, stopped: false });
    // The person's inputs, as the admissible actions they mean, in order.
    expect(stderr).toMatch(/type\[#\d+ Name \| Ada\]\n\s+click\[#\d+ Save\] \(reward 1\)/);

    const store = await loadStoreFile(out);
    expect(store.runs).toEqual([expect.objectContaining({ kind: 'demo:record', env: 'web' })]);
    expect(store.transitions.map((t) => [t.action, t.reward, t.source])).toEqual([
      [expect.stringMatching(/^type\[#\d+ Name \| Ada\]$/), 0, 'real'],
      [expect.stringMatching(/^click\[#\d+ Save\]$/), 1, 'real'],
      [expect.stringMatching(/^type\[#\d+ Name \| Bob\]$/), 0, 'real'],
      [expect.stringMatching(/^click\[#\d+ Save\]$/), 0, 'real'],
    ]);

    // Behaviour cloning learns from the recorded success.
    const bc = await cli(['train', '--env', 'web', '--site', SITE, '--tasks', 'sign-up', '--mode', 'bc', '--buffer', out, '--final-eval-episodes', '1', '--json']);
    expect(bc.code, bc.stderr).toBe(0);
    const trained = JSON.parse(bc.stdout.trim().split('\n').pop() as string) as { mode: string; eval: { episodes: number } };
    expect(trained).toMatchObject({ mode: 'bc', eval: { episodes: 1 } });
  }, 180_000);

  it('refuses a task the site lacks and an --out that is not a store file, before any window opens', async () => {
    const missing = await cli(['record', '--site', SITE, '--task', 'nope', '--out', path.join(dir, 'x.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--task "nope": the site has no such task; its tasks: handlers, /);
    const wrong = await cli(['record', '--site', SITE, '--task', 'sign-up', '--out', path.join(dir, 'x.txt')]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/--out must name a \.jsonl store file/);
  }, 60_000);
});
