/// <reference lib="webworker" />
// Thin entry point: the policy trains here (tfjs on webgpu, wasm or cpu), off the page's thread.
// A dream's neural model predicts here and on nested workers (prediction.worker.ts), one per core
// to spare (src/jobs/prediction-worker-count.ts).
import { expose } from 'comlink';
import type { PredictionWorker } from '../src/experience/neural/prediction-pool.ts';
import { defaultPredictionWorkers } from '../src/jobs/prediction-worker-count.ts';
import { TrainerService } from '../src/services/trainer-service.ts';

function spawnPredictionWorker(): PredictionWorker {
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

expose(new TrainerService({ predictionWorkers: { count: defaultPredictionWorkers(self.navigator.hardwareConcurrency || 1), spawn: spawnPredictionWorker } }));
