/**
 * The page's handle on the trainer worker (tfjs training, policy export, and the Evaluate view's
 * player of a saved policy, `playerClient`). One worker per page, shared by the Train and Evaluate views and started on
 * first use. `Remote<TrainerService>` has the same methods as the in-process class, returning
 * promises.
 */
import type { Remote } from 'comlink';
import type { PolicyPlayer } from '../services/policy-player.ts';
import type { TrainerService } from '../services/trainer-service.ts';
import { givePageFrames } from './page-frames.ts';
import { workerHandle } from './worker-handle.ts';

export type TrainerClient = Remote<TrainerService>;

const trainer = workerHandle<TrainerService>(
  () => new Worker(new URL('../../workers/trainer.worker.ts', import.meta.url), { type: 'module', name: 'trainer' }),
  (reason) => `The trainer worker stopped (${reason}). Reload the page to start it again.`,
  givePageFrames,
);

export const trainerClient = trainer.client;
export const onTrainerCrash = trainer.onCrash;

/**
 * A second trainer worker, started only by the guided run: its real-mode run (and the untrained
 * policy's evaluation) trains beside the dream run, on another core, instead of after it. A
 * worker's tfjs is single-threaded here (wasm without cross-origin isolation), so on a machine of
 * two cores or more the guided run takes about the longer of its two lanes, not their sum.
 */
const besideTrainer = workerHandle<TrainerService>(
  () => new Worker(new URL('../../workers/trainer.worker.ts', import.meta.url), { type: 'module', name: 'trainer-beside' }),
  (reason) => `The guided run's second trainer worker stopped (${reason}). Reload the page to start it again.`,
  givePageFrames,
);

export const besideTrainerClient = besideTrainer.client;

/**
 * The Evaluate view's player in the same worker (`TrainerService.player`): comlink follows the
 * property, so `playerClient().loadPolicy(…)` runs the player's method there. (Remote's types treat
 * a plain property as a value to fetch, hence the cast.)
 */
export const playerClient = (): Remote<PolicyPlayer> => (trainerClient() as unknown as { player: Remote<PolicyPlayer> }).player;
