/**
 * The page's handle on the environment worker. The page only renders and sends commands; the
 * environments run in the worker. `Remote<EnvSession>` has the same methods as the in-process class.
 */
import { wrap, type Remote } from 'comlink';
import type { EnvSession } from '../runtime/env-session.ts';

export type EnvClient = Remote<EnvSession>;

/**
 * Start the worker. `onCrash` hears about a worker that failed to load or died: comlink calls to it
 * would otherwise wait forever, so the page must tell the person to reload.
 */
export function createEnvClient(onCrash: (message: string) => void): EnvClient {
  const worker = new Worker(new URL('../../workers/env.worker.ts', import.meta.url), { type: 'module', name: 'env' });
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    onCrash(`The environment worker stopped (${event.message || 'it failed to load'}). Reload the page to start it again.`);
  });
  return wrap<EnvSession>(worker);
}
