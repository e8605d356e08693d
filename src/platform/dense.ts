/**
 * Dense layers with hand-written gradients. tfjs's wasm backend runs a matmul with a transposed
 * operand many times slower than a plain one (`npm run bench -- policy` reports both for the
 * action layer's weight gradient), and the built-in matmul gradient uses exactly those.
 * These layers compute every gradient as a plain matmul against an explicitly transposed operand;
 * for the raw inputs the transpose is built while packing the batch, where it costs nothing.
 */
import { tf } from './tf.ts';

type Activation = 'relu' | 'linear';

function activate(dy: tf.Tensor, value: tf.Tensor, activation: Activation): tf.Tensor {
  return activation === 'relu' ? tf.mul(dy, tf.step(value)) : dy;
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
        const [val, input] = saved as [tf.Tensor, tf.Tensor2D];
        const dz = activate(dy, val, activation) as tf.Tensor2D;
        return [tf.matMul(xT ? input : tf.transpose(input), dz), tf.sum(dz, 0)];
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
