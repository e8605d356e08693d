/**
 * How a run's training steps split between won and lost episodes, from its `--history` JSON. The
 * history holds per iteration the episodes, their success rate and the steps collected, not each
 * episode's length; in an environment whose episodes end only on success or at the step limit
 * (home), every lost episode took exactly the limit, which leaves the won episodes' mean length.
 * This is what GRPO's step mean weighs: each step counts once, so a lost episode counts
 * `stepLimit / meanWonSteps` times a won one.
 */
import type { IterationMetrics } from '../src/train/metrics.ts';

export interface EpisodeSteps {
  won: number;
  lost: number;
  steps: number;
  /** Share of all training steps that came from lost episodes. */
  lostStepShare: number;
  meanWonSteps: number;
  /** How many won episodes one lost episode weighs under a step mean. */
  lostOverWon: number;
}

/**
 * Over every iteration but the last (the budget may cut the last one short), for an environment whose
 * episodes end only on success or at `stepLimit`.
 */
export function episodeSteps(history: readonly Pick<IterationMetrics, 'episodes' | 'successRate' | 'samplesPerIteration'>[], stepLimit: number): EpisodeSteps {
  let won = 0;
  let lost = 0;
  let steps = 0;
  for (const m of history.slice(0, -1)) {
    const wins = Math.round(m.successRate * m.episodes);
    won += wins;
    lost += m.episodes - wins;
    steps += m.samplesPerIteration;
  }
  const meanWonSteps = won === 0 ? 0 : (steps - lost * stepLimit) / won;
  return { won, lost, steps, lostStepShare: steps === 0 ? 0 : (lost * stepLimit) / steps, meanWonSteps, lostOverWon: meanWonSteps === 0 ? 0 : stepLimit / meanWonSteps };
}
