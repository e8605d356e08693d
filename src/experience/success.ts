/**
 * What counts as a success, in the real environment and inside an experience model: one definition
 * that the dream (synthetic-env.ts: the training success, the curriculum's success variance), the
 * fidelity scores (fidelity.ts) and the fit's calibration all use. tfjs-free.
 *
 * A real episode succeeds when it ends with the full reward (every environment pays 1 for success;
 * the shop's harsh metric). A model predicts an expected reward, never exactly 1: a neural model's
 * sigmoid shrinks towards the middle, and on the shop its confident purchases end at 0.85–0.97.
 * Counted as a success only at 1, no dream episode succeeded, so the training success read 0% and
 * the curriculum, whose outcome is the success, found no task whose outcome varies (issue 59). So
 * a prediction succeeds when it ends the episode with a reward at or above the model's own success
 * reward: the threshold its fit found to separate, on held-out real endings, those that paid 1 from
 * those that did not (`calibrateSuccessReward`), or, with too few of them, the initial model's or
 * the one its data's endings imply (`successRewardOfEndings`); a model without one (knn, an LLM)
 * uses 1 − REWARD_TOLERANCE, the tolerance the fidelity scores a reward within.
 */

/** Rewards within this of the real one count as right (shop scores are continuous). */
export const REWARD_TOLERANCE = 0.05;

/** A success reward below this would call an ending the model thinks more likely a failure a success. */
const LOWEST_SUCCESS_REWARD = 0.5;

/** The end reward a prediction needs to count as a success when its model names none. */
export const DEFAULT_SUCCESS_REWARD = 1 - REWARD_TOLERANCE;

/** A real step succeeded when it ended the episode with the full reward (both environments give 1 for success). */
export const isRealSuccess = (t: { reward: number; done: boolean }): boolean => t.done && t.reward >= 1 - 1e-9;

/**
 * A predicted step claims success when it ends the episode and its model calls it a success
 * (`won`, a model with a success reward of its own), else when it ends with at least the default one.
 */
export const isPredictedSuccess = (p: { reward: number; done: boolean; won?: boolean }): boolean =>
  p.done && (p.won ?? p.reward >= DEFAULT_SUCCESS_REWARD - 1e-9);

/**
 * The success reward a model's data imply when its fit cannot calibrate one (too few held-out
 * endings of either kind): where every real ending paid 0 or the full reward and one at least paid
 * it (the web's apps, the household), a model's end reward estimates the chance of success, and an
 * ending is a success when it is the likelier of the two (LOWEST_SUCCESS_REWARD). Where endings pay
 * fractions (the shop's partial matches), null: an end reward of 0.7 is then a partial match, and
 * the default's strictness stands. A few demonstrations per task hold too few endings to calibrate
 * on, and there the default called many real successes failures (results/priors/loop-aware/,
 * "The success rule").
 */
export function successRewardOfEndings(transitions: readonly { reward: number; done: boolean }[]): number | null {
  const endings = transitions.filter((t) => t.done);
  if (!endings.some(isRealSuccess)) return null;
  return endings.every((t) => t.reward === 0 || isRealSuccess(t)) ? LOWEST_SUCCESS_REWARD : null;
}

/** Held-out endings a calibration needs of each kind (successes and others) before it is trusted. */
export const MIN_CALIBRATION_ENDINGS = 5;

/**
 * The success reward that best separates, on held-out real endings, the ones that paid the full
 * reward from the others, by the rewards the model predicted for them: the threshold with the most
 * endings on the right side (ties: the highest, the stricter), halfway between the predicted
 * rewards it separates. Null with fewer than MIN_CALIBRATION_ENDINGS of either kind: the default
 * stands.
 */
export function calibrateSuccessReward(endings: readonly { predictedReward: number; realSuccess: boolean }[]): number | null {
  const wins = endings.filter((e) => e.realSuccess).length;
  if (wins < MIN_CALIBRATION_ENDINGS || endings.length - wins < MIN_CALIBRATION_ENDINGS) return null;
  // Candidate thresholds: every predicted reward, and just above the highest (nothing succeeds).
  const rewards = [...new Set(endings.map((e) => e.predictedReward))].sort((a, b) => a - b);
  let best = { threshold: DEFAULT_SUCCESS_REWARD, right: -1 };
  for (const threshold of rewards) {
    const right = endings.filter((e) => (e.predictedReward >= threshold) === e.realSuccess).length;
    if (right >= best.right) best = { threshold, right };
  }
  return Math.min(DEFAULT_SUCCESS_REWARD, Math.max(LOWEST_SUCCESS_REWARD, best.threshold));
}
