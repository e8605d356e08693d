/**
 * The page's handle on the trainer worker (tfjs training, policy export, and the Evaluate view's
 * import-and-play). One worker per page, shared by the Train and Evaluate views and started on
 * first use. `Remote<TrainerService>` has the same methods as the in-process class, returning
 * promises.
 */
import { wrap, type Remote } from 'comlink';
import type { TrainerService } from '../runtime/trainer-service.ts';

export type TrainerClient = Remote<TrainerService>;

const crashListeners = new Set<(message: string) => void>();
let client: TrainerClient | null = null;
let crashed: string | null = null;

/**
 * Hear about a worker that failed to load or died: comlink calls to it would otherwise wait
 * forever, so each view tells the person to reload. Returns a function that stops listening.
 */
export function onTrainerCrash(listener: (message: string) => void): () => void {
  crashListeners.add(listener);
  if (crashed) listener(crashed);
  return () => crashListeners.delete(listener);
}

/** The shared trainer worker, started on first use. Throws (with the reason) once it has crashed. */
export function trainerClient(): TrainerClient {
  if (crashed) throw new Error(crashed);
  if (client) return client;
  const worker = new Worker(new URL('../../workers/trainer.worker.ts', import.meta.url), { type: 'module', name: 'trainer' });
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    crashed = `The trainer worker stopped (${event.message || 'it failed to load'}). Reload the page to start it again.`;
    for (const listener of crashListeners) listener(crashed);
  });
  client = wrap<TrainerService>(worker);
  return client;
}
