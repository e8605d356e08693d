import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend, tf } from '../../../src/platform/tf.ts';
import { PolicyNetwork, weightPlan, type NetworkConfig, type NetworkInputs } from '../../../src/policy/network.ts';
import { Rng } from '../../../src/core/rng.ts';
import { sparseInputDense } from '../../../src/platform/dense.ts';
import { batchTensors, DEFAULT_POLICY, forceInputLayout, Policy } from '../../../src/policy/policy.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { collectTrajectories } from '../../../src/rl/rollout.ts';
import type { UpdateSample } from '../../../src/rl/update.ts';

// A tiny network, dense random inputs (not just sparse bags) so every path carries signal.
const config: NetworkConfig = { stateWidth: 7, actionWidth: 6, hidden: 5, inputInitStd: 0.5, relationPrior: [0.3, -0.2] };
const N = 3;
const uniform = (rng: Rng, lo: number, hi: number) => lo + (hi - lo) * rng.next();
const K = 4;

function fixture() {
  const rng = new Rng('gradcheck');
  const rand = (n: number) => Float32Array.from({ length: n }, () => uniform(rng, -1, 1));
  const mask = Float32Array.from([1, 1, 1, 0, 1, 1, 0, 0, 1, 1, 1, 1]);
  const taken = [2, 0, 3];
  const weights = Float32Array.from({ length: N }, () => uniform(rng, 0.5, 1.5));
  return { states: rand(N * config.stateWidth), actions: rand(N * K * config.actionWidth), mask, taken, weights };
}

/** A scalar that touches the policy and the value head: Σ w_n·log π(a_n|s_n) + Σ V(s_n)² − entropy-ish term. */
function objective(net: PolicyNetwork, f: ReturnType<typeof fixture>, transposed: boolean): tf.Scalar {
  const states = tf.tensor2d(f.states, [N, config.stateWidth]);
  const actions = tf.tensor2d(f.actions, [N * K, config.actionWidth]);
  const out = net.forward({
    states,
    actions,
    mask: tf.tensor2d(f.mask, [N, K]),
    ...(transposed ? { statesT: tf.transpose(states), actionsT: tf.transpose(actions) } : {}),
  });
  const onehot = tf.oneHot(tf.tensor1d(f.taken, 'int32'), K);
  const chosen = tf.sum(tf.mul(out.logProbs, onehot), 1);
  const probs = tf.exp(out.logProbs);
  return tf.addN([tf.sum(tf.mul(chosen, tf.tensor1d(f.weights))), tf.sum(tf.square(out.values)), tf.mul(0.1, tf.sum(tf.mul(probs, out.logProbs)))]) as tf.Scalar;
}

describe('policy network gradients', () => {
  beforeAll(async () => {
    await useBackend(['cpu']);
  });

  it.each([false, true])('match central finite differences for every weight tensor (inputs transposed by caller: %s)', async (transposed) => {
    const net = new PolicyNetwork(config, 3);
    // Move every bias off zero so relu kinks and zero-gradient shortcuts are not what we test.
    const rng = new Rng('biases');
    net.variables.forEach((v) => v.assign(tf.add(v, tf.tensor(Float32Array.from({ length: v.size }, () => uniform(rng, -0.3, 0.3)), v.shape))));
    const f = fixture();
    const { grads } = tf.variableGrads(() => objective(net, f, transposed), net.variables);
    const plan = weightPlan(config);
    const eps = 1e-2;
    let checked = 0;
    for (const [i, variable] of net.variables.entries()) {
      const analytic = await (grads[variable.name] as tf.Tensor).data();
      const values = await variable.data();
      // Three entries per tensor (all of them for small ones).
      const picks = values.length <= 3 ? [...values.keys()] : [0, Math.floor(values.length / 2), values.length - 1];
      for (const j of picks) {
        const at = (delta: number) => {
          const copy = Float32Array.from(values);
          copy[j] = (copy[j] as number) + delta;
          variable.assign(tf.tensor(copy, variable.shape));
          const y = tf.tidy(() => objective(net, f, transposed).dataSync()[0] as number);
          variable.assign(tf.tensor(values, variable.shape));
          return y;
        };
        const numeric = (at(eps) - at(-eps)) / (2 * eps);
        const a = analytic[j] as number;
        expect(Math.abs(a - numeric), `${plan[i]?.name}[${j}]: analytic ${a}, numeric ${numeric}`).toBeLessThan(2e-3 + 2e-2 * Math.abs(numeric));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
    // The check would be vacuous if gradients were all zero.
    const norms = await Promise.all(Object.values(grads).map(async (g) => Math.max(...(await g.data()).map(Math.abs))));
    expect(norms.filter((n) => n > 1e-4).length).toBeGreaterThanOrEqual(plan.length - 1);
    net.dispose();
  });
});

describe('sparse input rows on the host (the CPU-side backends)', () => {
  beforeAll(async () => {
    await useBackend(['cpu']);
  });

  /** Real shop steps, featurized as the policy reads them: sparse bags with their relation columns. */
  async function shopFeatures(policy: Policy, count: number): Promise<UpdateSample[]> {
    const spec = envSpec('shop');
    const rng = new Rng('sparse-rows');
    const tasks = Array.from({ length: 6 }, () => rng.pick(spec.tasks('train')));
    const { trajectories } = await collectTrajectories({ envs: [spec.createEnv(), spec.createEnv()], tasks, policy, greedy: false, rng });
    const steps = trajectories.flatMap((t) => t.steps).slice(0, count);
    return steps.map((s, i) => ({ features: s.features, actionIndex: s.actionIndex, oldLogProb: s.logProb, advantage: (i % 3) - 1, returnTarget: i % 2, oldValue: 0, referenceLogProb: s.logProb }));
  }

  it('computes the same outputs and gradients as the dense matmul with the same weights', async () => {
    const policy = new Policy(DEFAULT_POLICY, 7);
    const samples = await shopFeatures(policy, 24);
    expect(samples.length).toBe(24);
    const features = samples.map((s) => s.features);
    // The dense layout a GPU backend takes, forced here on cpu; the policy's own batches are sparse rows.
    forceInputLayout('dense');
    const dense = (() => {
      try {
        return batchTensors(features, DEFAULT_POLICY.featurizer, { transposed: true });
      } finally {
        forceInputLayout(null);
      }
    })();
    expect(dense.states).toBeInstanceOf(tf.Tensor);
    const sparse = batchTensors(features, DEFAULT_POLICY.featurizer, { transposed: true });
    expect(sparse.states).not.toBeInstanceOf(tf.Tensor);
    const objective = (inputs: NetworkInputs) => () => {
      const out = policy.network.forward(inputs);
      const onehot = tf.oneHot(tf.tensor1d(samples.map((s) => s.actionIndex), 'int32'), sparse.maxActions);
      return tf.add(tf.sum(tf.mul(out.logProbs, onehot)), tf.sum(tf.square(out.values))) as tf.Scalar;
    };
    const a = tf.variableGrads(objective(dense), policy.network.variables);
    const b = tf.variableGrads(objective(sparse), policy.network.variables);
    expect(Math.abs(a.value.dataSync()[0] as number)).toBeGreaterThan(1);
    expect(b.value.dataSync()[0]).toBeCloseTo(a.value.dataSync()[0] as number, 3);
    for (const v of policy.network.variables) {
      const da = (a.grads[v.name] as tf.Tensor).dataSync();
      const db = (b.grads[v.name] as tf.Tensor).dataSync();
      let scale = 1e-6;
      let worst = 0;
      da.forEach((x, i) => {
        scale = Math.max(scale, Math.abs(x));
        worst = Math.max(worst, Math.abs(x - (db[i] as number)));
      });
      // Relative to the tensor's largest entry; the logit bias's true gradient is 0 (a softmax does
      // not see a shift), so both sides are rounding noise there and only the absolute term holds.
      expect(worst, v.name).toBeLessThan(1e-6 + 1e-5 * scale);
    }
    // The input layers' gradients are not all zero (the comparison above would hold vacuously).
    const actionKernel = (b.grads[policy.network.variables[4]!.name] as tf.Tensor).dataSync() as Float32Array;
    expect(actionKernel.reduce((m: number, x: number) => Math.max(m, Math.abs(x)), 0)).toBeGreaterThan(1e-4);
    policy.dispose();
  });

  it('names a kernel of the wrong width instead of reading past it', () => {
    const rows = { rows: 1, width: 5, offsets: Int32Array.from([0, 1]), columns: Int32Array.from([4]), values: Float32Array.from([1]) };
    expect(() => sparseInputDense(rows, tf.zeros([4, 3]) as tf.Tensor2D, tf.zeros([3]) as tf.Tensor1D, 'linear')).toThrow(/5 wide, the kernel takes 4/);
  });
});
