/**
 * The page's handle on the environment worker, and the environment list every view builds its
 * choices from. One worker per page, started on first use. The page only renders and sends
 * commands; the environments run in the worker. `Remote<EnvSession>` has the same methods as the
 * in-process class, returning promises.
 */
import { signal } from '@preact/signals';
import { wrap, type Remote } from 'comlink';
import type { EnvSession, EnvSummary } from '../runtime/env-session.ts';

export type EnvClient = Remote<EnvSession>;

/** The environments the worker offers; empty until `loadEnvs()` has answered. */
export const envs = signal<EnvSummary[]>([]);

const crashListeners = new Set<(message: string) => void>();
let client: EnvClient | null = null;
let crashed: string | null = null;
let listing: Promise<EnvSummary[]> | null = null;

/**
 * Hear about a worker that failed to load or died: comlink calls to it would otherwise wait
 * forever, so each view tells the person to reload. Returns a function that stops listening.
 */
export function onEnvCrash(listener: (message: string) => void): () => void {
  crashListeners.add(listener);
  if (crashed) listener(crashed);
  return () => crashListeners.delete(listener);
}

/** The shared environment worker, started on first use. Throws (with the reason) once it has crashed. */
export function envClient(): EnvClient {
  if (crashed) throw new Error(crashed);
  if (client) return client;
  const worker = new Worker(new URL('../../workers/env.worker.ts', import.meta.url), { type: 'module', name: 'env' });
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    crashed = `The environment worker stopped (${event.message || 'it failed to load'}). Reload the page to start it again.`;
    for (const listener of crashListeners) listener(crashed);
  });
  client = wrap<EnvSession>(worker);
  return client;
}

/**
 * Fill `envs` from the worker. Every view calls this; the worker is asked once per page, and
 * asked again only after a failure. Rejects with the reason, which the calling view shows.
 */
export function loadEnvs(): Promise<EnvSummary[]> {
  listing ??= listFromWorker().catch((error: unknown) => {
    listing = null;
    throw error;
  });
  return listing;
}

async function listFromWorker(): Promise<EnvSummary[]> {
  const worker = envClient();
  // A crash while the list is on its way would leave the comlink call waiting forever.
  let stopListening = (): void => {};
  const crash = new Promise<never>((_, reject) => {
    stopListening = onEnvCrash((message) => reject(new Error(message)));
  });
  try {
    envs.value = await Promise.race([worker.listEnvs(), crash]);
    return envs.value;
  } finally {
    stopListening();
  }
}

/** The split a view starts on: the env's held-out test split, else its first. */
export function defaultSplit(env: EnvSummary | undefined): string {
  return env?.testSplit ?? env?.splits[0]?.name ?? '';
}
