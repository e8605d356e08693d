/// <reference lib="webworker" />
// Thin entry point: the policy trains here (tfjs on webgpu, wasm or cpu), off the page's thread.
// A dream's neural model predicts here and on nested workers (prediction-spawn.ts), one per core
// to spare (src/jobs/prediction-worker-count.ts).
import { expose } from 'comlink';
import { defaultPredictionWorkers } from '../src/jobs/prediction-worker-count.ts';
import { TrainerService } from '../src/services/trainer-service.ts';
import { spawnWebPredictionWorker } from './prediction-spawn.ts';

expose(new TrainerService({ predictionWorkers: { count: defaultPredictionWorkers(self.navigator.hardwareConcurrency || 1), spawn: spawnWebPredictionWorker } }));
