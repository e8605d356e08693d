/**
 * The host's bounds on what a page gives back (a page's scripts can replace the driver): the
 * snapshot, the page's errors, one line of text; and the streak of failed episodes that stops a run.
 * Plain data, no browser.
 */
import { describe, expect, it } from 'vitest';
import { FailureStreak, MIN_FAILED_IN_A_ROW, SiteFailingError } from '../../../src/envs/web/failure-streak.ts';
import { MAX_OPTIONS, MAX_PAGE_ERRORS, boundedPageErrors, boundedSnapshot, clean, snapshotText } from '../../../src/envs/web/snapshot.ts';

const CAP = { maxElements: 150, maxChars: 12_000 };

describe('a snapshot from the page, bounded', () => {
  it('keeps a well-formed snapshot as it is', () => {
    const snapshot = { title: 'Sign in', path: '/login.html', elements: [{ id: 3, role: 'textbox', name: 'User', value: 'alice', states: ['focused'] }], cut: 0 };
    expect(boundedSnapshot(snapshot, CAP)).toEqual(snapshot);
  });

  it('holds a forged one to the cap: lines, characters, roles, states, options', () => {
    const forged = {
      title: 'x\n'.repeat(100_000),
      path: 7,
      cut: -3,
      pushedStates: 1e300,
      elements: [
        { id: -1, role: 'Bad Role', name: `a${String.fromCharCode(0)}b | c [d]`, states: ['checked', 'pwned', 'x'.repeat(10_000)], options: Array.from({ length: 20_000 }, (_, i) => `o${i}`) },
        'not an element',
        ...Array.from({ length: 10_000 }, () => ({ role: 'text', name: 'y'.repeat(1_000) })),
      ],
    };
    const bounded = boundedSnapshot(forged, CAP);
    expect(bounded).not.toBeNull();
    const first = bounded?.elements[0];
    expect(first).toEqual({ role: 'text', name: 'a b / c (d)', states: ['checked'], options: Array.from({ length: MAX_OPTIONS }, (_, i) => `o${i}`), optionsCut: 20_000 - MAX_OPTIONS });
    expect(bounded?.elements.length).toBeLessThan(150);
    expect((bounded?.elements.length ?? 0) + (bounded?.cut ?? 0)).toBe(10_002);
    expect(bounded?.title.length).toBeLessThanOrEqual(200);
    expect(bounded?.pushedStates).toBe(1e9);
    const text = snapshotText(bounded as NonNullable<typeof bounded>, { instruction: 'go', canGoBack: false });
    expect(text.length).toBeLessThan(20_000);
    expect(text).toMatch(/^\[1\] text: a b \/ c \(d\) \| checked \| 19950 more options not listed$/m);
  });

  it('is null for what is not a snapshot at all', () => {
    for (const value of [null, 'text', 42, { title: 'x' }, { elements: 'no' }]) expect(boundedSnapshot(value, CAP)).toBeNull();
  });

  it('keeps the first page errors and counts the rest', () => {
    const errors = boundedPageErrors(Array.from({ length: 5_000 }, () => 'e'.repeat(10_000)));
    expect(errors).toHaveLength(MAX_PAGE_ERRORS + 1);
    expect(errors[0]?.length).toBeLessThanOrEqual(200);
    expect(errors.at(-1)).toBe(`and ${5_000 - MAX_PAGE_ERRORS} more`);
    expect(boundedPageErrors('not a list')).toEqual([]);
  });

  it('cleans a megabyte of text into one short line, quickly', () => {
    const started = performance.now();
    const line = clean(`${' '.repeat(500_000)}word\n${'|'.repeat(500_000)}`, 120);
    expect(performance.now() - started).toBeLessThan(200);
    expect(line.length).toBeLessThanOrEqual(120);
    expect(line).not.toMatch(/[\n\r]/);
  });
});

describe('the streak of episodes ended by env failures', () => {
  it(`stops at ${MIN_FAILED_IN_A_ROW} plus one per env playing, names the first failure, and a success starts it over`, () => {
    const streak = new FailureStreak('shop');
    const envs = [{}, {}, {}];
    for (const env of envs) streak.join(env);
    expect(streak.limit).toBe(MIN_FAILED_IN_A_ROW + 3);
    for (let i = 0; i < MIN_FAILED_IN_A_ROW + 2; i++) streak.failed(`t:${i}`, 'the page did not answer');
    streak.succeeded();
    for (let i = 0; i < MIN_FAILED_IN_A_ROW + 2; i++) streak.failed(`u:${i}`, `failure ${i}`);
    let stopped: unknown = null;
    try {
      streak.failed('u:last', 'x'.repeat(100_000));
    } catch (error) {
      stopped = error;
    }
    expect(stopped).toBeInstanceOf(SiteFailingError);
    expect((stopped as Error).message).toMatch(/^site "shop": the last 11 episodes all ended by env failures .*; the first: task u:0: failure 0$/);
    // An env that closed no longer widens the limit.
    streak.leave(envs[0] as object);
    expect(streak.limit).toBe(MIN_FAILED_IN_A_ROW + 2);
  });
});
