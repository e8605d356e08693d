/**
 * The page's handle on the environment worker. The page only renders and sends commands; the
 * environments run in the worker. `Remote<EnvSession>` has the same methods as the in-process class.
 */
import { wrap, type Remote } from 'comlink';
import type { EnvSession } from '../runtime/env-session.ts';

export type EnvClient = Remote<EnvSession>;

let client: EnvClient | null = null;

export function envClient(): EnvClient {
  if (!client) {
    const worker = new Worker(new URL('../../workers/env.worker.ts', import.meta.url), { type: 'module', name: 'env' });
    client = wrap<EnvSession>(worker);
  }
  return client;
}
