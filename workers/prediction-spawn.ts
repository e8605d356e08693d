/**
 * How a worker of the app starts one prediction worker (prediction.worker.ts) for a dream's
 * prediction pool (src/experience/neural/prediction-pool.ts): a nested module Web Worker.
 */
import type { PredictionWorker } from '../src/experience/neural/prediction-pool.ts';

export function spawnWebPredictionWorker(): PredictionWorker {
  const worker = new Worker(new URL('./prediction.worker.ts', import.meta.url), { type: 'module', name: 'prediction' });
  return {
    port: { post: (message) => worker.postMessage(message), onMessage: (handle) => worker.addEventListener('message', (event) => handle(event.data)) },
    onStop: (handle) => {
      worker.addEventListener('error', (event) => handle(event.message || 'its script failed to load or threw'));
      worker.addEventListener('messageerror', () => handle('a message from it could not be read'));
    },
    terminate: () => worker.terminate(),
  };
}
