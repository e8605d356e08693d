/**
 * Adam with a learning rate given per step (for schedules) and global-norm gradient clipping.
 * Written out rather than taken from tf.train so the rate can change every step and the moments
 * can be reset when a run resumes from a file.
 */
import { tf } from '../platform/tf.ts';

export interface AdamOptions {
  beta1: number;
  beta2: number;
  epsilon: number;
}

export interface AdamState {
  t: number;
  m: Float32Array[];
  v: Float32Array[];
}

export class Adam {
  private readonly m: tf.Variable[];
  private readonly v: tf.Variable[];
  private t = 0;

  constructor(
    private readonly variables: readonly tf.Variable[],
    private readonly options: AdamOptions = { beta1: 0.9, beta2: 0.999, epsilon: 1e-5 },
  ) {
    // In a tidy: the zeros are temporaries, the variables keep the data.
    this.m = variables.map((x) => tf.tidy(() => tf.variable(tf.zerosLike(x), false)));
    this.v = variables.map((x) => tf.tidy(() => tf.variable(tf.zerosLike(x), false)));
  }

  /**
   * Clip `grads` (same order as the variables) to a global L2 norm of `maxNorm` and take one step.
   * A variable the loss does not touch (GRPO has no value loss) has no gradient and is left alone.
   * Returns the pre-clip norm as a scalar tensor (read it later, asynchronously).
   */
  step(grads: readonly (tf.Tensor | undefined)[], learningRate: number, maxNorm: number | null): tf.Scalar {
    this.t++;
    const { beta1, beta2, epsilon } = this.options;
    return tf.tidy(() => {
      const present = grads.filter((g): g is tf.Tensor => g !== undefined && g !== null);
      // Pairwise sums, not tf.addN: tfjs-webgpu's addN returns zeros past 8 inputs (see update.ts).
      const squares = present.map((g) => tf.sum(tf.square(g)));
      const norm = tf.sqrt(squares.slice(1).reduce((acc, x) => tf.add(acc, x), squares[0] ?? tf.scalar(0))) as tf.Scalar;
      const scale = maxNorm === null ? tf.scalar(1) : tf.minimum(1, tf.div(maxNorm, tf.add(norm, 1e-6)));
      const correction1 = 1 - beta1 ** this.t;
      const correction2 = 1 - beta2 ** this.t;
      const stepSize = (learningRate * Math.sqrt(correction2)) / correction1;
      grads.forEach((raw, i) => {
        if (raw === undefined || raw === null) return;
        const g = tf.mul(raw, scale);
        const m = this.m[i] as tf.Variable;
        const v = this.v[i] as tf.Variable;
        m.assign(tf.add(tf.mul(m, beta1), tf.mul(g, 1 - beta1)));
        v.assign(tf.add(tf.mul(v, beta2), tf.mul(tf.square(g), 1 - beta2)));
        const x = this.variables[i] as tf.Variable;
        x.assign(tf.sub(x, tf.mul(stepSize, tf.div(m, tf.add(tf.sqrt(v), epsilon)))));
      });
      return tf.keep(norm);
    });
  }

  /**
   * The weights it updates, its moments and its step count as they are now, copied on the device:
   * `rewind` puts them back (an update that diverged is undone), `dispose` frees the copy.
   */
  mark(): { rewind: () => void; dispose: () => void } {
    const t = this.t;
    const copies = [...this.variables, ...this.m, ...this.v].map((x) => tf.keep(tf.clone(x)));
    return {
      rewind: () => {
        [...this.variables, ...this.m, ...this.v].forEach((x, i) => x.assign(copies[i] as tf.Tensor));
        this.t = t;
      },
      dispose: () => copies.forEach((x) => x.dispose()),
    };
  }

  /** The optimiser's state (step count and both moments, in variable order), for a checkpoint. */
  async snapshot(): Promise<AdamState> {
    return { t: this.t, m: await Promise.all(this.m.map((x) => x.data() as Promise<Float32Array>)), v: await Promise.all(this.v.map((x) => x.data() as Promise<Float32Array>)) };
  }

  /** Go on from a `snapshot()` of an optimiser over variables of the same shapes. */
  restore(state: AdamState): void {
    if (state.m.length !== this.m.length || state.v.length !== this.v.length) {
      throw new RangeError(`the optimiser state holds ${state.m.length} moments, this network has ${this.m.length} variables`);
    }
    const assign = (targets: readonly tf.Variable[], values: readonly Float32Array[]) =>
      targets.forEach((x, i) => {
        const data = values[i] as Float32Array;
        if (data.length !== x.size) throw new RangeError(`optimiser moment ${i} has ${data.length} values, its variable ${x.size}`);
        x.assign(tf.tensor(data, x.shape));
      });
    tf.tidy(() => {
      assign(this.m, state.m);
      assign(this.v, state.v);
    });
    this.t = state.t;
  }

  dispose(): void {
    for (const x of [...this.m, ...this.v]) x.dispose();
  }
}
