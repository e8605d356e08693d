/**
 * The policy's speed on one backend (default wasm, as the CLI uses):
 *  - matmul GFLOP/s of the backend itself (square 1024³, and the update's own largest shape), and
 *    of the weight gradient of that shape computed as tfjs's built-in gradient does (xᵀ·dy with
 *    transposeA) against the plain matmul on a pre-transposed x that src/platform/dense.ts uses;
 *  - one PPO update step on a real minibatch (256 shop steps), as the backend runs it (sparse input
 *    rows on wasm and cpu) and with dense input matmuls (as a GPU backend runs it): samples/s of
 *    both, their ratio, and the GFLOP/s the dense one achieves, counted from the network's matmuls
 *    (network.ts updateFlops);
 *  - rollout throughput: env steps/s of 32 lockstep shop episodes with sampled actions.
 * Medians over repeats, all measured in this one run, and the ratio dense update / matmul.
 */
import { Rng } from '../src/core/rng.ts';
import { envSpec } from '../src/envs/registry.ts';
import { updateFlops } from '../src/policy/network.ts';
import { DEFAULT_POLICY, forceInputLayout, inputLayout, networkConfig, Policy } from '../src/policy/policy.ts';
import { Adam } from '../src/rl/adam.ts';
import { DEFAULT_PPO } from '../src/rl/config.ts';
import { collectTrajectories, type Collected } from '../src/rl/rollout.ts';
import { ppoSamples } from '../src/rl/samples.ts';
import { optimize } from '../src/rl/update.ts';
import { parseBackend, tf, useBackend } from '../src/platform/tf.ts';
import { median } from './stats.ts';
import { benchOptions } from './options.ts';

async function timeMs(repeats: number, run: () => Promise<void>): Promise<number[]> {
  await run(); // warm-up: kernels compiled, buffers allocated
  const times: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return times;
}

/** GFLOP/s of a·b for a [m, k] and b [k, n]; with `transposeA`, a is stored [k, m] and read transposed. */
async function matmulGflops(m: number, k: number, n: number, repeats: number, transposeA = false): Promise<number> {
  const a = tf.randomNormal(transposeA ? [k, m] : [m, k]) as tf.Tensor2D;
  const b = tf.randomNormal([k, n]) as tf.Tensor2D;
  const times = await timeMs(repeats, async () => {
    const c = tf.matMul(a, b, transposeA, false);
    await c.data();
    c.dispose();
  });
  a.dispose();
  b.dispose();
  return (2 * m * k * n) / (median(times) / 1000) / 1e9;
}

/**
 * The rollout this bench times, shared with the pace bench (bench/pace.ts): 32 lockstep shop
 * lanes of an untrained default policy with sampled actions, over 96 seeded train tasks.
 */
export function shopRollout(): { policy: Policy; rng: Rng; lanes: number; collect: () => Promise<Collected> } {
  const spec = envSpec('shop');
  const policy = new Policy(DEFAULT_POLICY, 1);
  const rng = new Rng('bench-policy');
  const tasks = Array.from({ length: 96 }, () => rng.pick(spec.tasks('train')));
  const lanes = 32;
  const envs = Array.from({ length: lanes }, () => spec.createEnv());
  return { policy, rng, lanes, collect: () => collectTrajectories({ envs, tasks, policy, greedy: false, rng }) };
}

export async function policyBench(argv: string[]): Promise<unknown> {
  const options = benchOptions(argv, { backend: 'wasm', repeats: 7, minibatch: 256 });
  const backend = await useBackend([parseBackend(options.backend)]);
  const { repeats, minibatch } = options;
  const { policy, rng, lanes, collect } = shopRollout();
  let collected = await collect();
  const rolloutTimes = await timeMs(repeats, async () => {
    collected = await collect();
  });
  const rolloutSteps = collected.steps;

  const samples = ppoSamples(collected.trajectories, DEFAULT_PPO).slice(0, minibatch);
  if (samples.length < minibatch) throw new Error(`only ${samples.length} samples collected, need ${minibatch}`);
  const maxActions = Math.max(...samples.map((s) => s.features.actions.length));
  const optimizer = new Adam(policy.network.variables);
  // One gradient step on one minibatch: a single epoch over exactly `minibatch` samples.
  const config = { ...DEFAULT_PPO, epochs: 1, minibatchSize: minibatch, targetKl: null };
  const update = () => timeMs(repeats, async () => {
    await optimize(policy, optimizer, samples, config, 1e-4, rng);
  });
  // The same update with the input layers as dense matmuls, as a GPU backend runs them (and as
  // every backend did before the CPU-side ones read sparse rows), for the ratio in one run.
  forceInputLayout('dense');
  const denseTimes = await update().finally(() => forceInputLayout(null));
  const updateTimes = await update();
  const layout = inputLayout();
  const net = networkConfig(DEFAULT_POLICY);
  const flops = updateFlops(net, minibatch, maxActions);
  const updateMs = median(updateTimes);
  const denseMs = median(denseTimes);
  // GFLOP/s only means something for the dense matmuls, which do the work the count assumes.
  const denseGflops = flops.update / (denseMs / 1000) / 1e9;

  const square = await matmulGflops(1024, 1024, 1024, repeats);
  const rows = minibatch * maxActions;
  const widest = await matmulGflops(rows, net.actionWidth, net.hidden, repeats);
  // The action layer's weight gradient: [A, rows]·[rows, H], built-in (transposeA) vs dense.ts.
  const gradientBuiltin = await matmulGflops(net.actionWidth, rows, net.hidden, repeats, true);
  const gradientPretransposed = await matmulGflops(net.actionWidth, rows, net.hidden, repeats);
  const matmulPeak = Math.max(square, widest);
  policy.dispose();
  optimizer.dispose();
  const round = (x: number, d = 2) => Number(x.toFixed(d));
  return {
    backend,
    network: { stateWidth: net.stateWidth, actionWidth: net.actionWidth, hidden: net.hidden },
    matmul: { square1024Gflops: round(square), updateShapeGflops: round(widest), shape: [rows, net.actionWidth, net.hidden] },
    weightGradient: {
      shape: [net.actionWidth, rows, net.hidden],
      transposeAGflops: round(gradientBuiltin),
      pretransposedGflops: round(gradientPretransposed),
      speedup: round(gradientPretransposed / gradientBuiltin, 1),
    },
    update: {
      minibatch,
      maxActions,
      inputLayout: layout,
      msMedian: round(updateMs, 1),
      samplesPerSec: Math.round(minibatch / (updateMs / 1000)),
      dense: {
        msMedian: round(denseMs, 1),
        samplesPerSec: Math.round(minibatch / (denseMs / 1000)),
        gflopPerUpdate: round(flops.update / 1e9, 3),
        gflops: round(denseGflops),
        fractionOfMatmul: round(denseGflops / matmulPeak, 3),
      },
      speedupOverDense: round(denseMs / updateMs),
    },
    rollout: { lanes, steps: rolloutSteps, stepsPerSecMedian: Math.round(rolloutSteps / (median(rolloutTimes) / 1000)), repeats },
  };
}
