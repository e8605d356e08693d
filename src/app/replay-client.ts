/**
 * The page's handle on the replay worker (the Buffer view's store, seeding, import/export and
 * search). `Remote<ReplayService>` has the same methods as the in-process class, returning promises.
 */
import type { Remote } from 'comlink';
import type { ReplayService } from '../services/replay-service.ts';
import { workerHandle } from './worker-handle.ts';

export type ReplayClient = Remote<ReplayService>;

const replay = workerHandle<ReplayService>(
  () => new Worker(new URL('../../workers/replay.worker.ts', import.meta.url), { type: 'module', name: 'replay' }),
  (reason) => `The replay worker stopped (${reason}). Reload the page to start it again; everything already stored is kept.`,
);

export const replayClient = replay.client;
export const onReplayCrash = replay.onCrash;
