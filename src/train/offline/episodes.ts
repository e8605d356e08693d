/**
 * The offline modes' data: the replay buffer's real transitions regrouped into whole episodes. A
 * store keeps transitions, not episodes; seeding tags each with its `episodeId`, and every
 * transition keeps the actions before it (`history`), so an episode is the chain of its steps
 * from an empty history to the step that ended it. Only whole episodes are kept: whether an
 * episode succeeded is read from its last step, which a partial one (evicted or imported in part)
 * may lack.
 */
import type { Transition } from '../../core/types.ts';
import { isRealSuccess } from '../../experience/success.ts';
import type { ReplayStore } from '../../replay/store.ts';

export interface OfflineEpisode {
  /** The transitions' `episodeId`, or a name made from their run and task where they have none. */
  id: string;
  taskId: string;
  instruction: string;
  /** Its steps, first first: step i has a history of i actions. */
  steps: Transition[];
  /** The last step ended the episode with the full reward, as the fidelity measure counts a real success. */
  success: boolean;
}

/** What the grouping kept and why it left the rest out. */
export interface EpisodeCount {
  episodes: number;
  successes: number;
  failures: number;
  /** Transitions of episodes with a missing step or without their ending. */
  partialTransitions: number;
}

/**
 * Whole episodes of `transitions` (in store order), in the order their first steps come. Without
 * an `episodeId`, a run's transitions of one task are split where a history starts again.
 */
export function groupEpisodes(transitions: readonly Transition[]): { episodes: OfflineEpisode[]; count: EpisodeCount } {
  const groups = new Map<string, Transition[]>();
  const restarts = new Map<string, number>();
  for (const t of transitions) {
    let key = t.episodeId;
    if (key === undefined) {
      const base = `${t.runId}/${t.taskId}`;
      if (t.history.length === 0) restarts.set(base, (restarts.get(base) ?? 0) + 1);
      key = `${base}#${restarts.get(base) ?? 0}`;
    }
    const group = groups.get(key) ?? [];
    group.push(t);
    groups.set(key, group);
  }
  const episodes: OfflineEpisode[] = [];
  let partialTransitions = 0;
  for (const [id, group] of groups) {
    const steps = [...group].sort((a, b) => a.history.length - b.history.length);
    if (!isWhole(steps)) {
      partialTransitions += group.length;
      continue;
    }
    const first = steps[0] as Transition;
    episodes.push({ id, taskId: first.taskId, instruction: first.instruction, steps, success: isRealSuccess(steps.at(-1) as Transition) });
  }
  const successes = episodes.filter((e) => e.success).length;
  return { episodes, count: { episodes: episodes.length, successes, failures: episodes.length - successes, partialTransitions } };
}

/** Step i has history length i and extends step i−1's history by its action; only the last step is `done`. */
function isWhole(steps: readonly Transition[]): boolean {
  if (steps.length === 0) return false;
  return steps.every((t, i) => {
    if (t.history.length !== i || t.done !== (i === steps.length - 1)) return false;
    const before = steps[i - 1];
    return before === undefined || (before.action === t.history[i - 1] && before.history.every((a, j) => t.history[j] === a));
  });
}

/** Every real transition of `env` in `store`, grouped into whole episodes. */
export async function readOfflineEpisodes(store: ReplayStore, env: string): Promise<{ episodes: OfflineEpisode[]; count: EpisodeCount }> {
  const all: Transition[] = [];
  let after: number | undefined;
  for (;;) {
    const page = await store.page({ filter: { env, source: 'real' }, limit: 2000, ...(after !== undefined ? { after } : {}) });
    all.push(...page.items);
    if (page.next === null) break;
    after = page.next;
  }
  return groupEpisodes(all);
}
