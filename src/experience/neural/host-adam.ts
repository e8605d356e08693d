/**
 * Adam for the neural experience model's small heads, computed on the host (plain Float32Arrays)
 * instead of as tfjs ops. The arithmetic is tf.train.adam's (same defaults, same update); what
 * changes is the cost: tfjs spends about 15 kernel calls per variable on an update, and for heads
 * of a few tens of thousands of weights that dispatch cost, not the arithmetic, was a third of a
 * fitting step. Here a step is one read of each gradient and one write of each variable.
 */
import { backendOnHost, hostValues, tf } from '../../platform/tf.ts';

const BETA1 = 0.9;
const BETA2 = 0.999;
/** tf.train.adam's default: the float32 backend's epsilon. */
const EPSILON = 1e-7;

export class HostAdam {
  private readonly values: Float32Array[];
  private readonly m: Float32Array[];
  private readonly v: Float32Array[];
  private t = 0;

  private constructor(
    private readonly variables: readonly tf.Variable[],
    private readonly learningRate: number,
    values: Float32Array[],
  ) {
    this.values = values;
    this.m = variables.map((x) => new Float32Array(x.size));
    this.v = variables.map((x) => new Float32Array(x.size));
  }

  /** An optimiser over `variables`, starting from their current values. */
  static async create(variables: readonly tf.Variable[], learningRate: number): Promise<HostAdam> {
    const values = await Promise.all(variables.map(async (x) => Float32Array.from((await x.data()) as Float32Array)));
    return new HostAdam(variables, learningRate, values);
  }

  /**
   * One step on the loss `f` returns; returns the loss. On a CPU-side backend the gradients are read
   * in place (platform/tf.ts hostValues: no copy on wasm); elsewhere asynchronously (webgpu has no
   * sync read).
   */
  async minimize(f: () => tf.Scalar): Promise<number> {
    const { value, grads } = tf.variableGrads(f, [...this.variables]);
    try {
      const gradient = (variable: tf.Variable) => grads[variable.name];
      const read = backendOnHost()
        ? this.variables.map((variable) => {
            const g = gradient(variable);
            return g ? hostValues(g) : undefined;
          })
        : await Promise.all(this.variables.map((variable) => gradient(variable)?.data() as Promise<Float32Array> | undefined));
      this.t++;
      const correction1 = 1 - BETA1 ** this.t;
      const correction2 = 1 - BETA2 ** this.t;
      // Every update first, then every write: a write allocates, and that may move what the views read.
      const updated = this.variables.map((_, i) => {
        const g = read[i];
        if (!g) return false;
        const x = this.values[i] as Float32Array;
        const m = this.m[i] as Float32Array;
        const v = this.v[i] as Float32Array;
        for (let j = 0; j < x.length; j++) {
          const gj = g[j] as number;
          const mj = BETA1 * (m[j] as number) + (1 - BETA1) * gj;
          const vj = BETA2 * (v[j] as number) + (1 - BETA2) * gj * gj;
          m[j] = mj;
          v[j] = vj;
          x[j] = (x[j] as number) - (this.learningRate * (mj / correction1)) / (Math.sqrt(vj / correction2) + EPSILON);
        }
        return true;
      });
      this.variables.forEach((variable, i) => {
        // In a tidy: the uploaded tensor is a temporary; the variable keeps its data.
        if (updated[i]) tf.tidy(() => variable.assign(tf.tensor(this.values[i] as Float32Array, variable.shape)));
      });
      return (await value.data())[0] as number;
    } finally {
      tf.dispose([value, ...Object.values(grads)]);
    }
  }
}
