/**
 * The surrogate losses as pure tensor functions (call inside tf.tidy / variableGrads). Names
 * follow CleanRL's ppo.py. `logProbs` are log π(·|s) over candidates [N, K]; `actionMask` is the
 * one-hot of the taken candidate [N, K].
 */
import { tf } from '../platform/tf.ts';

export interface LossTerms {
  loss: tf.Scalar;
  policyLoss: tf.Scalar;
  valueLoss: tf.Scalar;
  entropy: tf.Scalar;
  approxKl: tf.Scalar;
  clipFraction: tf.Scalar;
  referenceKl: tf.Scalar;
}

/** log π of each row's taken candidate: the one log-probability every loss here starts from. */
export function takenLogProb(logProbs: tf.Tensor2D, actionMask: tf.Tensor2D): tf.Tensor1D {
  return tf.sum(tf.mul(logProbs, actionMask), 1) as tf.Tensor1D;
}

/** Mean entropy of the candidate distributions; masked entries have p = 0 exactly. */
export function meanEntropy(logProbs: tf.Tensor2D): tf.Scalar {
  return tf.mean(tf.neg(tf.sum(tf.mul(tf.exp(logProbs), logProbs), 1))) as tf.Scalar;
}

/** mean(w·x), or mean(x) without weights. */
function weightedMean(x: tf.Tensor1D, weights?: tf.Tensor1D): tf.Scalar {
  return tf.mean(weights ? tf.mul(x, weights) : x) as tf.Scalar;
}

/**
 * Clipped surrogate: mean(w·max(−A·ρ, −A·clip(ρ, 1−ε, 1+ε))), with its (unweighted) diagnostics;
 * w is 1 without weights.
 */
export function clippedSurrogate(newLogProb: tf.Tensor1D, oldLogProb: tf.Tensor1D, advantages: tf.Tensor1D, clip: number, weights?: tf.Tensor1D) {
  const logRatio = tf.sub(newLogProb, oldLogProb);
  const ratio = tf.exp(logRatio);
  const unclipped = tf.mul(tf.neg(advantages), ratio);
  const clipped = tf.mul(tf.neg(advantages), tf.clipByValue(ratio, 1 - clip, 1 + clip));
  return {
    policyLoss: weightedMean(tf.maximum(unclipped, clipped) as tf.Tensor1D, weights),
    // k3 estimator of KL(old‖new) (Schulman's "approximating KL"), as CleanRL reports it.
    approxKl: tf.mean(tf.sub(tf.sub(ratio, 1), logRatio)) as tf.Scalar,
    clipFraction: tf.mean(tf.cast(tf.greater(tf.abs(tf.sub(ratio, 1)), clip), 'float32')) as tf.Scalar,
  };
}

export interface PpoBatch {
  actionMask: tf.Tensor2D;
  oldLogProb: tf.Tensor1D;
  advantages: tf.Tensor1D;
  returns: tf.Tensor1D;
  oldValues: tf.Tensor1D;
}

export function ppoLoss(
  out: { logProbs: tf.Tensor2D; values: tf.Tensor1D },
  batch: PpoBatch,
  config: { clip: number; valueCoef: number; valueClip: number | null; entropyCoef: number },
): LossTerms {
  const newLogProb = takenLogProb(out.logProbs, batch.actionMask);
  const { policyLoss, approxKl, clipFraction } = clippedSurrogate(newLogProb, batch.oldLogProb, batch.advantages, config.clip);
  const unclippedV = tf.square(tf.sub(out.values, batch.returns));
  let valueLoss: tf.Scalar;
  if (config.valueClip === null) {
    valueLoss = tf.mul(0.5, tf.mean(unclippedV)) as tf.Scalar;
  } else {
    const clippedValues = tf.add(batch.oldValues, tf.clipByValue(tf.sub(out.values, batch.oldValues), -config.valueClip, config.valueClip));
    valueLoss = tf.mul(0.5, tf.mean(tf.maximum(unclippedV, tf.square(tf.sub(clippedValues, batch.returns))))) as tf.Scalar;
  }
  const entropy = meanEntropy(out.logProbs);
  const loss = tf.addN([policyLoss, tf.mul(-config.entropyCoef, entropy), tf.mul(config.valueCoef, valueLoss)]) as tf.Scalar;
  return { loss, policyLoss, valueLoss, entropy, approxKl, clipFraction, referenceKl: tf.scalar(0) };
}

export interface GrpoBatch {
  actionMask: tf.Tensor2D;
  oldLogProb: tf.Tensor1D;
  advantages: tf.Tensor1D;
  /** log π_ref of the taken action; only read when klCoef > 0. */
  referenceLogProb: tf.Tensor1D;
  /** Per-step weights of the policy and KL means (see GrpoConfig.lossAverage); all 1 when absent. */
  weights?: tf.Tensor1D;
}

export function grpoLoss(
  out: { logProbs: tf.Tensor2D },
  batch: GrpoBatch,
  config: { clip: number; entropyCoef: number; klCoef: number },
): LossTerms {
  const newLogProb = takenLogProb(out.logProbs, batch.actionMask);
  const { policyLoss, approxKl, clipFraction } = clippedSurrogate(newLogProb, batch.oldLogProb, batch.advantages, config.clip, batch.weights);
  // DeepSeekMath's unbiased estimator of KL(π‖π_ref): exp(ref − new) − (ref − new) − 1 ≥ 0.
  const refDiff = tf.sub(batch.referenceLogProb, newLogProb);
  const referenceKl = weightedMean(tf.sub(tf.sub(tf.exp(refDiff), refDiff), 1) as tf.Tensor1D, batch.weights);
  const entropy = meanEntropy(out.logProbs);
  const terms: tf.Scalar[] = [policyLoss, tf.mul(-config.entropyCoef, entropy) as tf.Scalar];
  if (config.klCoef > 0) terms.push(tf.mul(config.klCoef, referenceKl) as tf.Scalar);
  return { loss: tf.addN(terms) as tf.Scalar, policyLoss, valueLoss: tf.scalar(0), entropy, approxKl, clipFraction, referenceKl };
}

/**
 * Behaviour cloning: the mean negative log-likelihood of the demonstrated candidates, −log π(a*|s),
 * over the same masked softmax PPO and GRPO train; `agreement` is the share of rows whose greedy
 * choice is the demonstrated one.
 */
export function cloningLoss(logProbs: tf.Tensor2D, actionMask: tf.Tensor2D): { loss: tf.Scalar; entropy: tf.Scalar; agreement: tf.Scalar } {
  const taken = takenLogProb(logProbs, actionMask);
  const agreement = tf.mean(tf.cast(tf.equal(tf.argMax(logProbs, 1), tf.argMax(actionMask, 1)), 'float32')) as tf.Scalar;
  return { loss: tf.neg(tf.mean(taken)) as tf.Scalar, entropy: meanEntropy(logProbs), agreement };
}

/**
 * DPO (Rafailov et al. 2023): mean over pairs of −log σ(β·m), with the margin
 * m = (log π(c) − log π_ref(c)) − (log π(r) − log π_ref(r)). A side may span several steps (a whole
 * episode), its log-probability the sum over them: `sides` [P, N] holds +1 where step n belongs to
 * pair p's chosen side and −1 where it belongs to its rejected side, so sides·log π is the policy's
 * half of every margin at once; `referenceMargins` [P] is the reference's half, fixed beforehand.
 */
export function dpoLoss(
  taken: tf.Tensor1D,
  sides: tf.Tensor2D,
  referenceMargins: tf.Tensor1D,
  beta: number,
): { loss: tf.Scalar; margins: tf.Tensor1D } {
  const policyMargins = tf.reshape(tf.matMul(sides, tf.reshape(taken, [-1, 1])), [-1]) as tf.Tensor1D;
  const margins = tf.sub(policyMargins, referenceMargins) as tf.Tensor1D;
  // −log σ(z) = softplus(−z), written as relu(−z) + log(1 + e^−|z|): stable for any z, and built of
  // kernels every backend has (tfjs's logSigmoid fails inside a gradient on the wasm backend).
  const z = tf.mul(beta, margins);
  const softplusOfMinusZ = tf.add(tf.relu(tf.neg(z)), tf.log1p(tf.exp(tf.neg(tf.abs(z)))));
  return { loss: tf.mean(softplusOfMinusZ) as tf.Scalar, margins };
}
