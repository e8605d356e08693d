/**
 * The one way to set up a dream (modes dream and s2r, and the experiments that dream): the chosen
 * experience model, built by its registry entry, over the offline buffer its retrieval reads. The
 * CLI's `train`, the app's trainer worker and the experiments all call `buildDream`; none puts a
 * `DreamOptions` together itself.
 */
import type { Imagine } from '../train/modes.ts';
import type { DreamOptions } from '../train/trainer.ts';
import type { ReplayBuffer } from '../replay/retrieval.ts';
import type { ReplayStore } from '../replay/store.ts';
import type { ExperienceModel } from '../experience/types.ts';
import { createExperienceModel, type ExperienceChoice } from './experience-models/create.ts';
import type { BuildContext } from './experience-models/entry.ts';
import { DEFAULT_K } from './experience-models/retrieval-k.ts';
import { offlineRealTransitions, type OfflineDataSource } from './offline-data.ts';

export interface DreamJob {
  /** The environment the dream simulates. */
  env: string;
  /** The model and its checked settings; `settings.k` is the examples retrieved per prediction. */
  experience: ExperienceChoice;
  /** What the caller lends the model's build (where it runs, how it reads a model file). */
  context: Omit<BuildContext, 'env'>;
  /** The offline data retrieval reads (a file's store, or the browser's), counted before anything is loaded. */
  store: ReplayStore;
  /** The buffer over `store` that retrieval searches, opened (indexed) once the model is built. */
  openBuffer: () => Promise<ReplayBuffer>;
  /** Where that data lives and how to seed it, for the refusal of an empty one. */
  source: OfflineDataSource;
  syntheticBudget: number;
  /** off: the "without reasoning" ablation. Default on. */
  reasoning?: 'on' | 'off' | undefined;
  imagine?: Imagine | undefined;
}

/** A neural model holds tensors; the rest hold nothing to let go. */
export function disposeModel(model: ExperienceModel): void {
  (model as { dispose?: () => void }).dispose?.();
}

/**
 * The dream's options: an empty buffer is refused first (in the caller's words, before a model is
 * loaded), then the model is built, then retrieval's index. The caller owns the model it gets back (see disposeModel).
 */
export async function buildDream(job: DreamJob): Promise<DreamOptions> {
  const offlineTransitions = await offlineRealTransitions(job.store, job.env, job.source);
  const model = await createExperienceModel(job.experience, { ...job.context, env: job.env });
  let buffer: ReplayBuffer;
  try {
    buffer = await job.openBuffer();
  } catch (error) {
    disposeModel(model);
    throw error;
  }
  const k = (job.experience.settings?.k as number | undefined) ?? DEFAULT_K;
  return {
    model,
    buffer,
    k,
    syntheticBudget: job.syntheticBudget,
    offlineTransitions,
    ...(job.imagine !== undefined ? { imagine: job.imagine } : {}),
    ...(job.reasoning === 'off' ? { reasoning: false } : {}),
  };
}
