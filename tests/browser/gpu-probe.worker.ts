/// <reference lib="webworker" />
// A worker that reports what WebGPU it sees, so the test can compare page and worker.
import { expose } from 'comlink';
import { probeWebGpu } from '../../src/platform/gpu.ts';

expose({ probeWebGpu });
