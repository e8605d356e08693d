/**
 * GRPO's optional KL to a frozen reference: log π_ref of each sample's taken action, from a copy
 * of the network made before training, computed in batches before the update. DPO's reference
 * margins are computed the same way (`takenLogProbs`).
 */
import type { FeaturizerConfig } from '../policy/featurizer.ts';
import type { PolicyNetwork } from '../policy/network.ts';
import { batchTensors } from '../policy/policy.ts';
import { tf } from '../platform/tf.ts';
import { takenLogProb } from './losses.ts';
import type { UpdateSample } from './update.ts';

export async function attachReferenceLogProbs(
  reference: PolicyNetwork,
  featurizer: FeaturizerConfig,
  samples: UpdateSample[],
  batchSize: number,
): Promise<void> {
  const values = await takenLogProbs(reference, featurizer, samples, batchSize);
  samples.forEach((s, i) => (s.referenceLogProb = values[i] as number));
}

/**
 * log π of each step's taken candidate under `network`, `batchSize` steps per forward pass (no
 * gradient): the reference's side of GRPO's KL and of DPO's margins, and how the offline modes
 * measure what they learned.
 */
export async function takenLogProbs(
  network: PolicyNetwork,
  featurizer: FeaturizerConfig,
  steps: readonly Pick<UpdateSample, 'features' | 'actionIndex'>[],
  batchSize: number,
): Promise<Float32Array> {
  const out = new Float32Array(steps.length);
  for (let start = 0; start < steps.length; start += batchSize) {
    const batch = steps.slice(start, start + batchSize);
    const taken = tf.tidy(() => {
      const tensors = batchTensors(batch.map((s) => s.features), featurizer);
      const { logProbs } = network.forward(tensors);
      const onehot = tf.oneHot(tf.tensor1d(batch.map((s) => s.actionIndex), 'int32'), tensors.maxActions);
      return takenLogProb(logProbs, onehot as tf.Tensor2D);
    });
    out.set(await taken.data<'float32'>(), start);
    taken.dispose();
  }
  return out;
}
