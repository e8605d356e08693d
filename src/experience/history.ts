/**
 * The history of a stored transition with the states it passed through. A stored transition keeps
 * only its history's actions (`Transition.history`); its episode's earlier transitions hold the
 * states. Fitting and teacher-forced evaluation pose each transition as the dream poses it, where
 * the history carries the real states the agent saw (a "< Prev" leads back to one of them).
 */
import type { Transition } from '../core/types.ts';
import type { HistoryStep } from './types.ts';

/**
 * For each transition of one episode (any order), its history with the states the episode's
 * earlier transitions started from. A step whose transition is missing, or whose action differs
 * from the history's, keeps the transition's own state in its place (what was posed before).
 */
export function episodeHistories(episode: readonly Transition[]): HistoryStep[][] {
  const byStep = new Map<number, Transition>();
  for (const t of episode) if (!byStep.has(t.history.length)) byStep.set(t.history.length, t);
  return episode.map((t) =>
    t.history.map((action, step) => {
      const earlier = byStep.get(step);
      return { state: earlier !== undefined && earlier.action === action ? earlier.state : t.state, action };
    }),
  );
}

/** A transition without its teacher annotation: the examples of the "without reasoning" ablation, in a dream and in fitting. */
export function withoutReasoning(t: Transition): Transition {
  const { reasoning: _dropped, ...rest } = t;
  return rest;
}
