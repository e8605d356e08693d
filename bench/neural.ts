/**
 * `npm run bench -- neural [--transitions 5000] [--epochs 6] [--fits 3] [--batches 20]`: the neural
 * experience model's cost on this machine, on the wasm backend (what the CLI uses):
 * - fitting with the default config on N real shop transitions (seeded train-split episodes,
 *   expert + noisy expert + random), wall seconds for the whole fit (retrieval, candidates, epochs),
 *   the median of `fits` identical fits (one fit's time moves by a tenth between runs here);
 * - batched prediction at batch 32 on held-out transitions: transitions/s, the median over batches;
 *   and the same batches again with their candidates already worked out (a CandidateCache filled by
 *   a first pass): what share of a prediction the candidates and their features are;
 * - digests of the first fit's weights and of every prediction: two commits whose digests agree fit
 *   and predict the same model, so a speed change that keeps them changed no fidelity figure.
 */
import { createHash } from 'node:crypto';
import { fitNeuralModel } from '../src/experience/neural/fit.ts';
import { DEFAULT_FIT } from '../src/experience/neural/fit-settings.ts';
import type { CandidateCache } from '../src/experience/neural/model.ts';
import { useBackend } from '../src/platform/tf.ts';
import { median } from './stats.ts';
import { PREDICT_BATCH, predictBatches, seededShopBuffer, timePredictions } from './shop-data.ts';
import { benchOptions } from './options.ts';



export async function neuralBench(args: string[]): Promise<unknown> {
  const options = benchOptions(args, { transitions: 5000, epochs: DEFAULT_FIT.epochs, batches: 20, fits: 3 });
  const { transitions: wanted, epochs, batches } = options;
  const fits = Math.max(1, options.fits);
  const backend = await useBackend(['wasm']);
  const { buffer, transitions } = await seededShopBuffer(wanted);

  const seconds: number[] = [];
  let fit = null;
  let weightsSha256 = '';
  for (let i = 0; i < fits; i++) {
    fit?.model.dispose();
    const fitStarted = performance.now();
    fit = await fitNeuralModel({ buffer, env: 'shop', epochs, maxTransitions: wanted });
    seconds.push(Number(((performance.now() - fitStarted) / 1000).toFixed(1)));
    if (i === 0) weightsSha256 = await weightsDigest(fit.model.network);
  }
  if (!fit) throw new Error('no fit ran');

  const posed = await predictBatches(buffer, batches);
  const rates = await timePredictions(fit.model, posed);
  const predictionsSha256 = createHash('sha256');
  for (const inputs of posed) predictionsSha256.update(JSON.stringify(await fit.model.predict(inputs)));
  const candidates: CandidateCache = new WeakMap();
  await timePredictions(fit.model, posed, 0, { candidates });
  const cachedRates = await timePredictions(fit.model, posed, 0, { candidates });
  fit.model.dispose();
  const perTransition = median(rates.map((r) => 1 / r));
  const withoutCandidates = median(cachedRates.map((r) => 1 / r));
  return {
    backend,
    fit: { env: 'shop', realTransitions: transitions, epochs, config: 'default', seconds: median(seconds), eachFitSeconds: seconds, rows: fit.rows, weightsSha256 },
    predict: {
      batch: PREDICT_BATCH,
      batches: rates.length,
      medianTransitionsPerSecond: Math.round(median(rates)),
      candidatesCachedTransitionsPerSecond: Math.round(median(cachedRates)),
      candidatesShare: Number((1 - withoutCandidates / perTransition).toFixed(2)),
      predictionsSha256: predictionsSha256.digest('hex'),
      note: 'retrieval excluded; candidates, three heads and assembly included; candidatesShare: the part of a prediction a filled CandidateCache removes',
    },
  };
}

/** sha256 over every weight of the network, in its plan's order. */
export async function weightsDigest(network: { getWeights(): Promise<{ name: string; data: Float32Array }[]> }): Promise<string> {
  const hash = createHash('sha256');
  for (const { name, data } of await network.getWeights()) hash.update(name).update(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  return hash.digest('hex');
}
