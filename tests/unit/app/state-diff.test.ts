/**
 * Imagined against real: the lines of a predicted state that differ from the real one are found
 * wherever they are (not only in the first lines), and element numbers do not count.
 */
import { describe, expect, it } from 'vitest';
import { diffLines, stateMarks } from '../../../src/app/play/state-diff.ts';

const REAL = ['page: results', 'instruction: buy shoes', '[1] button: Back to Search', '[2] text: Page 1 (Total results: 50)', '[3] link: b1 | acme shoes | $10.00', '[4] link: b2 | zeta shoes | $20.00', '[5] link: b3 | tera shoes | $30.00'].join('\n');

describe('the line diff of two states', () => {
  it('marks only what has no partner in the other sequence', () => {
    expect(diffLines(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd', 'e'])).toEqual({ a: [false, true, false, false], b: [false, true, false, false, true] });
    expect(diffLines([], ['a'])).toEqual({ a: [], b: [true] });
  });

  it('finds a difference below identical first lines, in both states', () => {
    const imagined = REAL.replace('zeta shoes | $20.00', 'zeta shoes | $25.00');
    const mine = stateMarks(imagined, REAL);
    expect(mine.raw).toBeNull();
    expect(mine.header).toEqual([false, false]);
    expect(mine.elements).toEqual([false, false, false, true, false]);
    expect(mine.differing).toBe(1);
    expect(mine.total).toBe(7);
    expect(stateMarks(REAL, imagined).elements).toEqual([false, false, false, true, false]);
  });

  it('does not mark every line after one that is missing (numbers are not compared)', () => {
    const imagined = REAL.replace('[3] link: b1 | acme shoes | $10.00\n', '').replace('[4] link', '[3] link').replace('[5] link', '[4] link');
    expect(stateMarks(imagined, REAL).differing).toBe(0);
    expect(stateMarks(REAL, imagined).elements).toEqual([false, false, true, false, false]);
  });

  it('compares raw lines when a model\'s answer does not parse as a state', () => {
    const marks = stateMarks('not a state\npage: results', REAL);
    expect(marks.raw).toEqual([true, false]);
    expect(marks.differing).toBe(1);
  });

  it('says nothing differs between a state and itself', () => {
    expect(stateMarks(REAL, REAL).differing).toBe(0);
  });
});
