/**
 * Every view of the built app under an automated accessibility check (axe-core, WCAG 2.x A and AA
 * rules): no serious or critical violation, in the light and the dark theme, and on the states a
 * person meets first (the Play view with an episode and a live web page, the Evaluate view's drop zone).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { seriousViolations } from './axe.ts';
import { launch } from './browser.ts';

const VIEWS = ['start', 'play', 'train', 'evaluate', 'buffer', 'experience', 'curriculum', 'runs'];

describe('accessibility of every view (axe-core)', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launch(); });
  afterAll(async () => { await browser?.close(); });

  for (const scheme of ['light', 'dark'] as const) {
    it(`no serious or critical violation in any view, ${scheme} theme`, async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 }, colorScheme: scheme });
      const found: string[] = [];
      for (const view of VIEWS) {
        await page.goto(`${inject('appUrl')}#${view}`);
        await expect.poll(() => page.getByRole('navigation', { name: 'Views' }).locator('a[aria-current="page"]').count()).toBe(1);
        await page.waitForTimeout(300);
        found.push(...(await seriousViolations(page)).map((v) => `#${view}: ${v}`));
      }
      // A web episode in Play: the task, the live page beside the state, the actions.
      await page.goto(`${inject('appUrl')}#play`);
      await page.getByRole('button', { name: /^web/ }).click();
      await page.getByRole('button', { name: 'Start episode' }).click();
      await page.getByTestId('instruction').waitFor();
      found.push(...(await seriousViolations(page)).map((v) => `#play (web episode): ${v}`));
      expect(found).toEqual([]);
      // The check sees what it should: a button with no name is a critical violation.
      await page.evaluate(() => document.querySelector('main')?.append(document.createElement('button')));
      expect((await seriousViolations(page)).join('\n')).toMatch(/^critical button-name/m);
    });
  }

  it('every control of every view is reached with the keyboard alone (Tab)', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const missed: string[] = [];
    for (const view of VIEWS) {
      await page.goto(`${inject('appUrl')}#${view}`);
      await expect.poll(() => page.getByRole('navigation', { name: 'Views' }).locator('a[aria-current="page"]').count()).toBe(1);
      await page.waitForTimeout(300);
      // Every visible, enabled control of the app (the live page's frame is the page's own, not the app's),
      // each a tab stop of its own but for a radio group's radios.
      const total = await page.evaluate(() => {
        const controls = [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])')]
          .filter((el) => !(el as HTMLButtonElement).disabled && (el as HTMLElement).checkVisibility?.() !== false && el.getAttribute('tabindex') !== '-1');
        // A radio group is one tab stop (arrows move within it): its radios share one key.
        const keyOf = (el: Element, i: number): string => (el instanceof HTMLInputElement && el.type === 'radio' && el.name ? `radio:${el.name}` : String(i));
        controls.forEach((el, i) => el.setAttribute('data-a11y-control', keyOf(el, i)));
        return new Set(controls.map((el, i) => keyOf(el, i))).size;
      });
      // Where focus is after each Tab, noted by the page as the key comes up (on the element Tab
      // moved to), and read back after a batch of presses rather than after each one.
      await page.evaluate(() => {
        const seen = new Set<string>();
        (window as unknown as { __reached: Set<string> }).__reached = seen;
        document.addEventListener('keyup', (e) => {
          const id = e.key === 'Tab' ? document.activeElement?.getAttribute('data-a11y-control') : null;
          if (id) seen.add(id);
        }, true);
      });
      let reached = new Set<string>();
      await page.locator('body').focus();
      for (let pressed = 0; pressed < total * 2 + 5 && reached.size < total;) {
        const batch = Math.min(Math.max(total - reached.size, 1), total * 2 + 5 - pressed);
        for (let i = 0; i < batch; i++) await page.keyboard.press('Tab');
        pressed += batch;
        reached = new Set(await page.evaluate(() => [...(window as unknown as { __reached: Set<string> }).__reached]));
      }
      if (reached.size < total) {
        const names = await page.evaluate((seen) => [...document.querySelectorAll('[data-a11y-control]')]
          .filter((el) => !seen.includes(el.getAttribute('data-a11y-control') as string))
          .map((el) => `${el.localName}${el.id ? `#${el.id}` : ''} ${(el.textContent ?? '').trim().slice(0, 30)}`), [...reached]);
        missed.push(`#${view}: ${names.join('; ')}`);
      }
    }
    expect(missed).toEqual([]);
  });
});
