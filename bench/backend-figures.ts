/**
 * The training figures of one tfjs backend, measured the same way in Node and in a browser worker
 * (`npm run bench -- browser` runs both): the policy's PPO update on a 256-step shop minibatch
 * (samples/s), lockstep rollouts of 32 shop episodes with sampled actions (steps/s), fitting the
 * neural experience model on real shop transitions (transitions/s, one epoch, featurising
 * included) and its batched prediction at batch 32 (transitions/s, retrieval excluded). Medians.
 * The caller has started the backend.
 */
import { Rng } from '../src/core/rng.ts';
import { envSpec } from '../src/envs/registry.ts';
import { fitNeuralModel } from '../src/experience/neural/fit.ts';
import { tf } from '../src/platform/tf.ts';
import { DEFAULT_POLICY, Policy } from '../src/policy/policy.ts';
import { Adam } from '../src/rl/adam.ts';
import { DEFAULT_PPO } from '../src/rl/config.ts';
import { collectTrajectories } from '../src/rl/rollout.ts';
import { ppoSamples } from '../src/rl/samples.ts';
import { optimize } from '../src/rl/update.ts';
import { predictRates, seededShopBuffer } from './shop-data.ts';
import { median } from './stats.ts';

export interface FigureOptions {
  /** Timed update repeats after a warm-up (default 5). */
  updates?: number;
  /** Real transitions the neural model is fitted on (default 600). */
  fitTransitions?: number;
  /** Prediction batches (default 10). */
  predictBatches?: number;
}

export interface BackendFigures {
  backend: string;
  updateSamplesPerSec: number;
  rolloutStepsPerSec: number;
  fitTransitionsPerSec: number;
  predictTransitionsPerSec: number;
  /** Live tfjs tensors before and after the whole measurement (equal: nothing leaked). */
  tensors: { before: number; after: number };
  /** Wall seconds the measurement took. */
  seconds: number;
}


const MINIBATCH = 256;

export async function measureBackendFigures(options: FigureOptions = {}): Promise<BackendFigures> {
  const started = performance.now();
  const tensorsBefore = tf.memory().numTensors;
  const spec = envSpec('shop');
  const rng = new Rng('backend-figures');
  const policy = new Policy(DEFAULT_POLICY, 1);
  const tasks = Array.from({ length: 64 }, () => rng.pick(spec.tasks('train')));
  const envs = Array.from({ length: 32 }, () => spec.createEnv());

  // Rollouts: 32 lanes, sampled actions; the first run warms up.
  let collected = await collectTrajectories({ envs, tasks, policy, greedy: false, rng });
  const rolloutRates: number[] = [];
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now();
    collected = await collectTrajectories({ envs, tasks, policy, greedy: false, rng });
    rolloutRates.push(collected.steps / ((performance.now() - t0) / 1000));
  }

  // One PPO gradient step on one 256-sample minibatch.
  const samples = ppoSamples(collected.trajectories, DEFAULT_PPO).slice(0, MINIBATCH);
  const optimizer = new Adam(policy.network.variables);
  const config = { ...DEFAULT_PPO, epochs: 1, minibatchSize: samples.length, targetKl: null };
  await optimize(policy, optimizer, samples, config, 1e-4, rng);
  const updateRates: number[] = [];
  for (let r = 0; r < (options.updates ?? 5); r++) {
    const t0 = performance.now();
    await optimize(policy, optimizer, samples, config, 1e-4, rng);
    updateRates.push(samples.length / ((performance.now() - t0) / 1000));
  }
  policy.dispose();
  optimizer.dispose();

  // The neural model: one epoch of fitting on real shop transitions, then batched prediction.
  const wanted = options.fitTransitions ?? 600;
  const { buffer, transitions } = await seededShopBuffer(wanted);
  const fitStarted = performance.now();
  const fit = await fitNeuralModel({ buffer, env: 'shop', epochs: 1, maxTransitions: wanted, validationShare: 0 });
  const fitRate = transitions / ((performance.now() - fitStarted) / 1000);
  // The first batch warms up.
  const predictRatesMeasured = await predictRates(fit.model, buffer, options.predictBatches ?? 10, 1);
  fit.model.dispose();

  return {
    backend: tf.getBackend(),
    updateSamplesPerSec: Math.round(median(updateRates)),
    rolloutStepsPerSec: Math.round(median(rolloutRates)),
    fitTransitionsPerSec: Math.round(fitRate),
    predictTransitionsPerSec: Math.round(median(predictRatesMeasured)),
    tensors: { before: tensorsBefore, after: tf.memory().numTensors },
    seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
  };
}
