/// <reference lib="webworker" />
// Thin entry point: one worker of a dream's prediction pool (src/experience/neural/prediction-pool.ts),
// started by the trainer worker (trainer.worker.ts); it predicts the batch shards it is sent.
import { servePredictions } from '../src/experience/neural/prediction-server.ts';

declare const self: DedicatedWorkerGlobalScope;

servePredictions({ post: (message) => self.postMessage(message), onMessage: (handle) => self.addEventListener('message', (event) => handle(event.data)) });
