/**
 * Which of a file's transitions a store already holds, so that importing the same file twice — or
 * again after an import was stopped or its tab reloaded half-way — adds only what is new instead of
 * doubling part of the buffer (retrieval would then find the same example twice, and the counts lie).
 *
 * A transition has no identity outside a store (ids are the store's own), so it is known by its
 * content: run, episode, task, step text, action, outcome and the time it was made. Only runs the
 * store already holds are compared (a run the store has never seen cannot repeat), and their keys
 * are hashed, so a store of a million transitions costs a few bytes per transition of those runs.
 */
import type { Transition } from '../core/types.ts';
import type { ReplayStore } from './store.ts';

/** Transitions read at a time while collecting a stored run's keys. */
const KEY_PAGE = 1000;

/** The fields that make a transition what it is; the store's id and vector are not among them. */
export function transitionKey(t: Transition): string {
  return hash128(JSON.stringify([
    t.runId, t.episodeId ?? null, t.taskId, t.env, t.instruction, t.history,
    [t.state.text, t.state.actions], t.action, t.reasoning ?? null, [t.next.text, t.next.actions],
    t.reward, t.done, t.source, t.createdAt,
  ]));
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

/**
 * Four 32-bit multiplicative hashes of the text (cyrb-style mixing, different seeds) as 32 hex
 * digits: with 128 bits, two different transitions of a run colliding is not a practical concern,
 * and it is synchronous and the same in Node and in a worker (crypto.subtle is neither).
 */
function hash128(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  let h3 = 0x9e3779b9;
  let h4 = 0x85ebca6b;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
    h3 = Math.imul(h3 ^ c, 2246822507);
    h4 = Math.imul(h4 ^ c, 3266489909);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h3 ^ (h3 >>> 13), 3266489909);
  h3 = Math.imul(h3 ^ (h3 >>> 16), 2246822507) ^ Math.imul(h4 ^ (h4 >>> 13), 3266489909);
  h4 = Math.imul(h4 ^ (h4 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [h1, h2, h3, h4].map((h) => (h >>> 0).toString(16).padStart(8, '0')).join('');
}
