/**
 * The offline real data a dream run or a fidelity measurement retrieves from, and the offline
 * modes (bc, dpo) train on. Both the CLI (a buffer file) and the app (the browser's replay store)
 * count it the same way and refuse an empty one before any work, in words that say where the data
 * comes from in that caller.
 */
import { UsageError } from '../core/errors.ts';
import type { ReplayStore } from '../replay/store.ts';
import { readOfflineEpisodes } from '../train/offline/episodes.ts';
import type { OfflineTrainOptions } from '../train/offline/trainer.ts';

/** Where a caller's offline data lives and how a person seeds it there. */
export interface OfflineDataSource {
  /** "the replay buffer", or a file name. */
  name: string;
  /** The words after the refusal, e.g. "seed it in the Buffer view first". */
  howToSeed: string;
}

/** Real transitions of `env` in `store`; a UsageError when there are none. */
export async function offlineRealTransitions(store: ReplayStore, env: string, source: OfflineDataSource, purpose = 'to retrieve from'): Promise<number> {
  const count = await store.count({ env, source: 'real' });
  if (count === 0) throw new UsageError(`${source.name} holds no real ${env} transitions ${purpose}; ${source.howToSeed}`);
  return count;
}

/**
 * The whole real episodes of `env` in `store`, as an offline run (modes bc and dpo) trains on
 * them; a UsageError when the store holds no real transition of `env`. Whether they hold what the
 * mode needs (a success to clone, a success and a failure to pair) the trainer checks, in
 * `source`'s words.
 */
export async function offlineEpisodes(store: ReplayStore, env: string, source: OfflineDataSource): Promise<OfflineTrainOptions['data']> {
  const offlineTransitions = await offlineRealTransitions(store, env, source, 'to train on');
  const { episodes, count } = await readOfflineEpisodes(store, env);
  return { episodes, count, offlineTransitions, source };
}
