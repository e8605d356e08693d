/**
 * GRPO's optional KL to a frozen reference: log π_ref of each sample's taken action, from a copy
 * of the network made before training, computed in batches before the update.
 */
import type { FeaturizerConfig } from '../policy/featurizer.ts';
import type { PolicyNetwork } from '../policy/network.ts';
import { batchTensors } from '../policy/policy.ts';
import { tf } from '../platform/tf.ts';
import type { UpdateSample } from './update.ts';

export async function attachReferenceLogProbs(
  reference: PolicyNetwork,
  featurizer: FeaturizerConfig,
  samples: UpdateSample[],
  batchSize: number,
): Promise<void> {
  for (let start = 0; start < samples.length; start += batchSize) {
    const batch = samples.slice(start, start + batchSize);
    const taken = tf.tidy(() => {
      const tensors = batchTensors(batch.map((s) => s.features), featurizer);
      const { logProbs } = reference.forward(tensors);
      const onehot = tf.oneHot(tf.tensor1d(batch.map((s) => s.actionIndex), 'int32'), tensors.maxActions);
      return tf.sum(tf.mul(logProbs, onehot), 1);
    });
    const values = await taken.data<'float32'>();
    taken.dispose();
    batch.forEach((s, i) => (s.referenceLogProb = values[i] as number));
  }
}
