/**
 * The page's handle on the environment worker, and the environment list every view builds its
 * choices from. One worker per page, started on first use. The page only renders and sends
 * commands; the environments run in the worker. `Remote<EnvSession>` has the same methods as the
 * in-process class, returning promises.
 */
import { signal } from '@preact/signals';
import type { Remote } from 'comlink';
import type { EnvSession, EnvSummary } from '../services/env-session.ts';
import { givePageFrames } from './page-frames.ts';
import { workerHandle } from './worker-handle.ts';

export type EnvClient = Remote<EnvSession>;

/** The environments the worker offers; empty until `loadEnvs()` has answered. */
export const envs = signal<EnvSummary[]>([]);

const env = workerHandle<EnvSession>(
  () => new Worker(new URL('../../workers/env.worker.ts', import.meta.url), { type: 'module', name: 'env' }),
  (reason) => `The environment worker stopped (${reason}). Reload the page to start it again.`,
  givePageFrames,
);

export const envClient = env.client;
export const onEnvCrash = env.onCrash;

let listing: Promise<EnvSummary[]> | null = null;

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
