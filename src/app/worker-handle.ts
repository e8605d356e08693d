/**
 * A page's handle on one comlink worker: started on first use, shared by every view, and able to
 * say when it crashed. A comlink call to a dead worker would wait forever, so views listen for the
 * crash and tell the person to reload.
 */
import { wrap, type Remote } from 'comlink';

export interface WorkerHandle<T> {
  /** The shared worker's remote, started on first use. Throws (with the reason) once it has crashed. */
  client(): Remote<T>;
  /** Hear about a worker that failed to load or died; returns a function that stops listening. */
  onCrash(listener: (message: string) => void): () => void;
}

/**
 * `start` must construct the Worker itself (`new Worker(new URL('…', import.meta.url), …)`): Vite
 * finds worker entry points only in that literal form. `crashMessage` turns the browser's reason
 * into what the person reads. `started` runs once on the new worker's remote, before any other
 * call reaches it (comlink keeps the order): what every caller needs it to have, such as the
 * page's frames.
 */
export function workerHandle<T>(start: () => Worker, crashMessage: (reason: string) => string, started?: (client: Remote<T>) => void): WorkerHandle<T> {
  const listeners = new Set<(message: string) => void>();
  let client: Remote<T> | null = null;
  let crashed: string | null = null;
  return {
    client() {
      if (crashed) throw new Error(crashed);
      if (client) return client;
      const worker = start();
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        crashed = crashMessage(event.message || 'it failed to load');
        for (const listener of listeners) listener(crashed);
      });
      client = wrap<T>(worker);
      started?.(client);
      return client;
    },
    onCrash(listener) {
      listeners.add(listener);
      if (crashed) listener(crashed);
      return () => listeners.delete(listener);
    },
  };
}
