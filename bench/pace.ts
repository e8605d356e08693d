/**
 * `npm run bench -- pace [--transitions 5000] [--epochs 6] [--batches 20] [--repeats 5] [--warmup 10] [--workers N] [--model FILE] [--profile FILE]`:
 * does the neural experience model keep the policy's pace? A dream step is one prediction per lane,
 * so a dream (and pretraining on one) runs no faster than the slower of the two. In one run, on the
 * wasm backend, on shop:
 * - prediction at batch 32 on held-out transitions posed as `bench neural` poses them (retrieval
 *   excluded): transitions/s, the median over the batches of one pass; each pass has batches of its
 *   own, as each step of a dream is new (`bench neural` times its batches once, after the fit);
 * - the policy's rollout, as `bench policy` measures it: env steps/s of 32 lockstep lanes;
 * - prediction as a dream runs it: the same model in a prediction pool (experience/neural/
 *   prediction-pool.ts) of `--workers` worker threads beside this one (default: as many as a dream
 *   starts here, prediction-worker-count.ts), and the pool's gain over this thread alone;
 * - the three alternated, pass after pass, so that load from other work on the machine falls on all
 *   alike; the medians over the repeats, the pool's ratio to the rollout (the figure the bar reads),
 *   and the median of each repeat's own ratio. `--warmup` untimed passes of each come first: a
 *   worker starts with empty memos and fills them as a dream goes on, over its first few thousand
 *   predictions, and a dream makes tens of thousands.
 * The model is fitted here with the default config (`bench neural`'s fit: the same weights), or read
 * from `--model`, a .dgx fitted on shop (quicker, but no fit has filled the example memos first, so
 * its prediction reads slower than after a fit). Digests of the fitted weights and of every prediction, as
 * `bench neural` prints them: two versions whose digests agree fit and predict the same model, so a
 * speed change that keeps them changed no fidelity figure. The pool's predictions, likeliest and
 * sampled, are checked against this thread's alone (`poolAgrees`).
 *
 * `--profile FILE`: after the timed passes, one more prediction pass, of batches drawn with another
 * seed, runs under V8's sampling profiler, which writes FILE (a .cpuprofile for Chrome's DevTools); where its time
 * went (each function's share, by name and file) is added as `profile`. The timed figures are not
 * watched by the profiler.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { UsageError } from '../src/core/errors.ts';
import { fitNeuralModel } from '../src/experience/neural/fit.ts';
import { DEFAULT_FIT } from '../src/experience/neural/fit-settings.ts';
import type { NeuralExperienceModel } from '../src/experience/neural/model.ts';
import { ModelFileError } from '../src/experience/neural/model-file.ts';
import { exportNeuralModel, importNeuralModelFor } from '../src/experience/neural/model-io.ts';
import { PredictionPool } from '../src/experience/neural/prediction-pool.ts';
import { nodePredictionWorkers } from '../src/jobs/node-prediction-workers.ts';
import { defaultPredictionWorkers } from '../src/jobs/prediction-worker-count.ts';
import { Rng } from '../src/core/rng.ts';
import { availableParallelism } from 'node:os';
import { useBackend } from '../src/platform/tf.ts';
import { weightsDigest } from './neural.ts';
import { benchOptions } from './options.ts';
import { shopRollout } from './policy.ts';
import { PREDICT_BATCH, predictBatches, seededShopBuffer, timePredictions } from './shop-data.ts';
import { median } from './stats.ts';
import { profiled } from './cpu-profile.ts';

export async function paceBench(args: string[]): Promise<unknown> {
  const options = benchOptions(args, { transitions: 5000, epochs: DEFAULT_FIT.epochs, batches: 20, repeats: 5, warmup: 10, workers: defaultPredictionWorkers(availableParallelism()), model: '', profile: '' });
  const repeats = Math.max(1, Math.floor(options.repeats));
  const warmup = Math.max(1, Math.floor(options.warmup));
  const workers = Math.max(0, Math.floor(options.workers));
  const backend = await useBackend(['wasm']);
  const { buffer, transitions } = await seededShopBuffer(options.transitions);
  const { model, fitSeconds, weightsSha256 } = await shopModel(options.model, buffer, options.transitions, options.epochs);
  const bytes = await exportNeuralModel(model, { backend, training: {}, evaluation: null, createdAt: new Date(0).toISOString() });
  const workersLost: string[] = [];
  const pool = new PredictionPool(importNeuralModelFor(bytes, 'shop').model, bytes, nodePredictionWorkers({ count: workers, onWorkerLost: (reason) => workersLost.push(reason) }));
  await pool.ready();
  const batches = Math.max(1, Math.floor(options.batches));
  // Each pass predicts batches of its own, never posed before: a dream never asks the same
  // question twice, and the model's memos must not make a repeat look faster than a new step.
  const passes = warmup + repeats;
  const posed = await predictBatches(buffer, 2 * batches * passes);
  if (posed.length < 2 * batches * passes) throw new UsageError(`--batches ${batches} × 2 × (--warmup ${warmup} + --repeats ${repeats}) batches of ${PREDICT_BATCH} need more held-out shop transitions than the bench makes; ask for fewer`);
  // Profiled, a pass of its own: episodes drawn with another seed, so the timed passes and their digest are an unprofiled run's.
  const profiledPass = options.profile === '' ? [] : await predictBatches(buffer, batches, 2);
  const pass = (r: number, which: 'alone' | 'pool') => posed.slice((2 * r + (which === 'pool' ? 1 : 0)) * batches, (2 * r + (which === 'pool' ? 1 : 0) + 1) * batches);
  const rollout = shopRollout();

  // Warm-up, untimed: kernels compiled and the workers' memos filled, as in a long dream.
  for (let r = 0; r < warmup; r++) {
    await timePredictions(model, pass(r, 'alone'));
    await timePredictions(pool, pass(r, 'pool'));
    await rollout.collect();
  }
  const aloneRates: number[] = [];
  const poolRates: number[] = [];
  const rolloutRates: number[] = [];
  let rolloutSteps = 0;
  for (let r = warmup; r < passes; r++) {
    aloneRates.push(median(await timePredictions(model, pass(r, 'alone'))));
    poolRates.push(median(await timePredictions(pool, pass(r, 'pool'))));
    const started = performance.now();
    const collected = await rollout.collect();
    rolloutSteps = collected.steps;
    rolloutRates.push(collected.steps / ((performance.now() - started) / 1000));
  }
  const profile = options.profile === '' ? undefined : (await profiled(options.profile, () => timePredictions(model, profiledPass))).shares;
  // Digested after the timing, as `bench neural` digests its predictions: this thread's alone, then
  // the pool's of the same batches, likeliest and sampled from equal seeds.
  const predictionsSha256 = createHash('sha256');
  const agrees = { likeliest: true, sampled: true };
  const aloneDraws = new Rng('pace');
  const poolDraws = new Rng('pace');
  for (const inputs of posed) {
    const alone = JSON.stringify(await model.predict(inputs));
    predictionsSha256.update(alone);
    agrees.likeliest &&= alone === JSON.stringify(await pool.predict(inputs));
    agrees.sampled &&= JSON.stringify(await model.predict(inputs, { random: () => aloneDraws.next() })) === JSON.stringify(await pool.predict(inputs, { random: () => poolDraws.next() }));
  }
  const workersAtEnd = pool.workerCount;
  model.dispose();
  pool.dispose();
  rollout.policy.dispose();

  const alone = median(aloneRates);
  const pooled = median(poolRates);
  const steps = median(rolloutRates);
  const round = (x: number, d = 2) => Number(x.toFixed(d));
  return {
    backend,
    model: options.model === '' ? { fitted: 'here', env: 'shop', realTransitions: transitions, epochs: options.epochs, config: 'default', fitSeconds, weightsSha256 } : { file: options.model },
    predict: {
      batch: PREDICT_BATCH,
      batchesPerRepeat: batches,
      warmupPasses: warmup,
      alone: { transitionsPerSecMedian: Math.round(alone), eachRepeat: aloneRates.map((x) => Math.round(x)) },
      pool: { workers, workersAtEnd, workersLost, transitionsPerSecMedian: Math.round(pooled), eachRepeat: poolRates.map((x) => Math.round(x)), gainOverAlone: round(pooled / alone) },
      predictionsSha256: predictionsSha256.digest('hex'),
      poolAgrees: agrees,
    },
    rollout: { lanes: rollout.lanes, steps: rolloutSteps, stepsPerSecMedian: Math.round(steps), eachRepeat: rolloutRates.map((x) => Math.round(x)) },
    repeats,
    ratio: round(pooled / steps),
    medianOfRepeatRatios: round(median(poolRates.map((p, i) => p / (rolloutRates[i] as number)))),
    ratioAlone: round(alone / steps),
    note: 'ratio: the pool\'s prediction transitions/s over rollout steps/s (≥ 1: the model keeps the policy\'s pace); ratioAlone: this thread\'s alone; the three alternate, one pass each per repeat, after --warmup untimed passes of each; every prediction pass has its own held-out batches',
    ...(profile ? { profile: { file: options.profile, note: 'one more prediction pass on this thread alone, of batches drawn with another seed, under the sampling profiler: each function\'s share of its samples, inclusive and self', ...profile } } : {}),
  };
}

/** The model the bench times: read from `file`, or fitted with the default config on the buffer. */
async function shopModel(file: string, buffer: Awaited<ReturnType<typeof seededShopBuffer>>['buffer'], transitions: number, epochs: number): Promise<{ model: NeuralExperienceModel; fitSeconds?: number; weightsSha256?: string }> {
  if (file !== '') {
    const bytes = await readFile(file).catch((error: unknown) => {
      throw new UsageError(`--model ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)}); give a .dgx fitted on shop, or leave --model out to fit one here`);
    });
    try {
      return { model: importNeuralModelFor(new Uint8Array(bytes), 'shop').model };
    } catch (error) {
      if (!(error instanceof ModelFileError)) throw error;
      throw new UsageError(`--model ${file}: ${error.message}`);
    }
  }
  const started = performance.now();
  const fit = await fitNeuralModel({ buffer, env: 'shop', epochs, maxTransitions: transitions });
  const fitSeconds = Number(((performance.now() - started) / 1000).toFixed(1));
  return { model: fit.model, fitSeconds, weightsSha256: await weightsDigest(fit.model.network) };
}
