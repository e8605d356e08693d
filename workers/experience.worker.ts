/// <reference lib="webworker" />
// Thin entry point: the Experience view's real environment, retrieval over the replay store, the
// neural experience model (fitted here with tfjs: webgpu, then wasm, then cpu; kept in IndexedDB)
// and the kNN and HTTP experience models run here, off the page's thread. (WebLLM has its own worker.)
import { expose } from 'comlink';
import { ExperienceService } from '../src/services/experience-service.ts';

expose(new ExperienceService());
