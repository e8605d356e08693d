import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { CHROMIUM_ARGS, chromiumPath } from '../chromium.ts';

export const ARTIFACTS = 'artifacts/e2e';

/**
 * Debian's Chromium, headless. Without WebGPU unless asked: a machine without a GPU offers none by
 * default, and the software adapter that --enable-unsafe-webgpu adds (SwiftShader) made every fresh
 * page's backend probe spend some 20 s of CPU compiling shaders for a backend no test then used.
 * The tests of the probe itself, and of what the views say about WebGPU, ask for it.
 */
export async function launch(options: { webgpu?: boolean } = {}): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const args = options.webgpu === true ? CHROMIUM_ARGS : CHROMIUM_ARGS.filter((arg) => arg !== '--enable-unsafe-webgpu');
  return chromium.launch({ executablePath: chromiumPath(), args, headless: true });
}

/** Fail the test on any uncaught page or worker error, instead of finding out from a timeout. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message + (process.env.E2E_STACKS ? String(e.stack) : '')));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  return errors;
}

/** A number the page shows under a test id (thousands separators dropped). */
export const number = async (page: Page, testId: string) => Number((await page.getByTestId(testId).textContent())?.replace(/,/g, ''));

/** Seed `episodes` shop episodes through the Buffer view, as a person does; returns the real transitions. */
export async function seedShop(page: Page, episodes: number): Promise<number> {
  await page.goto(`${inject('appUrl')}#buffer`);
  await expect.poll(() => number(page, 'count-total'), { timeout: 30_000 }).toBe(0);
  await page.getByLabel('Environment', { exact: true }).selectOption('shop');
  await page.getByLabel('Episodes', { exact: true }).fill(String(episodes));
  await page.getByRole('button', { name: 'Seed the buffer' }).click();
  const status = page.getByTestId('seed-status');
  await expect.poll(() => status.textContent(), { timeout: 60_000 }).toMatch(new RegExp(`^Seeded ${episodes} of ${episodes} episodes \\(\\d+ transitions\\)`));
  // The status shows before the counts table is refreshed: wait for the table to hold what was seeded.
  const seeded = Number(/\((\d+) transitions\)/.exec((await status.textContent()) ?? '')?.[1]);
  await expect.poll(() => number(page, 'count-shop-real'), { timeout: 30_000 }).toBe(seeded);
  return seeded;
}
