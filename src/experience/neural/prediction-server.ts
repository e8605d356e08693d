/**
 * A prediction worker's side of a prediction pool (prediction-pool.ts): it loads the pool's model
 * from its file's bytes and predicts the shards it is sent. The same code serves a Node worker
 * thread (jobs/prediction-worker.node.ts) and a browser Web Worker (workers/prediction.worker.ts);
 * each lends it a `PredictionPort`.
 */
import { errorMessage } from '../../core/errors.ts';
import { useBackend, type BackendName } from '../../platform/tf.ts';
import type { ExperienceStats } from '../types.ts';
import type { NeuralExperienceModel } from './model.ts';
import { importNeuralModelFor } from './model-io.ts';
import { WireDecoder, type WireInput } from './prediction-wire.ts';

/** One end of the channel between a pool and a worker: a Node MessagePort or a Web Worker's scope. */
export interface PredictionPort {
  post(message: unknown): void;
  onMessage(handle: (message: unknown) => void): void;
}

export type ToWorker =
  | { type: 'load'; bytes: Uint8Array; env: string; backend: BackendName }
  | { type: 'predict'; call: number; inputs: WireInput[]; seeds?: readonly number[] };

export type FromWorker =
  | { type: 'loaded' }
  | { type: 'predicted'; call: number; predictions: unknown[]; stats: ExperienceStats }
  | { type: 'failed'; call: number | null; message: string };

/** Serve the pool on `port` until the worker is ended: one model, loaded by the first message. */
export function servePredictions(port: PredictionPort): void {
  let model: NeuralExperienceModel | null = null;
  const decoder = new WireDecoder();
  // One message at a time, in order: the decoder's table must see the messages as they were written.
  let queue = Promise.resolve();
  port.onMessage((message) => {
    queue = queue.then(() => handle(message as ToWorker));
  });

  async function handle(message: ToWorker): Promise<void> {
    const call = message.type === 'predict' ? message.call : null;
    try {
      if (message.type === 'load') {
        // The pool's backend and no other: another computes in other float rounding, and a shard
        // must be predicted as it would be predicted whole. Where it cannot start, the worker is left out.
        await useBackend([message.backend]);
        model?.dispose();
        model = importNeuralModelFor(message.bytes, message.env).model;
        port.post({ type: 'loaded' } satisfies FromWorker);
        return;
      }
      if (!model) throw new Error('asked to predict before a model was loaded');
      const inputs = decoder.decode(message.inputs);
      const predictions = await model.predict(inputs, message.seeds ? { seeds: message.seeds } : {});
      port.post({ type: 'predicted', call: message.call, predictions, stats: model.stats() } satisfies FromWorker);
    } catch (error) {
      port.post({ type: 'failed', call, message: errorMessage(error) } satisfies FromWorker);
    }
  }
}
