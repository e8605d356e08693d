/**
 * Which of a file's transitions a store already holds, so that importing the same file twice — or
 * again after an import was stopped or its tab reloaded half-way — adds only what is new instead of
 * doubling part of the buffer (retrieval would then find the same example twice, and the counts lie).
 *
 * A transition has no identity outside a store (ids are the store's own), so it is known by its
 * content: run, episode, task, step text, action, outcome and the time it was made. Only runs the
 * store already holds are compared (a run the store has never seen cannot repeat), and their keys
 * are hashed (SHA-256), so comparing costs about a hundred bytes per stored transition of those runs,
 * whatever their size.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Transition } from '../core/types.ts';
import type { ReplayStore } from './store.ts';

/** Transitions read at a time while collecting a stored run's keys. */
const KEY_PAGE = 1000;

/** The fields that make a transition what it is; the store's id and vector are not among them. */
export function transitionKey(t: Transition): string {
  // SHA-256, as the evaluation's action digests use: synchronous, the same in Node and in a worker.
  return bytesToHex(sha256(utf8ToBytes(JSON.stringify([
    t.runId, t.episodeId ?? null, t.taskId, t.env, t.instruction, t.history,
    [t.state.text, t.state.actions], t.action, t.reasoning ?? null, [t.next.text, t.next.actions],
    t.reward, t.done, t.source, t.createdAt,
  ]))));
}

/**
 * A filter for an import's batches: it drops the transitions `store` held before, and repeats within
 * the import of a run the store held. Call it on each batch before the batch is written.
 */
export function dropStoredTransitions(store: Pick<ReplayStore, 'count' | 'page'>): (batch: readonly Transition[]) => Promise<Transition[]> {
  // Per run id: null when the store held none of its transitions when the import first met it.
  const keysByRun = new Map<string, Set<string> | null>();
  const keysOf = async (runId: string): Promise<Set<string> | null> => {
    if (keysByRun.has(runId)) return keysByRun.get(runId) as Set<string> | null;
    let keys: Set<string> | null = null;
    if ((await store.count({ runId })) > 0) {
      keys = new Set();
      for (let after: number | undefined; ;) {
        const page = await store.page({ filter: { runId }, limit: KEY_PAGE, ...(after !== undefined ? { after } : {}) });
        for (const t of page.items) keys.add(transitionKey(t));
        if (page.next === null) break;
        after = page.next;
      }
    }
    keysByRun.set(runId, keys);
    return keys;
  };
  return async (batch) => {
    const kept: Transition[] = [];
    for (const t of batch) {
      const keys = await keysOf(t.runId);
      if (keys === null) {
        kept.push(t);
        continue;
      }
      const key = transitionKey(t);
      if (keys.has(key)) continue;
      keys.add(key);
      kept.push(t);
    }
    return kept;
  };
}
