/**
 * `npm run bench -- neural [--transitions 5000] [--epochs 6] [--batches 20]`: the neural experience
 * model's cost on this machine, on the wasm backend (what the CLI uses):
 * - fitting with the default config on N real shop transitions (seeded train-split episodes,
 *   expert + noisy expert + random), wall seconds for the whole fit (retrieval, candidates, epochs);
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
  const backend = await useBackend(['wasm']);
  const { buffer, transitions } = await seededShopBuffer(wanted);

  const fitStarted = performance.now();
  const fit = await fitNeuralModel({ buffer, env: 'shop', epochs, maxTransitions: wanted });
  const fitSeconds = (performance.now() - fitStarted) / 1000;

  const rates = await predictRates(fit.model, buffer, batches);
  fit.model.dispose();
  return {
    backend,
    fit: { env: 'shop', realTransitions: transitions, epochs, config: 'default', seconds: Number(fitSeconds.toFixed(1)), rows: fit.rows },
    predict: { batch: PREDICT_BATCH, batches: rates.length, medianTransitionsPerSecond: Math.round(median(rates)), note: 'retrieval excluded; candidates, three heads and assembly included' },
  };
}
