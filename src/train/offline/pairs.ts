/**
 * DPO's preference pairs from the buffer's real episodes: each failed episode is the rejected side
 * of one pair, and a successful episode the chosen side.
 *
 * - **Same task, state level.** Where a success of the same task exists and the two episodes
 *   pass through the same states until they act differently, the pair is that one step: the
 *   same state, the successful episode's action chosen, the failed one's rejected. This is DPO's
 *   own setting (one prompt, two answers).
 * - **Trajectory level otherwise.** A same-task success that never meets the failure in a shared
 *   state, or, when the task has no success in the buffer (a seeded buffer rarely plays a task
 *   twice), the success whose instruction shares the most words with the failure's (Jaccard over
 *   the instructions' words; ties go to the earlier episode). The two sides are whole episodes and
 *   a side's log-probability is the sum over its steps. Across tasks the two sides have different
 *   prompts, so this is a ranking of a good episode of a similar task over a bad one, not DPO's
 *   strict same-prompt comparison; it is what the offline data allows.
 *
 * Pure: no policy, no tensors, so the pairing can be checked on a hand-made buffer.
 */
import { matchKey } from '../../core/actions.ts';
import { tokens } from '../../core/text.ts';
import type { OfflineEpisode } from './episodes.ts';

export type PairKind = 'state' | 'trajectory';

/** One side of a pair: the episode and which of its steps (indices into `episode.steps`) it scores. */
export interface PairSide {
  episode: OfflineEpisode;
  steps: number[];
}

export interface PreferencePair {
  kind: PairKind;
  /** Where the chosen episode came from: a success of the same task, or of the nearest instruction's task. */
  partner: 'same-task' | 'neighbour';
  chosen: PairSide;
  rejected: PairSide;
}

/** Every step of an episode, in order. */
const allSteps = (episode: OfflineEpisode): PairSide => ({ episode, steps: episode.steps.map((_, i) => i) });

/**
 * The first step where the two episodes act differently from the same state, when every step
 * before it shared its state and its action; null when they part in their states first (or never).
 */
export function firstDivergence(chosen: OfflineEpisode, rejected: OfflineEpisode): number | null {
  const n = Math.min(chosen.steps.length, rejected.steps.length);
  for (let i = 0; i < n; i++) {
    const c = chosen.steps[i];
    const r = rejected.steps[i];
    if (!c || !r || c.state.text !== r.state.text) return null;
    if (matchKey(c.action) !== matchKey(r.action)) return i;
  }
  return null;
}

function wordSet(text: string): Set<string> {
  return new Set(tokens(text));
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}

/** The preference pairs of `episodes` (one per failed episode, in episode order); empty without both a success and a failure. */
export function preferencePairs(episodes: readonly OfflineEpisode[]): PreferencePair[] {
  const successes = episodes.filter((e) => e.success);
  if (successes.length === 0) return [];
  const byTask = new Map<string, OfflineEpisode[]>();
  for (const s of successes) byTask.set(s.taskId, [...(byTask.get(s.taskId) ?? []), s]);
  const successWords = successes.map((s) => wordSet(s.instruction));
  const pairs: PreferencePair[] = [];
  for (const failed of episodes) {
    if (failed.success) continue;
    const sameTask = byTask.get(failed.taskId) ?? [];
    let paired = false;
    for (const chosen of sameTask) {
      const step = firstDivergence(chosen, failed);
      if (step === null) continue;
      pairs.push({ kind: 'state', partner: 'same-task', chosen: { episode: chosen, steps: [step] }, rejected: { episode: failed, steps: [step] } });
      paired = true;
      break;
    }
    if (paired) continue;
    if (sameTask[0]) {
      pairs.push({ kind: 'trajectory', partner: 'same-task', chosen: allSteps(sameTask[0]), rejected: allSteps(failed) });
      continue;
    }
    const words = wordSet(failed.instruction);
    let best = 0;
    let bestScore = -1;
    successWords.forEach((w, i) => {
      const score = jaccard(words, w);
      if (score > bestScore) {
        best = i;
        bestScore = score;
      }
    });
    pairs.push({ kind: 'trajectory', partner: 'neighbour', chosen: allSteps(successes[best] as OfflineEpisode), rejected: allSteps(failed) });
  }
  return pairs;
}
