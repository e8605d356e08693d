/**
 * One pass of an offline loss over its minibatches: a gradient step on each with the RL updates'
 * Adam and global-norm clipping (src/rl/update.ts's loop without its PPO/GRPO specifics), the
 * statistics kept on the device and read back once at the end of the pass.
 */
import type { Policy } from '../../policy/policy.ts';
import { tf } from '../../platform/tf.ts';
import type { Adam } from '../../rl/adam.ts';
import { sequentialConcat } from '../../rl/update.ts';

/** A minibatch's loss and the statistics to average over the pass (in a fixed order). */
export interface MinibatchTerms {
  loss: tf.Scalar;
  stats: tf.Scalar[];
}

export interface EpochResult {
  /** Means over the minibatches, each measured before its step: the loss, then each statistic. */
  loss: number;
  stats: number[];
  gradNorm: number;
  gradientSteps: number;
}

export async function trainEpoch<B>(
  policy: Policy,
  optimizer: Adam,
  minibatches: readonly B[],
  terms: (batch: B) => MinibatchTerms,
  settings: { learningRate: number; maxGradNorm: number | null },
): Promise<EpochResult> {
  const variables = policy.network.variables;
  const pending: tf.Tensor1D[] = [];
  for (const batch of minibatches) {
    let kept: tf.Scalar[] = [];
    const { grads, value } = tf.variableGrads(() => {
      const t = terms(batch);
      kept = t.stats.map((x) => tf.keep(x));
      return t.loss;
    }, variables);
    const norm = optimizer.step(variables.map((v) => grads[v.name]), settings.learningRate, settings.maxGradNorm);
    pending.push(tf.tidy(() => sequentialConcat([value, ...kept, norm].map((x) => tf.reshape(x, [1]) as tf.Tensor1D))));
    for (const x of [...kept, norm, value, ...Object.values(grads)]) x?.dispose();
  }
  const rows = await Promise.all(pending.map((t) => t.data<'float32'>()));
  pending.forEach((t) => t.dispose());
  const width = rows[0]?.length ?? 2;
  const means = Array.from({ length: width }, (_, j) => (rows.length === 0 ? 0 : rows.reduce((a, row) => a + (row[j] as number), 0) / rows.length));
  return { loss: means[0] as number, stats: means.slice(1, -1), gradNorm: means.at(-1) as number, gradientSteps: rows.length };
}
