/**
 * What the Evaluate view draws and how a run is named and found: a stored run's curve (training
 * success by transitions spent, held-out evaluations, the evaluation here at the run's end), a
 * `.dgp` card's curve, the Runs view's Evaluate link, and labels made distinct.
 */
import { describe, expect, it } from 'vitest';
import { cardCurve, curveColumns, hasCurve, runCurve } from '../../../src/app/evaluate/evaluate-chart.ts';
import type { RunData } from '../../../src/app/runs/run-file.ts';
import { distinctLabel } from '../../../src/app/runs/run-library.ts';
import { evaluateRunHash, runIdFromHash } from '../../../src/app/runs/runs-store.ts';
import type { PolicyFileHeader } from '../../../src/policy/dgp.ts';

const evalAt = (successRate: number, episodes: number) => ({ split: 'test', episodes, successRate, meanScore: 100 * successRate });

function run(mode: 'real' | 'dream'): RunData {
  const spent = (i: number) => (mode === 'dream' ? { realTransitions: 0, syntheticTransitions: 100 * i } : { realTransitions: 100 * i, syntheticTransitions: 0 });
  return {
    env: 'shop', mode, algo: 'grpo', backend: 'wasm', seed: 1, ...spent(3), wallSeconds: 3, iterations: 3, stopped: false,
    eval: evalAt(0.4, 200),
    history: [
      { iteration: 1, ...spent(1), successRate: 0.1, meanScore: 10 },
      { iteration: 2, ...spent(2), successRate: 0.2, meanScore: 20, eval: evalAt(0.3, 30) },
      { iteration: 3, ...spent(3), successRate: 0.25, meanScore: 25 },
    ],
  } as RunData;
}

describe('the Evaluate view\'s chart', () => {
  it('draws a stored run\'s training curve, its held-out evaluations, and the evaluation here at its end', () => {
    const curve = runCurve(run('dream'));
    expect(curve.trainedIn).toBe('model');
    expect(curve.spent).toBe(300);
    expect(curveColumns(curve, null)).toEqual([[100, 200, 300], [0.1, 0.2, 0.25], [null, 0.3, 0.4], [null, null, null]]);
    expect(curveColumns(curve, 0.45)).toEqual([[100, 200, 300], [0.1, 0.2, 0.25], [null, 0.3, 0.4], [null, null, 0.45]]);
    expect(runCurve(run('real')).trainedIn).toBe('real');
  });

  it('draws a policy file\'s card curve, its final evaluation at the transitions it spent, and leaves out what is not a point', () => {
    const header = {
      env: 'shop',
      training: { mode: 'real', realTransitions: 900, syntheticTransitions: 100, curve: { heldOut: [[500, 0.2], ['x', 1], [600, 7]], training: [[250, 0.1], [1000, 0.3]] } },
      evaluation: { split: 'test', episodes: 500, successRate: 0.35, meanScore: 50 },
    } as unknown as PolicyFileHeader;
    const curve = cardCurve(header);
    expect(curve.spent).toBe(1000);
    expect(curveColumns(curve, 0.5)).toEqual([[250, 500, 1000], [0.1, null, 0.3], [null, 0.2, 0.35], [null, null, 0.5]]);
    const bare = cardCurve({ env: 'shop', training: {}, evaluation: null } as unknown as PolicyFileHeader);
    expect(hasCurve(bare, null)).toBe(false);
    expect(hasCurve(bare, 0.2)).toBe(true);
    expect(curveColumns(bare, 0.2)).toEqual([[0], [null], [null], [0.2]]);
  });
});

describe('runs by name and by link', () => {
  it('makes a label already taken distinct with its number', () => {
    expect(distinctLabel('shop GRPO dream seed 1', new Set())).toBe('shop GRPO dream seed 1');
    expect(distinctLabel('shop GRPO dream seed 1', new Set(['shop GRPO dream seed 1']))).toBe('shop GRPO dream seed 1 #2');
    expect(distinctLabel('a', new Set(['a', 'a #2', 'a #3']))).toBe('a #4');
  });

  it('links a run to the Evaluate view and reads the link back', () => {
    expect(evaluateRunHash('run-abc-1')).toBe('#evaluate?run=run-abc-1');
    expect(runIdFromHash(evaluateRunHash('run a&b'))).toBe('run a&b');
    expect(runIdFromHash('#evaluate')).toBeNull();
    expect(runIdFromHash('#evaluate?run=')).toBeNull();
    expect(runIdFromHash('#evaluate?other=1')).toBeNull();
  });
});
