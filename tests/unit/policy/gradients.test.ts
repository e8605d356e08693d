import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend, tf } from '../../../src/platform/tf.ts';
import { PolicyNetwork, weightPlan, type NetworkConfig } from '../../../src/policy/network.ts';
import { Rng } from '../../../src/core/rng.ts';

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
