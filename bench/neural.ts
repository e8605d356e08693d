/**
 * `npm run bench -- neural [--transitions 5000] [--epochs 6] [--fits 3] [--batches 20]`: the neural
 * experience model's cost on this machine, on the wasm backend (what the CLI uses):
 * - fitting with the default config on N real shop transitions (seeded train-split episodes,
 *   expert + noisy expert + random), wall seconds for the whole fit (retrieval, candidates, epochs),
 *   the median of `fits` identical fits (one fit's time moves by a tenth between runs here);
 * - batched prediction at batch 32 on held-out transitions: transitions/s, the median over batches.
 */
import { fitNeuralModel } from '../src/experience/neural/fit.ts';
import { DEFAULT_FIT } from '../src/experience/neural/fit-settings.ts';
import { useBackend } from '../src/platform/tf.ts';
import { median } from './stats.ts';
import { PREDICT_BATCH, predictRates, seededShopBuffer } from './shop-data.ts';

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}


export async function neuralBench(args: string[]): Promise<unknown> {
  const wanted = option(args, 'transitions', 5000);
  const epochs = option(args, 'epochs', DEFAULT_FIT.epochs);
  const batches = option(args, 'batches', 20);
  const fits = Math.max(1, option(args, 'fits', 3));
  const backend = await useBackend(['wasm']);
  const { buffer, transitions } = await seededShopBuffer(wanted);

  const seconds: number[] = [];
  let fit = null;
  for (let i = 0; i < fits; i++) {
    fit?.model.dispose();
    const fitStarted = performance.now();
    fit = await fitNeuralModel({ buffer, env: 'shop', epochs, maxTransitions: wanted });
    seconds.push(Number(((performance.now() - fitStarted) / 1000).toFixed(1)));
  }
  if (!fit) throw new Error('no fit ran');

  const rates = await predictRates(fit.model, buffer, batches);
  fit.model.dispose();
  return {
    backend,
    fit: { env: 'shop', realTransitions: transitions, epochs, config: 'default', seconds: median(seconds), eachFitSeconds: seconds, rows: fit.rows },
    predict: { batch: PREDICT_BATCH, batches: rates.length, medianTransitionsPerSecond: Math.round(median(rates)), note: 'retrieval excluded; candidates, three heads and assembly included' },
  };
}
