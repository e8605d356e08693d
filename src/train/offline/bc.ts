/**
 * Behaviour cloning: the policy learns to take, in each state of the buffer's successful real
 * episodes, the action that episode took — the supervised baseline the paper compares with. Failed
 * episodes are left out: cloning them would teach their mistakes as readily as the successes' moves.
 */
import type { Rng } from '../../core/rng.ts';
import { batchTensors, type Policy } from '../../policy/policy.ts';
import { tf } from '../../platform/tf.ts';
import type { Adam } from '../../rl/adam.ts';
import { cloningLoss } from '../../rl/losses.ts';
import { takenLogProbs } from '../../rl/reference.ts';
import type { OfflineConfig } from './config.ts';
import type { OfflineEpisode } from './episodes.ts';
import { trainEpoch } from './epoch.ts';
import { policyStep, type PolicyStep } from './steps.ts';

export interface CloningData {
  steps: PolicyStep[];
  /** Successful episodes the steps come from. */
  episodes: number;
  /** Their steps whose action the policy could not have taken (left out). */
  skippedSteps: number;
}

/** Every step of every successful episode, as the policy sees it. */
export function cloningData(policy: Policy, episodes: readonly OfflineEpisode[]): CloningData {
  const steps: PolicyStep[] = [];
  let skippedSteps = 0;
  let cloned = 0;
  for (const episode of episodes) {
    if (!episode.success) continue;
    cloned++;
    for (const t of episode.steps) {
      const step = policyStep(policy, t);
      if (step) steps.push(step);
      else skippedSteps++;
    }
  }
  return { steps, episodes: cloned, skippedSteps };
}

export interface CloningStats {
  /** Mean −log π of the cloned actions over the pass's minibatches (each before its step). */
  loss: number;
  entropy: number;
  /** Share of cloned steps whose greedy choice was the cloned action. */
  agreement: number;
  gradNorm: number;
  gradientSteps: number;
}

/** One shuffled pass over the cloned steps. */
export async function cloneEpoch(policy: Policy, optimizer: Adam, data: CloningData, config: OfflineConfig, rng: Rng): Promise<CloningStats> {
  const order = rng.shuffle(data.steps.map((_, i) => i));
  const minibatches: PolicyStep[][] = [];
  for (let start = 0; start < order.length; start += config.minibatchSize) {
    minibatches.push(order.slice(start, start + config.minibatchSize).map((i) => data.steps[i] as PolicyStep));
  }
  const result = await trainEpoch(
    policy,
    optimizer,
    minibatches,
    (batch) => {
      const tensors = batchTensors(batch.map((s) => s.features), policy.config.featurizer, { transposed: true });
      const K = tensors.maxActions;
      const onehot = new Float32Array(batch.length * K);
      batch.forEach((s, n) => (onehot[n * K + s.actionIndex] = 1));
      const { logProbs } = policy.network.forward(tensors);
      const { loss, entropy, agreement } = cloningLoss(logProbs, tf.tensor2d(onehot, [batch.length, K]));
      return { loss, stats: [entropy, agreement] };
    },
    config,
  );
  return { loss: result.loss, entropy: result.stats[0] as number, agreement: result.stats[1] as number, gradNorm: result.gradNorm, gradientSteps: result.gradientSteps };
}

/** Mean log π of the cloned actions under the policy as it is now (what cloning raises). */
export async function cloningLogLikelihood(policy: Policy, steps: readonly PolicyStep[], batchSize = 256): Promise<number> {
  if (steps.length === 0) return 0;
  const values = await takenLogProbs(policy.network, policy.config.featurizer, steps, batchSize);
  return values.reduce((a, x) => a + x, 0) / values.length;
}
