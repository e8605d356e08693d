/**
 * A workshop room: the host runs `serve` with the app's address, and a participant opens the link it
 * prints. The participant's Experience view takes the room's endpoint, model and key from the link
 * (and drops them from the address bar), its steps are answered by the host's server, and the host's
 * terminal counts the participant.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { runCliProcess, spawnCli } from '../cli-process.ts';
import { collectErrors, launch } from './browser.ts';

describe('joining a room from the host link', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launch(); });
  afterAll(async () => { await browser?.close(); });

  it("opens the host's link, steps with the room's model, and is counted by the host", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-room-e2e-'));
    const buffer = path.join(dir, 'shop.jsonl');
    const seeded = await runCliProcess(['buffer', 'seed', '--env', 'shop', '--episodes', '20', '--seed', '1', '--out', buffer]);
    expect(seeded.code, seeded.stderr).toBe(0);
    const host = spawnCli(['serve', '--experience', 'knn', '--buffer', buffer, '--port', '0', '--api-key', 'room-key-123', '--app-url', inject('appUrl'), '--json']);
    let stdout = '';
    let stderr = '';
    host.stdout.on('data', (d: Buffer) => (stdout += d));
    host.stderr.on('data', (d: Buffer) => (stderr += d));
    try {
      await expect.poll(() => stdout, { timeout: 60_000 }).toMatch(/\n/);
      const { url, link } = JSON.parse(stdout.trim()) as { url: string; link: string };
      expect(stderr).toContain(`participants join by opening: ${link}`);

      const page = await browser.newPage({ viewport: { width: 1280, height: 1100 } });
      const errors = collectErrors(page);
      await page.goto(link);
      await expect.poll(() => page.getByTestId('active-experience').textContent(), { timeout: 30_000 }).toBe(`llm:http/knn@${new URL(url).host}`);
      expect(await page.getByRole('status').filter({ hasText: 'You joined the room' }).textContent()).toMatch(/You joined the room at 127\.0\.0\.1:\d+: its knn model answers this view's steps\./);
      // The key is not left in the address bar (nor in the history).
      expect(new URL(page.url()).hash).toBe('#experience');

      await page.getByRole('button', { name: 'Start episode' }).click();
      await page.getByLabel('Search the store').fill('shoes');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect.poll(() => page.getByRole('heading', { name: /^Step 1:/ }).count(), { timeout: 60_000 }).toBe(1);
      expect(await page.getByTestId('predicted-reasoning').textContent()).toMatch(/^kNN: copied the outcome of the most similar real transition/);
      // The host's terminal counts the participant (its line comes every 10 s).
      await expect.poll(() => stderr, { timeout: 25_000 }).toMatch(/room: 1 client stepping, [\d.]+ requests\/s, 0 failed in the last 10 s \(1 clients since the start\)/);
      expect(errors).toEqual([]);
    } finally {
      host.kill('SIGTERM');
      await new Promise((resolve) => host.on('close', resolve));
    }
  }, 180_000);
});
