/**
 * A diverged update (divergence.ts) in words, tfjs-free so the page can say it too: the CLI's
 * error and the Train view's result name the same measures.
 */

/** The updates' measures (rl/update.ts, train/offline) in words. */
const MEASURES: Readonly<Record<string, string>> = {
  gradNorm: 'gradient norm',
  policyLoss: 'policy loss',
  valueLoss: 'value loss',
  approxKl: 'KL estimate',
  referenceKl: 'KL to the reference policy',
  margin: 'preference margin',
};

/** What went non-finite, in words ("gradient norm, policy loss"). */
export function divergedMeasures(diverged: { nonFinite: readonly string[] }): string {
  return diverged.nonFinite.map((name) => MEASURES[name] ?? name).join(', ');
}
