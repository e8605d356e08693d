/**
 * A dream's prediction pool in real Chromium, as the app's trainer worker holds it: a worker whose
 * prediction workers are nested Web Workers, started by the app's own spawner. The pool must start
 * them, load the model in each, and predict what the model alone predicts, likeliest and sampled.
 */
import { wrap } from 'comlink';
import { afterAll, describe, expect, it } from 'vitest';
import type { PredictionPoolTestService } from './fixtures/prediction-pool.worker.ts';

const workers: Worker[] = [];
afterAll(() => {
  for (const w of workers.splice(0)) w.terminate();
});

describe('the prediction pool in a worker (real Chromium)', () => {
  it('starts nested prediction workers and predicts what the model alone predicts', async () => {
    const worker = new Worker(new URL('./fixtures/prediction-pool.worker.ts', import.meta.url), { type: 'module' });
    workers.push(worker);
    const service = wrap<PredictionPoolTestService>(worker);
    const result = await service.compare(2);
    expect(result).toEqual({ backend: 'wasm', workers: 2, lost: [], inputs: 24, likeliest: true, sampled: true });
  }, 180_000);
});
