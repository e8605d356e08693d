/**
 * The neural experience model's three heads, each a small MLP over one feature row:
 *
 *   line head        candidate line   → logit "is in the next state"
 *   action head      candidate action → logit "is admissible in the next state"
 *   transition head  transition       → [reward logit, done logit]   (reward = sigmoid, in [0, 1])
 *   reasoning head   candidate sentence → logit "the real annotation says it" (read by the transition head)
 *
 * A row is the candidate's dense features followed by its hashed strings, one-hot in `buckets`
 * columns (features.ts). Rows are kept compact (dense numbers + bucket indices), so a dataset of
 * a million candidates stays in tens of megabytes; a minibatch's dense values become a matrix and
 * its buckets stay indices, which the first layer looks up as rows of its weights.
 */
import { Rng } from '../../core/rng.ts';
import { bucketedInputDense, hiddenDense, inputDense, type BucketInputs } from '../../platform/dense.ts';
import { tf, uploadArray } from '../../platform/tf.ts';
import { hashBucket, type Features, type HashedFeature } from './features.ts';

export type HeadName = 'line' | 'action' | 'transition' | 'reasoning';
export const HEADS: readonly HeadName[] = ['line', 'action', 'transition', 'reasoning'];

export interface HeadShape {
  dense: number;
  buckets: number;
  hidden: number;
  outputs: number;
  /**
   * The transition head's requirement sub-network: the last `slots × features` dense values are
   * one row per requirement of the task (valid flag first), each scored by a small MLP; the
   * reward is the head's own reward times the valid requirements' mean score (1 without any).
   */
  requirements?: RequirementShape;
}

export interface RequirementShape {
  slots: number;
  features: number;
  hidden: number;
}

export interface NeuralArchitecture {
  kind: 'candidate-mlp';
  heads: Record<HeadName, HeadShape>;
}

/** Compact rows of one head: dense features, bucket indices (−1 = none), targets. */
export class Rows {
  /** The dense values, row after row, in float32 as the heads read them: a batch copies whole rows. */
  private values = new Float32Array(1 << 12);
  readonly buckets: number[] = [];
  readonly targets: number[] = [];
  count = 0;
  constructor(
    readonly shape: HeadShape,
    /** Hashed strings per row (the rest of a row's strings are dropped; fewer are padded). */
    readonly slots: number,
  ) {}

  /** Rows × dense values (a view: valid until the next push). */
  get dense(): Float32Array {
    return this.values.subarray(0, this.count * this.shape.dense);
  }

  push(features: Features, target: readonly number[]): void {
    const { dense, buckets } = this.shape;
    if (features.dense.length !== dense) throw new RangeError(`feature row has ${features.dense.length} dense values, the head takes ${dense}`);
    const at = this.count * dense;
    if (at + dense > this.values.length) {
      const grown = new Float32Array(Math.max(2 * this.values.length, at + dense));
      grown.set(this.values);
      this.values = grown;
    }
    const values = this.values;
    const row = features.dense;
    for (let j = 0; j < dense; j++) {
      const v = row[j] as number;
      values[at + j] = Number.isFinite(v) ? v : 0;
    }
    for (let i = 0; i < this.slots; i++) {
      const s = features.hashed[i];
      // '' marks a reserved slot left empty (the transition row's reasoning slots): no bucket.
      this.buckets.push(s === undefined || s === '' ? -1 : hashBucket(s, buckets));
    }
    for (const t of target) this.targets.push(t);
    this.count++;
  }

  /**
   * Overwrite the first dense values and hashed slots of a row: the transition rows' reasoning
   * summary, filled in again each epoch of fitting as the reasoning head learns ('' leaves a slot empty).
   */
  patchPrefix(row: number, dense: readonly number[], hashed: readonly HashedFeature[]): void {
    const D = this.shape.dense;
    dense.forEach((v, j) => (this.values[row * D + j] = Number.isFinite(v) ? v : 0));
    hashed.forEach((s, j) => (this.buckets[row * this.slots + j] = s === '' ? -1 : hashBucket(s, this.shape.buckets)));
  }

  /**
   * The rows at `indices` as the head's inputs (HeadBatch): the dense values the first layer reads
   * and, for the transition head, its requirement rows apart, with each one's transpose when the
   * batch is for a gradient step (the weight gradients are plain matmuls against them; see
   * platform/dense.ts), and each row's buckets as indices (the first layer looks them up). Built
   * here in one pass, where a transpose costs nothing, rather than sliced and transposed by tfjs
   * ops, which were most of the transition head's step.
   */
  batch(indices: readonly number[], transposed: boolean): HeadBatchData {
    // On wasm the float arrays are scratch (platform/tf.ts uploadArray), valid until the next batch:
    // make them tensors at once (headBatch), as every caller does.
    const { dense: D, buckets: B, requirements: req } = this.shape;
    const n = indices.length;
    const own = req ? D - req.slots * req.features : D;
    // Every value below is written, so the arrays need no zeroing. The buckets stay the batch's own:
    // the gradient reads them after the tensors are made (BucketInputs.host).
    const main = uploadArray('rows-main', n * own, false);
    const buckets = new Int32Array(n * this.slots);
    const requirements = req ? uploadArray('rows-requirements', n * req.slots * req.features, false) : undefined;
    const weights = req ? uploadArray('rows-weights', n * req.slots, false) : undefined;
    const unconstrained = req ? uploadArray('rows-unconstrained', n, false) : undefined;
    const dense = this.values;
    const size = req ? req.slots * req.features : 0;
    for (let r = 0; r < n; r++) {
      const row = indices[r] as number;
      const from = row * D;
      for (let j = 0; j < own; j++) main[r * own + j] = dense[from + j] as number;
      if (req && requirements && weights && unconstrained) {
        for (let j = 0; j < size; j++) requirements[r * size + j] = dense[from + own + j] as number;
        // Each valid requirement's share of the mean (valid flag / count), or none at all.
        let count = 0;
        for (let s = 0; s < req.slots; s++) count += dense[from + own + s * req.features] as number;
        for (let s = 0; s < req.slots; s++) weights[r * req.slots + s] = (dense[from + own + s * req.features] as number) / Math.max(count, 1);
        unconstrained[r] = count > 0 ? 0 : 1;
      }
      for (let j = 0; j < this.slots; j++) {
        const b = this.buckets[row * this.slots + j] as number;
        buckets[r * this.slots + j] = b >= 0 ? b : B;
      }
    }
    const out: HeadBatchData = { n, main, width: own, buckets };
    if (req && requirements && weights && unconstrained) Object.assign(out, { requirements, weights, unconstrained });
    if (transposed) {
      out.mainT = transpose(main, n, own, uploadArray('rows-main-transposed', main.length, false));
      if (req && requirements) out.requirementsT = transpose(requirements, n * req.slots, req.features, uploadArray('rows-requirements-transposed', requirements.length, false));
    }
    return out;
  }

  targetMatrix(indices: readonly number[]): Float32Array {
    const O = this.shape.outputs;
    const out = new Float32Array(indices.length * O);
    indices.forEach((row, r) => {
      for (let j = 0; j < O; j++) out[r * O + j] = this.targets[row * O + j] as number;
    });
    return out;
  }
}

/** A head's inputs as plain arrays (Rows.batch); `headBatch` makes them tensors. */
export interface HeadBatchData {
  n: number;
  /** [n, width]: the head's own dense values (the transition head's requirement rows apart). */
  main: Float32Array;
  width: number;
  mainT?: Float32Array;
  /** [n · slots]: each row's buckets in slot order, `buckets` (the head's count) for an empty slot. */
  buckets: Int32Array;
  /** The transition head's requirement rows, [n · slots, features]. */
  requirements?: Float32Array;
  requirementsT?: Float32Array;
  /** [n, slots]: each valid requirement's weight in its row's mean score (1 / the row's count). */
  weights?: Float32Array;
  /** [n]: 1 for a row without requirements (its reward is the head's own), else 0. */
  unconstrained?: Float32Array;
}

/** A head's inputs as tensors, for `NeuralNetwork.forward`. */
export interface HeadBatch {
  main: tf.Tensor2D;
  mainT?: tf.Tensor2D;
  buckets: BucketInputs;
  requirements?: tf.Tensor2D;
  requirementsT?: tf.Tensor2D;
  weights?: tf.Tensor2D;
  unconstrained?: tf.Tensor2D;
}

/** aᵀ of a row-major [rows, cols] matrix, into `out` (column by column: the writes run in order). */
function transpose(a: Float32Array, rows: number, cols: number, out: Float32Array): Float32Array {
  for (let c = 0; c < cols; c++) {
    const at = c * rows;
    for (let r = 0; r < rows; r++) out[at + r] = a[r * cols + c] as number;
  }
  return out;
}

/** The tensors of a batch (the caller disposes them, e.g. with `disposeBatch`). */
export function headBatch(data: HeadBatchData, shape: HeadShape): HeadBatch {
  const { n, width } = data;
  const req = shape.requirements;
  // Each bucket's row: every row has the same number of slots, in turn (0, 0, …, 1, 1, …).
  const slots = data.buckets.length / Math.max(1, n);
  const owners = new Int32Array(data.buckets.length);
  for (let i = 0; i < owners.length; i++) owners[i] = Math.floor(i / slots);
  const batch: HeadBatch = { main: tf.tensor2d(data.main, [n, width]), buckets: { ids: tf.tensor1d(data.buckets, 'int32'), owners: tf.tensor1d(owners, 'int32'), host: data.buckets } };
  if (data.mainT) batch.mainT = tf.tensor2d(data.mainT, [width, n]);
  if (req && data.requirements && data.weights && data.unconstrained) {
    batch.requirements = tf.tensor2d(data.requirements, [n * req.slots, req.features]);
    batch.weights = tf.tensor2d(data.weights, [n, req.slots]);
    batch.unconstrained = tf.tensor2d(data.unconstrained, [n, 1]);
    if (data.requirementsT) batch.requirementsT = tf.tensor2d(data.requirementsT, [req.features, n * req.slots]);
  }
  return batch;
}

export function disposeBatch(batch: HeadBatch): void {
  const { buckets, ...tensors } = batch;
  tf.dispose([buckets.ids, buckets.owners, ...(Object.values(tensors) as tf.Tensor[])]);
}

export interface NamedWeight {
  name: string;
  shape: number[];
  data: Float32Array;
}

/** Weight names and shapes, in file order. */
export function weightPlan(arch: NeuralArchitecture): { name: string; shape: number[] }[] {
  return HEADS.flatMap((head) => {
    const { dense, buckets, hidden, outputs, requirements: req } = arch.heads[head];
    // With requirements, the first layer reads the other features plus the requirements' mean score.
    const inputs = req ? dense - req.slots * req.features + buckets + 1 : dense + buckets;
    return [
      ...(req
        ? [
            { name: `${head}/r1`, shape: [req.features, req.hidden] },
            { name: `${head}/rb1`, shape: [req.hidden] },
            { name: `${head}/r2`, shape: [req.hidden, 1] },
            { name: `${head}/rb2`, shape: [1] },
          ]
        : []),
      { name: `${head}/w1`, shape: [inputs, hidden] },
      { name: `${head}/b1`, shape: [hidden] },
      { name: `${head}/w2`, shape: [hidden, hidden] },
      { name: `${head}/b2`, shape: [hidden] },
      { name: `${head}/w3`, shape: [hidden, outputs] },
      { name: `${head}/b3`, shape: [outputs] },
    ];
  });
}

function normal(rng: Rng): number {
  const u = Math.max(rng.next(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

export class NeuralNetwork {
  private readonly variables = new Map<string, tf.Variable>();

  constructor(
    readonly architecture: NeuralArchitecture,
    init: { seed: number } | { weights: readonly NamedWeight[] },
  ) {
    const plan = weightPlan(architecture);
    if ('weights' in init) {
      const byName = new Map(init.weights.map((w) => [w.name, w]));
      for (const { name, shape } of plan) {
        const w = byName.get(name);
        if (!w || w.shape.join(',') !== shape.join(',')) throw new RangeError(`weight ${name} missing or not shaped [${shape.join(', ')}]`);
        this.variables.set(name, tf.tidy(() => tf.variable(tf.tensor(w.data, shape), true)));
      }
      return;
    }
    const rng = new Rng(init.seed);
    for (const { name, shape } of plan) {
      const size = shape.reduce((a, b) => a * b, 1);
      const data = new Float32Array(size);
      if (shape.length === 2) {
        // He initialisation for relu layers.
        const std = Math.sqrt(2 / (shape[0] as number));
        for (let i = 0; i < size; i++) data[i] = normal(rng) * std;
      }
      // In a tidy: the uploaded tensor is a temporary, the variable keeps the data.
      this.variables.set(name, tf.tidy(() => tf.variable(tf.tensor(data, shape), true)));
    }
  }

  private v(name: string): tf.Variable {
    return this.variables.get(name) as tf.Variable;
  }

  /** Logits [n, outputs] of one head, from its batch (Rows.batch, headBatch). */
  forward(head: HeadName, batch: HeadBatch): tf.Tensor2D {
    return tf.tidy(() => {
      const req = this.architecture.heads[head].requirements;
      if (req) return this.forwardWithRequirements(head, batch, req);
      return this.mlp(head, this.firstLayer(batch, this.w(head, 'w1'), this.b(head, 'b1'), 'relu'));
    });
  }

  /** The first layer on the batch's dense values and buckets; `w1`'s rows are [dense, buckets]. */
  private firstLayer(batch: HeadBatch, w1: tf.Tensor2D, b1: tf.Tensor1D, activation: 'relu' | 'linear'): tf.Tensor2D {
    return bucketedInputDense(batch.main, batch.mainT, batch.buckets, w1, b1, activation);
  }

  private w(head: HeadName, name: string): tf.Tensor2D {
    return this.v(`${head}/${name}`) as tf.Tensor2D;
  }

  private b(head: HeadName, name: string): tf.Tensor1D {
    return this.v(`${head}/${name}`) as tf.Tensor1D;
  }

  /**
   * The second and third layers. Every layer has hand-written gradients (platform/dense.ts):
   * tfjs's own matmul gradient runs transposed matmuls that the wasm backend computes many times
   * slower, and they were most of a fit's time.
   */
  private mlp(head: HeadName, h1: tf.Tensor2D): tf.Tensor2D {
    const h2 = hiddenDense(h1, this.w(head, 'w2'), this.b(head, 'b2'), 'relu');
    return hiddenDense(h2, this.w(head, 'w3'), this.b(head, 'b3'), 'linear');
  }

  /**
   * The transition head with its requirement sub-network. Every requirement row is scored on its
   * own by one shared MLP, so what it learns about "a wanted value stands in a marked line" holds
   * for every requirement of every task; the reward (output 0) is the head's reward times the
   * mean score of the valid rows, returned as a logit like the head's other outputs.
   */
  private forwardWithRequirements(head: HeadName, batch: HeadBatch, req: RequirementShape): tf.Tensor2D {
    const { requirements, weights, unconstrained } = batch;
    if (!requirements || !weights || !unconstrained) throw new RangeError(`the ${head} head reads requirement rows, and its batch has none`);
    const n = batch.main.shape[0];
    const hidden = inputDense(requirements, batch.requirementsT, this.w(head, 'r1'), this.b(head, 'rb1'), 'relu');
    const score = tf.reshape(tf.sigmoid(hiddenDense(hidden, this.w(head, 'r2'), this.b(head, 'rb2'), 'linear')), [n, req.slots]);
    // The valid requirements' mean score, or 1 for a row without any (weights and unconstrained: Rows.batch).
    const met = tf.add(tf.sum(tf.mul(score, weights), 1, true), unconstrained) as tf.Tensor2D;
    // The first layer reads [own dense, buckets, met]: the constant part through the bucketed layer,
    // the met column (which carries the requirement network's gradient) as an outer product.
    const w1 = this.w(head, 'w1');
    const constant = w1.shape[0] - 1;
    const z = tf.add(this.firstLayer(batch, tf.slice(w1, [0, 0], [constant, w1.shape[1]]), this.b(head, 'b1'), 'linear'), tf.matMul(met, tf.slice(w1, [constant, 0], [1, w1.shape[1]])));
    const out = this.mlp(head, tf.relu(z) as tf.Tensor2D);
    const reward = tf.clipByValue(tf.mul(tf.sigmoid(tf.slice(out, [0, 0], [n, 1])), met), 1e-6, 1 - 1e-6);
    const rewardLogit = tf.sub(tf.log(reward), tf.log1p(tf.neg(reward)));
    return tf.concat([rewardLogit, tf.slice(out, [0, 1], [n, out.shape[1] - 1])], 1) as tf.Tensor2D;
  }

  /** Logits of the rows, read back (one async read per call). */
  async logits(head: HeadName, rows: Rows, indices: readonly number[]): Promise<Float32Array> {
    if (indices.length === 0) return new Float32Array(0);
    const batch = headBatch(rows.batch(indices, false), rows.shape);
    const y = this.forward(head, batch);
    try {
      return (await y.data()) as Float32Array;
    } finally {
      disposeBatch(batch);
      y.dispose();
    }
  }

  headVariables(head: HeadName): tf.Variable[] {
    return [...this.variables.entries()].filter(([name]) => name.startsWith(`${head}/`)).map(([, v]) => v);
  }

  async getWeights(): Promise<NamedWeight[]> {
    const out: NamedWeight[] = [];
    for (const { name, shape } of weightPlan(this.architecture)) out.push({ name, shape, data: new Float32Array(await this.v(name).data()) });
    return out;
  }

  dispose(): void {
    for (const v of this.variables.values()) v.dispose();
    this.variables.clear();
  }
}

/**
 * Loss of a head on a minibatch: binary cross-entropy on every output except the transition
 * head's reward (output 0), which is a squared error on sigmoid(logit) against a reward in [0, 1].
 *
 * `eventWeight` > 1 weighs the transition head's rows that end an episode that much more: they are
 * a few percent of all rows, and the only ones that carry a reward, so an unweighted loss is low
 * when the model never predicts them (the success recall that `experience eval` reports).
 */
export function headLoss(head: HeadName, logits: tf.Tensor2D, targets: tf.Tensor2D, eventWeight = 1): tf.Scalar {
  return tf.tidy(() => {
    if (head !== 'transition') return tf.losses.sigmoidCrossEntropy(targets, logits) as tf.Scalar;
    const [rewardLogit, doneLogit] = tf.split(logits, 2, 1) as [tf.Tensor2D, tf.Tensor2D];
    const [reward, done] = tf.split(targets, 2, 1) as [tf.Tensor2D, tf.Tensor2D];
    if (eventWeight === 1) {
      const rewardLoss = tf.mean(tf.square(tf.sub(tf.sigmoid(rewardLogit), reward)));
      const doneLoss = tf.losses.sigmoidCrossEntropy(done, doneLogit);
      return tf.add(tf.mul(rewardLoss, 4), doneLoss) as tf.Scalar;
    }
    // Weighted means: each row counts 1, an episode's last row `eventWeight`.
    const weights = tf.add(1, tf.mul(done, eventWeight - 1)) as tf.Tensor2D;
    const total = tf.sum(weights);
    const rewardLoss = tf.div(tf.sum(tf.mul(weights, tf.square(tf.sub(tf.sigmoid(rewardLogit), reward)))), total);
    const doneLoss = tf.losses.sigmoidCrossEntropy(done, doneLogit, weights, 0, tf.Reduction.SUM_BY_NONZERO_WEIGHTS);
    return tf.add(tf.mul(rewardLoss, 4), tf.mul(doneLoss, tf.div(weights.shape[0], total))) as tf.Scalar;
  });
}
