/**
 * The offline real data a dream run or a fidelity measurement retrieves from. Both the CLI (a
 * buffer file) and the app (the browser's replay store) count it the same way and refuse an empty
 * one before any work, in words that say where the data comes from in that caller.
 */
import { UsageError } from '../core/errors.ts';
import type { ReplayStore } from '../replay/store.ts';

/** Where a caller's offline data lives and how a person seeds it there. */
export interface OfflineDataSource {
  /** "the replay buffer", or a file name. */
  name: string;
  /** The words after the refusal, e.g. "seed it in the Buffer view first". */
  howToSeed: string;
}

/** Real transitions of `env` in `store`; a UsageError when there are none. */
export async function offlineRealTransitions(store: ReplayStore, env: string, source: OfflineDataSource): Promise<number> {
  const count = await store.count({ env, source: 'real' });
  if (count === 0) throw new UsageError(`${source.name} holds no real ${env} transitions to retrieve from; ${source.howToSeed}`);
  return count;
}
