/**
 * What a message may quote of a file's, a request's or a model's text (issue 60: 2 MB of a hook's
 * value went to stderr, raw NUL bytes with it): a bounded part, in quotes, every control character
 * escaped, and the whole length said when it was cut.
 */
import { describe, expect, it } from 'vitest';
import { boundedText, excerpt } from '../../../src/core/text.ts';

describe('excerpt', () => {
  it('quotes short text whole, its quotes and backslashes escaped', () => {
    expect(excerpt('red mugs')).toBe('"red mugs"');
    expect(excerpt('say "hi" \\ there')).toBe('"say \\"hi\\" \\\\ there"');
  });

  it('escapes NUL, line breaks, terminal escapes, DEL and the characters that reorder a line', () => {
    expect(excerpt('a\u0000b\nc\rd\te\u001b[31mf\u007fg\u2028h\u202ei\u2066j')).toBe('"a\\0b\\nc\\rd\\te\\u001b[31mf\\u007fg\\u2028h\\u202ei\\u2066j"');
  });

  it('cuts long text at about 100 characters and says how long it was, at the cost of the part shown', () => {
    const huge = 'x'.repeat(5_000_000);
    excerpt('warm');
    const start = performance.now();
    // A thousand quotes of 5 MB: milliseconds when only the part shown is read, seconds if the whole were.
    for (let i = 0; i < 1000; i++) excerpt(huge);
    expect(performance.now() - start).toBeLessThan(500);
    expect(excerpt(huge)).toBe(`"${'x'.repeat(100)}…" (5,000,000 characters)`);
    expect(excerpt('abcdef', 3)).toBe('"abc…" (6 characters)');
  });

  it('never cuts a character in two', () => {
    expect(excerpt('ab😀cd', 3)).toBe('"ab…" (6 characters)');
  });
});

describe('boundedText', () => {
  it('keeps short plain words as they are, and quotes an excerpt of long or unshowable ones', () => {
    expect(boundedText('no such file or folder (ENOENT)')).toBe('no such file or folder (ENOENT)');
    expect(boundedText('bad\u0000line')).toBe('"bad\\0line"');
    expect(boundedText('y'.repeat(1000), 10)).toBe(`"${'y'.repeat(10)}…" (1,000 characters)`);
    // The pattern keeps no state between calls (a global pattern's lastIndex would).
    expect(boundedText('a\u0000')).toBe('"a\\0"');
    expect(boundedText('a\u0000')).toBe('"a\\0"');
  });
});
