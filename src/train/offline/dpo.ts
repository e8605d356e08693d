/**
 * Direct Preference Optimization on the buffer's preference pairs (pairs.ts): the policy raises
 * the log-probability of each pair's chosen side relative to its rejected side, measured against a
 * reference, the policy as it was before training (as GRPO's KL term is). The reference's half of
 * every margin is computed once, before the first step, from the untouched policy: the same
 * numbers a frozen copy would give, without keeping one.
 */
import type { Rng } from '../../core/rng.ts';
import type { Transition } from '../../core/types.ts';
import { batchTensors, type Policy } from '../../policy/policy.ts';
import { tf } from '../../platform/tf.ts';
import type { Adam } from '../../rl/adam.ts';
import { dpoLoss, meanEntropy, takenLogProb } from '../../rl/losses.ts';
import { takenLogProbs } from '../../rl/reference.ts';
import type { DpoConfig } from './config.ts';
import type { OfflineEpisode } from './episodes.ts';
import { trainEpoch } from './epoch.ts';
import { preferencePairs, type PairKind, type PreferencePair } from './pairs.ts';
import { policyStep, type PolicyStep } from './steps.ts';

/** A pair as the loss reads it: its sides' steps (indices into `PreferenceData.steps`) and the reference's margin. */
export interface TrainingPair {
  kind: PairKind;
  partner: PreferencePair['partner'];
  chosen: number[];
  rejected: number[];
  /** log π_ref(chosen) − log π_ref(rejected), each side summed over its steps (see measureReferenceMargins). */
  referenceMargin: number;
}

export interface PreferenceData {
  /** Every step some pair scores, each once (a success may be the chosen side of many pairs). */
  steps: PolicyStep[];
  pairs: TrainingPair[];
  /** Pairs left out: a side with no step the policy could have taken, or a state pair whose two actions are one candidate. */
  droppedPairs: number;
  /** Steps of kept pairs' episodes the policy could not have taken (left out of their side's sum). */
  skippedSteps: number;
}

/**
 * The pairs of `episodes` as the policy sees them. Their reference margins are 0 until
 * `measureReferenceMargins` sets them, which a trainer does before its first step.
 */
export function preferenceData(policy: Policy, episodes: readonly OfflineEpisode[]): PreferenceData {
  const steps: PolicyStep[] = [];
  const indexOf = new Map<Transition, number | null>();
  const stepIndex = (t: Transition): number | null => {
    if (!indexOf.has(t)) {
      const step = policyStep(policy, t);
      indexOf.set(t, step ? steps.push(step) - 1 : null);
    }
    return indexOf.get(t) ?? null;
  };
  const pairs: TrainingPair[] = [];
  let droppedPairs = 0;
  let skippedSteps = 0;
  for (const pair of preferencePairs(episodes)) {
    const side = (s: PreferencePair['chosen']) => s.steps.map((i) => stepIndex(s.episode.steps[i] as Transition));
    const chosen = side(pair.chosen);
    const rejected = side(pair.rejected);
    const kept = (xs: (number | null)[]) => xs.filter((x): x is number => x !== null);
    const c = kept(chosen);
    const r = kept(rejected);
    // Two different stored searches can be the same proposed query: then there is nothing to prefer.
    const sameChoice = pair.kind === 'state' && c.length === 1 && r.length === 1 && steps[c[0] as number]?.actionIndex === steps[r[0] as number]?.actionIndex;
    if (c.length === 0 || r.length === 0 || sameChoice) {
      droppedPairs++;
      continue;
    }
    skippedSteps += chosen.length - c.length + rejected.length - r.length;
    pairs.push({ kind: pair.kind, partner: pair.partner, chosen: c, rejected: r, referenceMargin: 0 });
  }
  return { steps, pairs, droppedPairs, skippedSteps };
}

/** Set every pair's reference margin from `reference`: the policy before its first step. */
export async function measureReferenceMargins(reference: Policy, data: PreferenceData, batchSize = 256): Promise<void> {
  const logProbs = await takenLogProbs(reference.network, reference.config.featurizer, data.steps, batchSize);
  const sum = (xs: readonly number[]) => xs.reduce((a, i) => a + (logProbs[i] as number), 0);
  for (const pair of data.pairs) pair.referenceMargin = sum(pair.chosen) - sum(pair.rejected);
}

/** Shuffled pairs packed into minibatches of at most `size` steps (a larger pair on its own). */
function pack(data: PreferenceData, size: number, rng: Rng): TrainingPair[][] {
  const batches: TrainingPair[][] = [];
  let current: TrainingPair[] = [];
  let width = 0;
  for (const i of rng.shuffle(data.pairs.map((_, j) => j))) {
    const pair = data.pairs[i] as TrainingPair;
    const n = pair.chosen.length + pair.rejected.length;
    if (current.length > 0 && width + n > size) {
      batches.push(current);
      current = [];
      width = 0;
    }
    current.push(pair);
    width += n;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

export interface PreferenceStats {
  /** Mean DPO loss over the pass's minibatches (each before its step). */
  loss: number;
  /** Mean margin (log π − log π_ref)(chosen) − (log π − log π_ref)(rejected), unscaled by β. */
  margin: number;
  /** Share of pairs whose margin is positive: the chosen side gained on the rejected one. */
  accuracy: number;
  entropy: number;
  gradNorm: number;
  gradientSteps: number;
}

/** One shuffled pass over the pairs. */
export async function dpoEpoch(policy: Policy, optimizer: Adam, data: PreferenceData, config: DpoConfig, rng: Rng): Promise<PreferenceStats> {
  const result = await trainEpoch(
    policy,
    optimizer,
    pack(data, config.minibatchSize, rng),
    (batch) => {
      const rows = batch.flatMap((p) => [...p.chosen, ...p.rejected]);
      const sides = new Float32Array(batch.length * rows.length);
      let column = 0;
      batch.forEach((p, i) => {
        for (const _ of p.chosen) sides[i * rows.length + column++] = 1;
        for (const _ of p.rejected) sides[i * rows.length + column++] = -1;
      });
      const picked = rows.map((i) => data.steps[i] as PolicyStep);
      const tensors = batchTensors(picked.map((s) => s.features), policy.config.featurizer, { transposed: true });
      const K = tensors.maxActions;
      const onehot = new Float32Array(picked.length * K);
      picked.forEach((s, n) => (onehot[n * K + s.actionIndex] = 1));
      const { logProbs } = policy.network.forward(tensors);
      const taken = takenLogProb(logProbs, tf.tensor2d(onehot, [picked.length, K]));
      const { loss, margins } = dpoLoss(taken, tf.tensor2d(sides, [batch.length, rows.length]), tf.tensor1d(batch.map((p) => p.referenceMargin)), config.beta);
      const accuracy = tf.mean(tf.cast(tf.greater(margins, 0), 'float32')) as tf.Scalar;
      return { loss, stats: [tf.mean(margins) as tf.Scalar, accuracy, meanEntropy(logProbs)] };
    },
    config,
  );
  const [margin, accuracy, entropy] = result.stats as [number, number, number];
  return { loss: result.loss, margin, accuracy, entropy, gradNorm: result.gradNorm, gradientSteps: result.gradientSteps };
}

/** Each pair's margin over the reference under the policy as it is now (what DPO raises). */
export async function preferenceMargins(policy: Policy, data: PreferenceData, batchSize = 256): Promise<number[]> {
  const now = await takenLogProbs(policy.network, policy.config.featurizer, data.steps, batchSize);
  const sum = (xs: readonly number[]) => xs.reduce((a, i) => a + (now[i] as number), 0);
  return data.pairs.map((p) => sum(p.chosen) - sum(p.rejected) - p.referenceMargin);
}
