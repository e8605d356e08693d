/**
 * Issue 60: web runs had no memory bound (32 parallel tabs took 5.5 GB). The pages played at once
 * are lowered to what free memory holds, never below one, and the run says so when it lowers them.
 */
import { describe, expect, it } from 'vitest';
import { lanesFor, TAB_BYTES, tabsThatFit } from '../../../src/envs/web/tab-budget.ts';

const MB = 1024 * 1024;
const GB = 1024 * MB;

describe('tabsThatFit', () => {
  it('keeps what was asked when memory holds it, and says nothing', () => {
    expect(tabsThatFit(32, 64 * GB)).toEqual({ lanes: 32, notice: null });
  });

  it('lowers the lanes to what free memory holds, and says how many, why, and with what figures', () => {
    expect(tabsThatFit(32, 2 * GB, 170 * MB)).toEqual({
      lanes: 12,
      notice: 'playing 12 pages at once, not 32: each takes about 170 MB and 2.0 GB is free',
    });
  });

  it('never goes below one page, nor trusts a figure it cannot read', () => {
    expect(tabsThatFit(8, 10 * MB).lanes).toBe(1);
    expect(tabsThatFit(8, 10 * MB).notice).toMatch(/^playing 1 page at once, not 8/);
    expect(tabsThatFit(8, Number.NaN)).toEqual({ lanes: 8, notice: null });
    expect(tabsThatFit(8, 0)).toEqual({ lanes: 8, notice: null });
  });
});

describe('lanesFor', () => {
  it('caps web pages by the memory it is given and tells the caller; other envs play as asked', () => {
    const said: string[] = [];
    expect(lanesFor('web', 32, (t) => said.push(t), () => 4 * TAB_BYTES)).toBe(4);
    expect(said).toEqual([expect.stringMatching(/^playing 4 pages at once, not 32: each takes about 180 MB/)]);
    expect(lanesFor('shop', 32, (t) => said.push(t), () => 1)).toBe(32);
    expect(said).toHaveLength(1);
  });
});
