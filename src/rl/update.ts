/**
 * The optimisation loop both algorithms share: epochs × shuffled minibatches of stored samples,
 * one gradient step each, global-norm clipping, early stop on approximate KL. Statistics stay on
 * the device until the end of an epoch and are then read back asynchronously, once.
 */
import type { Rng } from '../core/rng.ts';
import type { Features } from '../policy/featurizer.ts';
import { batchTensors, type Policy } from '../policy/policy.ts';
import { tf } from '../platform/tf.ts';
import type { Adam } from './adam.ts';
import { normalize } from './advantages.ts';
import type { AlgoConfig } from './config.ts';
import { grpoLoss, ppoLoss, type LossTerms } from './losses.ts';

export interface UpdateSample {
  features: Features;
  actionIndex: number;
  oldLogProb: number;
  advantage: number;
  /** PPO only: the GAE return target and the value at collection time. */
  returnTarget: number;
  oldValue: number;
  /** GRPO with a KL term only: log π_ref of the taken action. */
  referenceLogProb: number;
  /** The step's weight in the policy and KL means (GRPO's lossAverage); 1 when absent. */
  weight?: number;
}

export interface UpdateStats {
  policyLoss: number;
  valueLoss: number;
  entropy: number;
  approxKl: number;
  clipFraction: number;
  referenceKl: number;
  gradNorm: number;
  epochs: number;
  gradientSteps: number;
  samples: number;
  earlyStopped: boolean;
}

/** The loss terms read back per minibatch, in this order, then the gradient norm. */
const STAT_NAMES = ['policyLoss', 'valueLoss', 'entropy', 'approxKl', 'clipFraction', 'referenceKl', 'gradNorm'] as const;
const KL_INDEX = STAT_NAMES.indexOf('approxKl');

function minibatchLoss(policy: Policy, batch: UpdateSample[], config: AlgoConfig): LossTerms {
  const tensors = batchTensors(
    batch.map((s) => s.features),
    policy.config.featurizer,
    { transposed: true },
  );
  const K = tensors.maxActions;
  const out = policy.network.forward(tensors);
  const onehot = new Float32Array(batch.length * K);
  batch.forEach((s, n) => (onehot[n * K + s.actionIndex] = 1));
  const actionMask = tf.tensor2d(onehot, [batch.length, K]);
  const oldLogProb = tf.tensor1d(batch.map((s) => s.oldLogProb));
  if (config.algo === 'ppo') {
    const raw = batch.map((s) => s.advantage);
    const advantages = tf.tensor1d(config.normalizeAdvantages && batch.length > 1 ? normalize(raw) : raw);
    const returns = tf.tensor1d(batch.map((s) => s.returnTarget));
    const oldValues = tf.tensor1d(batch.map((s) => s.oldValue));
    return ppoLoss(out, { actionMask, oldLogProb, advantages, returns, oldValues }, config);
  }
  const advantages = tf.tensor1d(batch.map((s) => s.advantage));
  const referenceLogProb = tf.tensor1d(batch.map((s) => s.referenceLogProb));
  // The step mean needs no weights: no extra upload or multiply per minibatch on the default path.
  const weights = config.lossAverage === 'trajectory' ? { weights: tf.tensor1d(batch.map((s) => s.weight ?? 1)) } : {};
  return grpoLoss(out, { actionMask, oldLogProb, advantages, referenceLogProb, ...weights }, config);
}

/**
 * Concatenate one input at a time. WebGPU caps the storage buffers one shader may bind (8 by
 * default), and tfjs-webgpu 4.22's many-input kernels (addN, concat, stack) silently return zeros
 * beyond it: that zeroed the gradient norm and poisoned every update on WebGPU.
 */
export function sequentialConcat(parts: readonly tf.Tensor1D[]): tf.Tensor1D {
  return parts.slice(1).reduce((acc, t) => tf.concat([acc, t]), parts[0] as tf.Tensor1D);
}

export async function optimize(
  policy: Policy,
  optimizer: Adam,
  samples: readonly UpdateSample[],
  config: AlgoConfig,
  learningRate: number,
  rng: Rng,
): Promise<UpdateStats> {
  const totals = Object.fromEntries(STAT_NAMES.map((n) => [n, 0])) as Record<(typeof STAT_NAMES)[number], number>;
  let steps = 0;
  let epochs = 0;
  let earlyStopped = false;
  const variables = policy.network.variables;
  // The weights the config leaves as they are get no gradient (Adam then leaves them alone).
  const trainable = policy.network.trainable(config.trainOnly);
  const updated = variables.filter((_, i) => trainable[i]);
  for (let epoch = 0; epoch < config.epochs && samples.length > 0; epoch++) {
    const order = rng.shuffle(samples.map((_, i) => i));
    const pending: tf.Tensor1D[] = [];
    for (let start = 0; start < order.length; start += config.minibatchSize) {
      const batch = order.slice(start, start + config.minibatchSize).map((i) => samples[i] as UpdateSample);
      let stats: tf.Tensor[] = [];
      const { grads, value } = tf.variableGrads(() => {
        const terms = minibatchLoss(policy, batch, config);
        stats = STAT_NAMES.slice(0, -1).map((name) => tf.keep(terms[name as Exclude<(typeof STAT_NAMES)[number], 'gradNorm'>]));
        return terms.loss;
      }, updated);
      const norm = optimizer.step(
        variables.map((v) => grads[v.name]),
        learningRate,
        config.maxGradNorm,
      );
      pending.push(tf.tidy(() => sequentialConcat([...stats, norm].map((t) => tf.reshape(t, [1]) as tf.Tensor1D))));
      for (const t of [...stats, norm, value, ...Object.values(grads)]) t?.dispose();
      steps++;
    }
    const read = await Promise.all(pending.map((t) => t.data<'float32'>()));
    pending.forEach((t) => t.dispose());
    let epochKl = 0;
    for (const row of read) {
      STAT_NAMES.forEach((name, j) => (totals[name] += row[j] as number));
      epochKl += row[KL_INDEX] as number;
    }
    epochs++;
    // A non-finite loss or gradient has already poisoned the weights: more epochs would only spend time (the caller undoes the update, divergence.ts).
    if (read.some((row) => row.some((x) => !Number.isFinite(x)))) break;
    if (config.targetKl !== null && epochKl / read.length > config.targetKl) {
      earlyStopped = true;
      break;
    }
  }
  const mean = (x: number) => (steps === 0 ? 0 : x / steps);
  return {
    policyLoss: mean(totals.policyLoss),
    valueLoss: mean(totals.valueLoss),
    entropy: mean(totals.entropy),
    approxKl: mean(totals.approxKl),
    clipFraction: mean(totals.clipFraction),
    referenceKl: mean(totals.referenceKl),
    gradNorm: mean(totals.gradNorm),
    epochs,
    gradientSteps: steps,
    samples: samples.length,
    earlyStopped,
  };
}
