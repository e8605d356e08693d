import { describe, expect, it } from 'vitest';
import { calibrateSuccessReward, DEFAULT_SUCCESS_REWARD, isPredictedSuccess, isRealSuccess, MIN_CALIBRATION_ENDINGS, successRewardOfEndings } from '../../../src/experience/success.ts';

const endings = (rewards: readonly number[], realSuccess: boolean) => rewards.map((predictedReward) => ({ predictedReward, realSuccess }));

describe('what counts as a success', () => {
  it('in the real environment: an ending with the full reward', () => {
    expect(isRealSuccess({ reward: 1, done: true })).toBe(true);
    expect(isRealSuccess({ reward: 0.99, done: true })).toBe(false);
    expect(isRealSuccess({ reward: 1, done: false })).toBe(false);
  });

  it('inside a model: its own call where it makes one, else a reward within the tolerance of 1', () => {
    expect(isPredictedSuccess({ reward: 0.97, done: true })).toBe(true);
    expect(isPredictedSuccess({ reward: 0.9, done: true })).toBe(false);
    expect(isPredictedSuccess({ reward: 0.9, done: true, won: true })).toBe(true);
    expect(isPredictedSuccess({ reward: 0.99, done: true, won: false })).toBe(false);
    // An episode that goes on is never a success, whatever the model says.
    expect(isPredictedSuccess({ reward: 1, done: false, won: true })).toBe(false);
  });

  it('is calibrated on held-out endings: the strictest threshold with the most endings on the right side', () => {
    // Real successes predicted 0.88–0.97, failures 0.1–0.6 and one 0.9 (a near miss the model rates high).
    const held = [...endings([0.88, 0.9, 0.93, 0.95, 0.97, 0.91], true), ...endings([0.1, 0.3, 0.6, 0.2, 0.05, 0.9], false)];
    const threshold = calibrateSuccessReward(held);
    // At 0.88 every real success is called one, and only the near miss is wrong; higher, a success is lost too.
    expect(threshold).toBe(0.88);
    const right = held.filter((e) => (e.predictedReward >= (threshold as number)) === e.realSuccess).length;
    expect(right).toBe(11);
    // Tied counts: the stricter threshold (0.95 and 0.97 both leave 3 wrong... 0.97 is not tied here).
    expect(calibrateSuccessReward([...endings([0.8, 0.8, 0.8, 0.8, 0.8], true), ...endings([0.2, 0.2, 0.2, 0.2, 0.2], false)])).toBe(0.8);
  });

  it('never calls an ending the model rates below one half a success, and never asks more than the default', () => {
    expect(calibrateSuccessReward([...endings([0.3, 0.35, 0.4, 0.42, 0.45], true), ...endings([0.01, 0.02, 0.03, 0.04, 0.05], false)])).toBe(0.5);
    expect(calibrateSuccessReward([...endings([0.99, 0.99, 0.995, 0.999, 1], true), ...endings([0.1, 0.2, 0.3, 0.4, 0.5], false)])).toBe(DEFAULT_SUCCESS_REWARD);
  });

  it('without a calibration, reads the likelier of the two where every real ending paid 0 or 1', () => {
    const step = (reward: number, done: boolean) => ({ reward, done });
    // The web's apps: endings pay 0 or 1 (a step on the way may pay anything; only endings count).
    expect(successRewardOfEndings([step(0.2, false), step(1, true), step(0, true), step(0, true)])).toBe(0.5);
    // The shop's partial matches: an ending paid 0.7 is a partial match, and the default stands.
    expect(successRewardOfEndings([step(1, true), step(0.7, true), step(0, true)])).toBeNull();
    // No ending paid the full reward: nothing says what a success looks like.
    expect(successRewardOfEndings([step(0, true), step(0, true), step(1, false)])).toBeNull();
    expect(successRewardOfEndings([])).toBeNull();
  });

  it('keeps the default rule with too few endings of either kind', () => {
    const few = MIN_CALIBRATION_ENDINGS - 1;
    expect(calibrateSuccessReward([...endings(Array(few).fill(0.9), true), ...endings(Array(20).fill(0.1), false)])).toBeNull();
    expect(calibrateSuccessReward([...endings(Array(20).fill(0.9), true), ...endings(Array(few).fill(0.1), false)])).toBeNull();
    expect(calibrateSuccessReward([])).toBeNull();
  });
});
