import { describe, expect, it } from 'vitest';
import { parallelGainCeiling } from '../../../bench/web.ts';

describe('the web bench: what more pages can gain on the cores there are', () => {
  it('is the cores over the share of them one page would need at four pages\' CPU per step', () => {
    // One page at 297 steps/s, 4.1 ms of CPU a step with four: 2 cores give at most 488 steps/s, 1.64 × one page.
    expect(parallelGainCeiling(297, 4.1, 2)).toBe(1.64);
    // A step whose CPU equals its wall time (one core busy) leaves room for exactly 2 × on 2 cores.
    expect(parallelGainCeiling(250, 4, 2)).toBe(2);
    expect(parallelGainCeiling(250, 4, 4)).toBe(4);
  });

  it('says nothing where the CPU per step is unknown', () => {
    expect(parallelGainCeiling(297, undefined, 2)).toBeNull();
    expect(parallelGainCeiling(297, 0, 2)).toBeNull();
  });
});
