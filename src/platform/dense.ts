/**
 * Dense layers with hand-written gradients. tfjs's wasm backend runs a matmul with a transposed
 * operand many times slower than a plain one (`npm run bench -- policy` reports both for the
 * action layer's weight gradient), and the built-in matmul gradient uses exactly those.
 * These layers compute every gradient as a plain matmul against an explicitly transposed operand;
 * for the raw inputs the transpose is built while packing the batch, where it costs nothing.
 */
import { backendOnHost, hostValues, tf, uploadArray } from './tf.ts';

type Activation = 'relu' | 'linear';

function activate(dy: tf.Tensor, value: tf.Tensor, activation: Activation): tf.Tensor {
  return activation === 'relu' ? tf.mul(dy, tf.step(value)) : dy;
}

/**
 * An input layer's backward pass from what it saved ([its value, x or xᵀ]): dz, and x's weight
 * gradient as a plain matmul (against xᵀ when the caller packed it).
 */
function inputGradients(dy: tf.Tensor, saved: tf.Tensor[], transposed: boolean, activation: Activation): { dz: tf.Tensor2D; dW: tf.Tensor2D } {
  const [value, input] = saved as [tf.Tensor, tf.Tensor2D];
  const dz = activate(dy, value, activation) as tf.Tensor2D;
  return { dz, dW: tf.matMul(transposed ? input : tf.transpose(input), dz) };
}

/**
 * y = act(x·W + b) for a constant input x (no gradient flows into x). `xT`, when given, is xᵀ
 * prepared by the caller; otherwise it is transposed here, and only if a gradient is asked for.
 */
export function inputDense(x: tf.Tensor2D, xT: tf.Tensor2D | undefined, w: tf.Tensor2D, b: tf.Tensor1D, activation: Activation): tf.Tensor2D {
  // The engine keeps only saved tensors alive until the backward pass, so x (or xᵀ) is saved too.
  const op = tf.customGrad(((kernel: tf.Tensor, bias: tf.Tensor, save: tf.GradSaveFunc) => {
    const value = tf.fused.matMul({ a: x, b: kernel as tf.Tensor2D, bias, activation });
    save([value, xT ?? x]);
    return {
      value,
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        const { dz, dW } = inputGradients(dy, saved, xT !== undefined, activation);
        return [dW, tf.sum(dz, 0)];
      },
    };
  }) as unknown as Parameters<typeof tf.customGrad>[0]);
  return op(w, b) as tf.Tensor2D;
}

/** y = act(x·W + b) for an x that needs its gradient too. */
export function hiddenDense(x: tf.Tensor2D, w: tf.Tensor2D, b: tf.Tensor1D, activation: Activation): tf.Tensor2D {
  const op = tf.customGrad(((input: tf.Tensor, kernel: tf.Tensor, bias: tf.Tensor, save: tf.GradSaveFunc) => {
    const value = tf.fused.matMul({ a: input as tf.Tensor2D, b: kernel as tf.Tensor2D, bias, activation });
    save([input, kernel, value]);
    return {
      value,
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        const [inp, ker, val] = saved as [tf.Tensor2D, tf.Tensor2D, tf.Tensor];
        const dz = activate(dy, val, activation) as tf.Tensor2D;
        return [tf.matMul(dz, tf.transpose(ker)), tf.matMul(tf.transpose(inp), dz), tf.sum(dz, 0)];
      },
    };
  }) as unknown as Parameters<typeof tf.customGrad>[0]);
  return op(x, w, b) as tf.Tensor2D;
}

/** A batch's hashed buckets, for bucketedInputDense: each (row, slot)'s bucket and its row, as tensors, and the buckets as the host holds them. */
export interface BucketInputs {
  ids: tf.Tensor1D;
  owners: tf.Tensor1D;
  host: Int32Array;
}

/**
 * Hashed one-hot inputs as a table lookup: y = act(x·W[own rows] + Σ W[own + bucket] + b), which
 * is x·W for a row laid out as [x, bucket counts] without multiplying the counts' mostly-zero
 * columns (a row of the neural model sets 4–8 buckets of 256: the dense form was most of a fit).
 * `buckets.ids` [m] names each (row, slot)'s bucket, with `B` (W's rows after the dense ones) for an
 * empty slot, each row's slots in turn and the same number for every row; `buckets.owners` [m] is
 * the row of each; `buckets.host` is `ids` as the host holds it.
 *
 * The gradient adds each row's dz into the rows of W its buckets read (duplicates sum, as counts
 * do). On the CPU-side backends (wasm, cpu) it is summed on the host: their gather and tile, which
 * would do it in tfjs, cost more than the dense matmul this replaces, and reading dz back is a copy.
 * On a GPU backend it stays on the device (gather, then a segment sum): a synchronous read there
 * stalls the queue, and on WebGPU in a worker it may not be offered at all.
 */
export function bucketedInputDense(x: tf.Tensor2D, xT: tf.Tensor2D | undefined, buckets: BucketInputs, w: tf.Tensor2D, b: tf.Tensor1D, activation: Activation, gradientOn: 'host' | 'device' = gradientPlace()): tf.Tensor2D {
  const own = x.shape[1];
  const [inputs, units] = w.shape;
  const B = inputs - own;
  const m = buckets.host.length;
  const slots = m / Math.max(1, x.shape[0]);
  if (!Number.isInteger(slots) || slots < 1) throw new RangeError(`${m} bucket entries for ${x.shape[0]} rows: every row needs the same number of slots, at least one`);
  const op = tf.customGrad(((kernel: tf.Tensor, bias: tf.Tensor, save: tf.GradSaveFunc) => {
    const k = kernel as tf.Tensor2D;
    // The table's last row is an empty slot's: zeros, and its gradient is dropped.
    const table = tf.concat([tf.slice(k, [own, 0], [B, units]), tf.zeros([1, units])], 0);
    const z = tf.add(tf.fused.matMul({ a: x, b: tf.slice(k, [0, 0], [own, units]), bias }), tf.sparse.sparseSegmentSum(table, buckets.ids, buckets.owners));
    const value = activation === 'relu' ? tf.relu(z) : z;
    save([value, xT ?? x]);
    return {
      value,
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        const { dz, dW: dOwn } = inputGradients(dy, saved, xT !== undefined, activation);
        const dTable = gradientOn === 'host' ? hostBucketGradient(dz, buckets.host, slots, B, units) : tf.slice(tf.unsortedSegmentSum(tf.gather(dz, buckets.owners), buckets.ids, B + 1), [0, 0], [B, units]);
        return [tf.concat([dOwn, dTable], 0), tf.sum(dz, 0)];
      },
    };
  }) as unknown as Parameters<typeof tf.customGrad>[0]);
  return op(w, b) as tf.Tensor2D;
}

/** Where the bucket gradient is summed on the backend in use (see bucketedInputDense). */
function gradientPlace(): 'host' | 'device' {
  return backendOnHost() ? 'host' : 'device';
}

/**
 * Rows of a sparse matrix [rows, width] as the host holds them (compressed rows): row r's nonzeros
 * are `columns` / `values` from `offsets[r]` up to `offsets[r + 1]`.
 */
export interface SparseRows {
  rows: number;
  width: number;
  offsets: Int32Array;
  columns: Int32Array;
  values: Float32Array;
}

/**
 * y = act(x·W + b) for a constant sparse input x, computed on the host over x's nonzeros only, for
 * the CPU-side backends (backendOnHost). The policy's rows set about 14 of an action's 1,043
 * columns and about 100 of a state's 2,051: the dense matmul spent almost all of an update
 * multiplying zeros, and building, uploading and transposing the dense rows cost as much again.
 * The gradient is dW = xᵀ·dz over the same nonzeros (no gradient flows into x).
 */
export function sparseInputDense(x: SparseRows, w: tf.Tensor2D, b: tf.Tensor1D, activation: Activation): tf.Tensor2D {
  const [inputs, units] = w.shape;
  if (x.width !== inputs) throw new RangeError(`sparse rows are ${x.width} wide, the kernel takes ${inputs}`);
  const op = tf.customGrad(((kernel: tf.Tensor, bias: tf.Tensor, save: tf.GradSaveFunc) => {
    // A view of the kernel (no copy on wasm): nothing below allocates a tensor until z is filled.
    const weights = hostValues(kernel);
    const z = uploadArray('sparse-input', x.rows * units, true);
    accumulateProducts(x, units, weights, z, 'into-rows');
    const sum = tf.add(tf.tensor2d(z, [x.rows, units]), bias);
    const value = activation === 'relu' ? tf.relu(sum) : sum;
    save([value]);
    return {
      value,
      gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
        const dz = activate(dy, saved[0] as tf.Tensor, activation);
        const d = hostValues(dz);
        const dW = uploadArray('sparse-input-gradient', inputs * units, true);
        accumulateProducts(x, units, d, dW, 'into-columns');
        return [tf.tensor2d(dW, [inputs, units]), tf.sum(dz, 0)];
      },
    };
  }) as unknown as Parameters<typeof tf.customGrad>[0]);
  return op(w, b) as tf.Tensor2D;
}

/**
 * For every nonzero v of x at (row r, column c): `into` row r += v · `from` row c (x·W, into-rows),
 * or `into` row c += v · `from` row r (xᵀ·dz, into-columns); rows are `units` wide.
 */
function accumulateProducts(x: SparseRows, units: number, from: Float32Array, into: Float32Array, direction: 'into-rows' | 'into-columns'): void {
  const intoRows = direction === 'into-rows';
  for (let r = 0; r < x.rows; r++) {
    for (let j = x.offsets[r] as number, end = x.offsets[r + 1] as number; j < end; j++) {
      const c = x.columns[j] as number;
      const source = (intoRows ? c : r) * units;
      const target = (intoRows ? r : c) * units;
      const v = x.values[j] as number;
      for (let u = 0; u < units; u++) into[target + u] = (into[target + u] as number) + v * (from[source + u] as number);
    }
  }
}

/** Each row's dz added into the [B, units] rows its buckets name (an empty slot's, B, dropped). */
function hostBucketGradient(dz: tf.Tensor2D, ids: Int32Array, slots: number, B: number, units: number): tf.Tensor2D {
  const d = hostValues(dz);
  const table = uploadArray('bucket-gradient', (B + 1) * units, true);
  for (let r = 0, i = 0; i < ids.length; r++) {
    const from = r * units;
    for (let s = 0; s < slots; s++, i++) {
      const to = (ids[i] as number) * units;
      for (let u = 0; u < units; u++) table[to + u] = (table[to + u] as number) + (d[from + u] as number);
    }
  }
  return tf.tensor2d(table.subarray(0, B * units), [B, units]);
}
