/**
 * The page's handle on the replay worker (the Buffer view's store, seeding, import/export and
 * search). One worker per page, started on first use. `Remote<ReplayService>` has the same methods
 * as the in-process class, returning promises.
 */
import { wrap, type Remote } from 'comlink';
import type { ReplayService } from '../runtime/replay-service.ts';

export type ReplayClient = Remote<ReplayService>;

const crashListeners = new Set<(message: string) => void>();
let client: ReplayClient | null = null;
let crashed: string | null = null;

/**
 * Hear about a worker that failed to load or died: comlink calls to it would otherwise wait
 * forever, so the view tells the person to reload. Returns a function that stops listening.
 */
export function onReplayCrash(listener: (message: string) => void): () => void {
  crashListeners.add(listener);
  if (crashed) listener(crashed);
  return () => crashListeners.delete(listener);
}

/** The shared replay worker, started on first use. Throws (with the reason) once it has crashed. */
export function replayClient(): ReplayClient {
  if (crashed) throw new Error(crashed);
  if (client) return client;
  const worker = new Worker(new URL('../../workers/replay.worker.ts', import.meta.url), { type: 'module', name: 'replay' });
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    crashed = `The replay worker stopped (${event.message || 'it failed to load'}). Reload the page to start it again; everything already stored is kept.`;
    for (const listener of crashListeners) listener(crashed);
  });
  client = wrap<ReplayService>(worker);
  return client;
}
