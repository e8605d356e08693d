/**
 * Text the project did not write (instructions, model replies, flags, page names) goes through
 * regular expressions, and each of these took quadratic time on one long run (issue 60: a long word
 * in an instruction hung the web env; one reply's "actions" froze the room server for 21 s). The
 * lint (eslint-plugin-regexp's super-linear rules) keeps new patterns linear; these pin the places
 * that were not, on inputs that took seconds to minutes before, with what each must still find.
 */
import { describe, expect, it } from 'vitest';
import { numberFlags } from '../../src/cli/args.ts';
import { trimEndOf, trimOf } from '../../src/core/text.ts';
import { proposeQueries } from '../../src/envs/shop/queries.ts';
import { proposeTexts } from '../../src/envs/web/queries.ts';
import { parseOutput } from '../../src/experience/output.ts';
import { dollarAmount } from '../../src/policy/text.ts';

const LONG = 60_000;
/** Well under what the quadratic patterns took on these inputs (seconds), well over what a linear pass takes (milliseconds). */
const QUICK_MS = 1_000;

function timed<T>(work: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = work();
  return { value, ms: performance.now() - start };
}

describe('patterns on long inputs', () => {
  it('the web env proposes what to type from an instruction with a long word, and still finds the address in it', () => {
    const { value, ms } = timed(() => proposeTexts(`Write to ${'a'.repeat(LONG)} and to ann.lee@example.org today.`));
    expect(ms).toBeLessThan(QUICK_MS);
    expect(value).toContain('ann.lee@example.org');
  });

  it('the web proposes the codes a long page shows, and the groups of a long run of numbers, in a linear pass', () => {
    const codes = timed(() => proposeTexts('Enter the code.', `${'A1-'.repeat(LONG)} then ${'7'.repeat(LONG)} and ${'(['.repeat(LONG)} code 4061.`));
    expect(codes.ms).toBeLessThan(QUICK_MS);
    expect(codes.value).toContain('4061');
    const groups = timed(() => proposeTexts(`Pay ${'12 '.repeat(LONG)}x with 5555 5555 5555 4444.`));
    expect(groups.ms).toBeLessThan(QUICK_MS);
    expect(groups.value).toContain('5555 5555 5555 4444');
  });

  it('the shop proposes queries from a request with a long run of spaces, and still drops its price clause', () => {
    const { value, ms } = timed(() => proposeQueries(`i need blue shoes${' '.repeat(LONG)}x`));
    expect(ms).toBeLessThan(QUICK_MS);
    expect(value[0]).toBe('blue shoes x');
    expect(proposeQueries('i need blue shoes,  and price lower than 40.00 dollars')).toEqual(['blue shoes']);
    expect(proposeQueries('Find me red mugs and price less than 9 dollars.')).toEqual(['red mugs']);
  });

  it("a model's reply whose actions are one string with a long run of spaces is read, split at ; and new lines", () => {
    const reply = JSON.stringify({ next_state: 'instruction: buy\nurl: /\n[1] button: Buy', reward: 0, done: false, actions: `click buy;  look${' '.repeat(LONG)}` });
    const { value, ms } = timed(() => parseOutput(reply, 'household'));
    expect(ms).toBeLessThan(QUICK_MS);
    expect(value.ok).toBe(true);
    if (value.ok) expect(value.prediction.next.actions).toEqual(['click buy', 'look']);
  });

  it('a long number with no "dollars" after it is no price; a price is still read', () => {
    const { value, ms } = timed(() => dollarAmount(`${'1'.repeat(LONG)}x`));
    expect(ms).toBeLessThan(QUICK_MS);
    expect(value).toBeNull();
    expect(dollarAmount('under 45.99 dollars')).toBe(45.99);
    expect(dollarAmount('costs $ 12')).toBe(12);
  });

  it('a numeric flag of a long run of digits and a letter is left as text (for the spec to refuse), quickly', () => {
    const typed = `${'1'.repeat(LONG)}x`;
    const { value, ms } = timed(() => numberFlags({ seed: typed }, { seed: 'seed' }));
    expect(ms).toBeLessThan(QUICK_MS);
    expect(value.seed).toBe(typed);
    expect(numberFlags({ a: '1.', b: '.5', c: '-2e3', d: '1.2.3' }, { a: 'a', b: 'b', c: 'c', d: 'd' })).toEqual({ a: 1, b: 0.5, c: -2000, d: '1.2.3' });
  });

  it('trims runs of a character at the ends in linear time, leaving the middle alone', () => {
    const { value, ms } = timed(() => trimOf(`--a${'-'.repeat(LONG)}b--`, '-'));
    expect(ms).toBeLessThan(QUICK_MS);
    expect(value).toBe(`a${'-'.repeat(LONG)}b`);
    expect(trimEndOf('/v1///', '/')).toBe('/v1');
    expect(trimOf('---', '-')).toBe('');
  });
});
