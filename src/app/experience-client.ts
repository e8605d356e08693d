/**
 * The page's handle on the experience worker (the Experience view's real environment, retrieval
 * and the kNN and HTTP experience models). `Remote<ExperienceService>` has the same methods as the
 * in-process class, returning promises.
 */
import type { Remote } from 'comlink';
import type { ExperienceService } from '../services/experience-service.ts';
import { workerHandle } from './worker-handle.ts';

export type ExperienceClient = Remote<ExperienceService>;

const experience = workerHandle<ExperienceService>(
  () => new Worker(new URL('../../workers/experience.worker.ts', import.meta.url), { type: 'module', name: 'experience' }),
  (reason) => `The experience worker stopped (${reason}). Reload the page to start it again; the replay buffer is kept.`,
);

export const experienceClient = experience.client;
export const onExperienceCrash = experience.onCrash;
