/// <reference lib="webworker" />
// Thin entry point: the policy trains here (tfjs on webgpu, wasm or cpu), off the page's thread.
import { expose } from 'comlink';
import { TrainerService } from '../src/services/trainer-service.ts';

expose(new TrainerService());
