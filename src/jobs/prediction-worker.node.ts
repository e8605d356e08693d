/** A Node worker thread of a prediction pool (experience/neural/prediction-pool.ts): serves it on the parent's port. */
import { parentPort } from 'node:worker_threads';
import { servePredictions } from '../experience/neural/prediction-server.ts';

const port = parentPort;
if (!port) throw new Error('prediction-worker.node.ts runs as a worker thread of a prediction pool, not on its own');
servePredictions({ post: (message) => port.postMessage(message), onMessage: (handle) => port.on('message', handle) });
