/**
 * The choice network. It encodes the state once, each candidate action once, joins them, scores
 * every candidate and takes a softmax over the valid ones; a value head on the state serves PPO.
 *
 *   hs     = relu(xs·Ws + bs)                 state encoder          [N, H]
 *   us     = hs·Us + bu                       state's share of join  [N, H]
 *   z1     = relu(xa·Wa + us)                 join, per candidate    [N·K, H]
 *   z2     = relu(z1·W2 + b2)                                        [N·K, H]
 *   logit  = z2·w3 + b3, masked to −1e9 where no candidate           [N, K]
 *   value  = relu(hs·Wv + bv)·wv + bw                                [N]
 *
 * Inputs are multi-hot rows. On a GPU backend they are dense and every layer is one (fused) matmul;
 * on a CPU-side backend (wasm, cpu) the two input layers read sparse rows on the host instead
 * (platform/dense.ts sparseInputDense), since those rows are more than 98% zeros. Both compute the
 * same function with the same weights: a policy file does not know which one trained it.
 */
import { Rng } from '../core/rng.ts';
import { tf } from '../platform/tf.ts';
import { hiddenDense, inputDense, sparseInputDense, type SparseRows } from '../platform/dense.ts';

export interface NetworkConfig {
  stateWidth: number;
  actionWidth: number;
  hidden: number;
  /** Std of the first-layer weights: inputs are sparse bags with a squared norm of about ten. */
  inputInitStd: number;
  /**
   * Initial weights of the linear path from each action's relation features (the last
   * `relationPrior.length` columns of an action row) straight to its logit; see DEFAULT_RELATION_PRIOR.
   */
  relationPrior: number[];
}

export const DEFAULT_HIDDEN = 128;

export interface NetworkOutput {
  /** Masked logits [N, K]. */
  logits: tf.Tensor2D;
  /** log π(·|s) over candidates [N, K]; masked entries are about −1e9. */
  logProbs: tf.Tensor2D;
  values: tf.Tensor1D;
}

export interface NetworkInputs {
  /** [N, S]: a dense tensor, or sparse rows on the host (policy.ts batchTensors picks by backend). */
  states: tf.Tensor2D | SparseRows;
  /** [N·K, A], as `states`. */
  actions: tf.Tensor2D | SparseRows;
  mask: tf.Tensor2D;
  /** The action rows' relation columns, packed apart (featurizer.ts PackedBatch); sliced off dense `actions` when absent. */
  relations?: tf.Tensor2D;
  /** Transposes of dense inputs, packed alongside them for updates (see dense.ts). */
  statesT?: tf.Tensor2D;
  actionsT?: tf.Tensor2D;
}

const isSparse = (x: tf.Tensor2D | SparseRows): x is SparseRows => !(x instanceof tf.Tensor);

const MASKED = -1e9;

/** Which weights an update changes besides the value head (rl/config.ts `trainOnly`); absent, all. */
export type TrainOnly = 'relations';

interface WeightPlan {
  name: string;
  shape: number[];
  init: 'input' | 'he' | 'zero' | 'policy-head' | 'value-head' | 'relation-prior';
}

export function weightPlan(config: NetworkConfig): WeightPlan[] {
  const { stateWidth: S, actionWidth: A, hidden: H } = config;
  return [
    { name: 'state/kernel', shape: [S, H], init: 'input' },
    { name: 'state/bias', shape: [H], init: 'zero' },
    { name: 'join/state_kernel', shape: [H, H], init: 'he' },
    { name: 'join/bias', shape: [H], init: 'zero' },
    { name: 'join/action_kernel', shape: [A, H], init: 'input' },
    { name: 'join/action_bias', shape: [H], init: 'zero' },
    { name: 'score/hidden_kernel', shape: [H, H], init: 'he' },
    { name: 'score/hidden_bias', shape: [H], init: 'zero' },
    { name: 'score/kernel', shape: [H, 1], init: 'policy-head' },
    { name: 'score/bias', shape: [1], init: 'zero' },
    { name: 'score/relation_kernel', shape: [config.relationPrior.length, 1], init: 'relation-prior' },
    { name: 'value/hidden_kernel', shape: [H, H], init: 'he' },
    { name: 'value/hidden_bias', shape: [H], init: 'zero' },
    { name: 'value/kernel', shape: [H, 1], init: 'value-head' },
    { name: 'value/bias', shape: [1], init: 'zero' },
  ];
}

function normals(rng: Rng, count: number, std: number): Float32Array {
  const out = new Float32Array(count);
  for (let i = 0; i < count; i += 2) {
    const u = Math.max(rng.next(), 1e-12);
    const v = rng.next();
    const r = Math.sqrt(-2 * Math.log(u)) * std;
    out[i] = r * Math.cos(2 * Math.PI * v);
    if (i + 1 < count) out[i + 1] = r * Math.sin(2 * Math.PI * v);
  }
  return out;
}

function initialValues(plan: WeightPlan, config: NetworkConfig, rng: Rng): Float32Array {
  const size = plan.shape.reduce((a, b) => a * b, 1);
  switch (plan.init) {
    case 'zero':
      return new Float32Array(size);
    case 'input':
      return normals(rng, size, config.inputInitStd);
    case 'he':
      return normals(rng, size, Math.sqrt(2 / (plan.shape[0] as number)));
    case 'policy-head':
      // Near-uniform first policy, as CleanRL's 0.01-scaled policy head.
      return normals(rng, size, 0.01 / Math.sqrt(plan.shape[0] as number));
    case 'relation-prior':
      return Float32Array.from(config.relationPrior);
    case 'value-head':
      return normals(rng, size, 1 / Math.sqrt(plan.shape[0] as number));
  }
}

export interface NamedWeights {
  name: string;
  shape: number[];
  data: Float32Array;
}

export class PolicyNetwork {
  readonly variables: tf.Variable[];
  private readonly byName = new Map<string, tf.Variable>();

  /** Seeded initialisation from our own RNG, so that equal seeds give equal networks on every backend. */
  constructor(
    readonly config: NetworkConfig,
    seed: number | string,
  ) {
    const rng = new Rng(`network:${seed}`);
    this.variables = weightPlan(config).map((plan) => {
      // In a tidy: the uploaded tensor is a temporary, the variable keeps the data (else both hold it until the end).
      const v = tf.tidy(() => tf.variable(tf.tensor(initialValues(plan, config, rng), plan.shape), true, freeVariableName(plan.name)));
      this.byName.set(plan.name, v);
      return v;
    });
  }

  /** Whether an update may change each variable (in `variables`' order) under `trainOnly` (rl/config.ts): all, or only the relation path and the value head. */
  trainable(trainOnly: TrainOnly | undefined): boolean[] {
    return weightPlan(this.config).map(({ name }) => trainOnly === undefined || name === 'score/relation_kernel' || name.startsWith('value/'));
  }

  private w(name: string): tf.Tensor {
    return this.byName.get(name) as tf.Variable;
  }

  /** Forward pass; call inside tf.tidy (or dispose the outputs). */
  forward(inputs: NetworkInputs): NetworkOutput {
    const { states, actions, mask } = inputs;
    const [N, K] = mask.shape;
    const H = this.config.hidden;
    const k = (name: string) => this.w(name) as tf.Tensor2D;
    const b = (name: string) => this.w(name) as tf.Tensor1D;
    const input = (x: tf.Tensor2D | SparseRows, xT: tf.Tensor2D | undefined, kernel: string, bias: string, activation: 'relu' | 'linear') =>
      isSparse(x) ? sparseInputDense(x, k(kernel), b(bias), activation) : inputDense(x, xT, k(kernel), b(bias), activation);
    const hs = input(states, inputs.statesT, 'state/kernel', 'state/bias', 'relu');
    const us = hiddenDense(hs, k('join/state_kernel'), b('join/bias'), 'linear');
    const ua = input(actions, inputs.actionsT, 'join/action_kernel', 'join/action_bias', 'linear');
    const z1 = tf.reshape(tf.relu(tf.add(tf.reshape(ua, [N, K, H]), tf.expandDims(us, 1))), [N * K, H]) as tf.Tensor2D;
    const z2 = hiddenDense(z1, k('score/hidden_kernel'), b('score/hidden_bias'), 'relu');
    const R = this.config.relationPrior.length;
    // The relation features also reach the logit through one linear map (a learned skip path).
    const relations = inputs.relations ?? (isSparse(actions) ? null : tf.slice(actions, [0, this.config.actionWidth - R], [N * K, R]));
    if (!relations) throw new RangeError('sparse action rows need their relation columns packed apart (inputs.relations)');
    const scores = tf.add(hiddenDense(z2, k('score/kernel'), b('score/bias'), 'linear'), tf.matMul(relations, k('score/relation_kernel')));
    const raw = tf.reshape(scores, [N, K]) as tf.Tensor2D;
    // Masked entries get −1e9: exp underflows to exactly 0, so they carry no probability and no gradient.
    const logits = tf.add(tf.mul(raw, mask), tf.mul(tf.sub(1, mask), MASKED)) as tf.Tensor2D;
    const logProbs = tf.logSoftmax(logits) as tf.Tensor2D;
    const vh = hiddenDense(hs, k('value/hidden_kernel'), b('value/hidden_bias'), 'relu');
    const values = tf.reshape(hiddenDense(vh, k('value/kernel'), b('value/bias'), 'linear'), [N]) as tf.Tensor1D;
    return { logits, logProbs, values };
  }

  async getWeights(): Promise<NamedWeights[]> {
    const plans = weightPlan(this.config);
    return Promise.all(
      plans.map(async (plan, i) => ({ name: plan.name, shape: plan.shape, data: new Float32Array(await (this.variables[i] as tf.Variable).data<'float32'>()) })),
    );
  }

  setWeights(weights: readonly NamedWeights[]): void {
    const plans = weightPlan(this.config);
    if (weights.length !== plans.length) throw new RangeError(`expected ${plans.length} weights, got ${weights.length}`);
    plans.forEach((plan, i) => {
      const w = weights[i] as NamedWeights;
      if (w.name !== plan.name || w.shape.join('x') !== plan.shape.join('x')) {
        throw new RangeError(`weight ${i} is ${w.name} [${w.shape}], expected ${plan.name} [${plan.shape}]`);
      }
      tf.tidy(() => (this.variables[i] as tf.Variable).assign(tf.tensor(w.data, plan.shape)));
    });
  }

  /** A frozen copy (GRPO's reference policy), sharing nothing with this network. */
  clone(): PolicyNetwork {
    const copy = new PolicyNetwork(this.config, 0);
    copy.variables.forEach((v, i) => v.assign(this.variables[i] as tf.Variable));
    return copy;
  }

  dispose(): void {
    for (const v of this.variables) v.dispose();
  }
}

let nextId = 0;

/**
 * A name no live variable of the engine holds: tfjs refuses a second variable of a name, and the
 * engine is global (one per page or process) while this counter is one per copy of this module (a
 * page that loads it twice, a test runner that evaluates it again in one process).
 */
function freeVariableName(base: string): string {
  const taken = tf.engine().registeredVariables;
  let name: string;
  do name = `${base}_${nextId++}`;
  while (name in taken);
  return name;
}

/**
 * Multiply-adds of one forward pass counted as 2 FLOPs each, matmuls only (the rest is O(N·K·H)).
 * A backward pass computes each weight gradient (same cost again) and each input gradient except
 * for the raw inputs, which need none.
 */
export function updateFlops(config: NetworkConfig, samples: number, maxActions: number): { forward: number; update: number } {
  const { stateWidth: S, actionWidth: A, hidden: H } = config;
  const N = samples;
  const NK = samples * maxActions;
  const input = 2 * N * S * H + 2 * NK * A * H;
  const hidden = 2 * N * H * H /* join/state */ + 2 * NK * H * H /* score hidden */ + 2 * NK * H /* score */ + 2 * N * H * H + 2 * N * H;
  const forward = input + hidden;
  // backward: weight grads for everything (input + hidden), input grads for hidden layers only.
  const backward = input + 2 * hidden;
  return { forward, update: forward + backward };
}
