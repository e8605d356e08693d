import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend, tf } from '../../../src/platform/tf.ts';
import { gae, groupAdvantages, normalize } from '../../../src/rl/advantages.ts';
import { grpoLoss, ppoLoss } from '../../../src/rl/losses.ts';

beforeAll(async () => {
  await useBackend(['cpu']);
});

const close = (actual: number, expected: number, digits = 5) => expect(actual).toBeCloseTo(expected, digits);

describe('GAE', () => {
  it('matches a hand-computed three-step episode', () => {
    // γ = 0.9, λ = 0.8; rewards 0, 0, 1; values 0.5, 0.6, 0.7; ends at t = 2.
    // δ2 = 1 − 0.7 = 0.3;            A2 = 0.3
    // δ1 = 0 + 0.9·0.7 − 0.6 = 0.03; A1 = 0.03 + 0.72·0.3 = 0.246
    // δ0 = 0 + 0.9·0.6 − 0.5 = 0.04; A0 = 0.04 + 0.72·0.246 = 0.21712
    const { advantages, returns } = gae([0, 0, 1], [0.5, 0.6, 0.7], [false, false, true], 0, 0.9, 0.8);
    [0.21712, 0.246, 0.3].forEach((a, i) => close(advantages[i] as number, a));
    [0.71712, 0.846, 1.0].forEach((r, i) => close(returns[i] as number, r));
  });

  it('bootstraps a cut trajectory from lastValue and stops at episode ends inside it', () => {
    // Two episodes back to back: [r=1, done] then [r=0, not done, bootstrap V=2]. γ = 1, λ = 1.
    const { advantages } = gae([1, 0], [0.25, 0.5], [true, false], 2, 1, 1);
    close(advantages[0] as number, 0.75); // 1 − 0.25, nothing flows across the boundary
    close(advantages[1] as number, 1.5); // 0 + 2 − 0.5
  });

  it('with λ = 1 and γ = 1 gives return minus value (Monte Carlo)', () => {
    const { advantages } = gae([1, 2, 3], [0, 0, 0], [false, false, true], 0, 1, 1);
    expect(advantages).toEqual([6, 5, 3]);
  });
});

describe('group-normalised advantages', () => {
  it('are (r − mean)/(std + ε) with the population std', () => {
    // outcomes 1, 0, 0, 1 → mean 0.5, std 0.5
    const a = groupAdvantages([1, 0, 0, 1], 0);
    expect(a).toEqual([1, -1, -1, 1]);
  });
  it('are zero when every outcome is equal', () => {
    expect(groupAdvantages([0.3, 0.3, 0.3])).toEqual([0, 0, 0]);
  });
  it('normalize gives zero mean and unit (sample) std', () => {
    const n = normalize([1, 2, 3, 4]);
    close(n.reduce((a, b) => a + b, 0), 0);
    close(Math.sqrt(n.reduce((a, b) => a + b * b, 0) / 3), 1, 4);
  });
});

function logProbsOf(rows: number[][]): tf.Tensor2D {
  return tf.tensor2d(rows.map((r) => r.map(Math.log)));
}

describe('PPO loss', () => {
  it('matches a hand-computed minibatch', () => {
    // Two samples, two candidates each. New π(a) = 0.6 and 0.3; old π(a) = 0.5 and 0.5.
    // ratios 1.2 and 0.6; advantages +1 and −2; ε = 0.1.
    //   sample 0: max(−1·1.2, −1·1.1) = −1.1 (clipped)
    //   sample 1: max(2·0.6, 2·0.9) = 1.8 (clipped)
    //   policy loss = (−1.1 + 1.8)/2 = 0.35; clip fraction = 1
    const out = { logProbs: logProbsOf([[0.6, 0.4], [0.7, 0.3]]), values: tf.tensor1d([0.5, 2.0]) };
    const batch = {
      actionMask: tf.tensor2d([[1, 0], [0, 1]]),
      oldLogProb: tf.tensor1d([Math.log(0.5), Math.log(0.5)]),
      advantages: tf.tensor1d([1, -2]),
      returns: tf.tensor1d([1, 1]),
      oldValues: tf.tensor1d([0.9, 1.5]),
    };
    const terms = ppoLoss(out, batch, { clip: 0.1, valueCoef: 0.5, valueClip: 0.2, entropyCoef: 0.01 });
    close(terms.policyLoss.dataSync()[0] as number, 0.35);
    close(terms.clipFraction.dataSync()[0] as number, 1);
    // value: sample 0 unclipped (0.5−1)² = 0.25, clipped V = 0.9−0.2 = 0.7 → 0.09 → max 0.25
    //        sample 1 unclipped (2−1)² = 1,     clipped V = 1.5+0.2 = 1.7 → 0.49 → max 1
    // value loss = 0.5 · mean(0.25, 1) = 0.3125
    close(terms.valueLoss.dataSync()[0] as number, 0.3125);
    const h0 = -(0.6 * Math.log(0.6) + 0.4 * Math.log(0.4));
    const h1 = -(0.7 * Math.log(0.7) + 0.3 * Math.log(0.3));
    close(terms.entropy.dataSync()[0] as number, (h0 + h1) / 2);
    close(terms.loss.dataSync()[0] as number, 0.35 - 0.01 * ((h0 + h1) / 2) + 0.5 * 0.3125);
    // approx KL (k3): mean((ρ − 1) − log ρ)
    close(terms.approxKl.dataSync()[0] as number, (0.2 - Math.log(1.2) + (-0.4 - Math.log(0.6))) / 2);
  });

  it('uses the plain squared error when value clipping is off, and ignores masked candidates', () => {
    // The third candidate is masked: log π ≈ −1e9 there, which must not leak into the entropy.
    const out = { logProbs: tf.tensor2d([[Math.log(0.5), Math.log(0.5), -1e9]]), values: tf.tensor1d([3]) };
    const batch = {
      actionMask: tf.tensor2d([[1, 0, 0]]),
      oldLogProb: tf.tensor1d([Math.log(0.5)]),
      advantages: tf.tensor1d([0.5]),
      returns: tf.tensor1d([1]),
      oldValues: tf.tensor1d([1]),
    };
    const terms = ppoLoss(out, batch, { clip: 0.2, valueCoef: 1, valueClip: null, entropyCoef: 0 });
    close(terms.valueLoss.dataSync()[0] as number, 2); // 0.5·(3−1)²
    close(terms.policyLoss.dataSync()[0] as number, -0.5); // ratio 1
    close(terms.entropy.dataSync()[0] as number, Math.log(2));
  });
});

describe('GRPO loss', () => {
  it('applies the clipped surrogate to group advantages and adds the reference KL only when asked', () => {
    // π(a) = 0.8 now, 0.5 at collection (ratio 1.6, clipped to 1.2 for A > 0), π_ref(a) = 0.4.
    const out = { logProbs: logProbsOf([[0.8, 0.2]]) };
    const batch = {
      actionMask: tf.tensor2d([[1, 0]]),
      oldLogProb: tf.tensor1d([Math.log(0.5)]),
      advantages: tf.tensor1d([2]),
      referenceLogProb: tf.tensor1d([Math.log(0.4)]),
    };
    const kl = 0.4 / 0.8 - Math.log(0.4 / 0.8) - 1; // exp(ref − new) − (ref − new) − 1
    const without = grpoLoss(out, batch, { clip: 0.2, entropyCoef: 0, klCoef: 0 });
    close(without.policyLoss.dataSync()[0] as number, -2 * 1.2);
    close(without.referenceKl.dataSync()[0] as number, kl);
    close(without.loss.dataSync()[0] as number, -2.4);
    const withKl = grpoLoss(out, batch, { clip: 0.2, entropyCoef: 0, klCoef: 0.5 });
    close(withKl.loss.dataSync()[0] as number, -2.4 + 0.5 * kl);
  });

  it('weighs each step’s surrogate and reference KL by its weight when weights are given', () => {
    // Two steps, ratio 1 each: surrogate terms −A = −1 and +1; weights 1.5 and 0.5 → mean(−1.5, 0.5) = −0.5.
    const out = { logProbs: logProbsOf([[0.5, 0.5], [0.5, 0.5]]) };
    const batch = {
      actionMask: tf.tensor2d([[1, 0], [1, 0]]),
      oldLogProb: tf.tensor1d([Math.log(0.5), Math.log(0.5)]),
      advantages: tf.tensor1d([1, -1]),
      referenceLogProb: tf.tensor1d([Math.log(0.25), Math.log(0.5)]),
    };
    const config = { clip: 0.2, entropyCoef: 0, klCoef: 1 };
    const unweighted = grpoLoss(out, batch, config);
    close(unweighted.policyLoss.dataSync()[0] as number, 0);
    const weighted = grpoLoss(out, { ...batch, weights: tf.tensor1d([1.5, 0.5]) }, config);
    close(weighted.policyLoss.dataSync()[0] as number, -0.5);
    const kl = 0.25 / 0.5 - Math.log(0.25 / 0.5) - 1; // the first step only; the second matches π_ref
    close(unweighted.referenceKl.dataSync()[0] as number, kl / 2);
    close(weighted.referenceKl.dataSync()[0] as number, (1.5 * kl) / 2);
  });
});
