/// <reference lib="webworker" />
// Thin entry point: the policy trains here (tfjs on webgpu, wasm or cpu), off the page's thread.
// A dream's neural model predicts here and on nested workers (prediction-spawn.ts), as many as the
// cores and the dream's length give (src/jobs/prediction-worker-count.ts).
import { expose } from 'comlink';
import { TrainerService } from '../src/services/trainer-service.ts';
import { spawnWebPredictionWorker } from './prediction-spawn.ts';

expose(new TrainerService({ predictionWorkers: { cores: self.navigator.hardwareConcurrency || 1, spawn: spawnWebPredictionWorker } }));
