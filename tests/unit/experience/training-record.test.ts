/**
 * A `.dgx` file's training record, read back: a fit stopped after some of its epochs says how many
 * of how many (the CLI's `experience fit` stopped by a signal writes that), and what is not well
 * formed is dropped rather than trusted.
 */
import { describe, expect, it } from 'vitest';
import { readTrainingRecord } from '../../../src/experience/neural/training-record.ts';

const epoch = (n: number) => ({ epoch: n, loss: { line: 1, action: 1, transition: 1 }, validation: null });

describe('a training record read back', () => {
  it('says a stopped fit finished 2 of the 6 epochs asked for', () => {
    const record = readTrainingRecord({ epochs: 6, stoppedAfter: 2, transitions: 40, validationTransitions: 4, history: [epoch(1), epoch(2)] });
    expect(record.stoppedAfter).toBe(2);
    expect(record.epochsAsked).toBe(6);
    expect(record.history.map((e) => e.epoch)).toEqual([1, 2]);
  });

  it('reads a whole fit as not stopped, and drops counts that are not counts', () => {
    expect(readTrainingRecord({ epochs: 3, history: [] }).stoppedAfter).toBeNull();
    const hostile = readTrainingRecord({ epochs: -1, stoppedAfter: 'two', transitions: 1.5 });
    expect(hostile).toMatchObject({ stoppedAfter: null, epochsAsked: null, transitions: null });
  });
});
