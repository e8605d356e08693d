import { describe, expect, it } from 'vitest';
import { episodeSteps } from '../../../experiments/episode-steps.ts';

describe('episodeSteps', () => {
  it('splits training steps into won and lost episodes when losses run to the step limit', () => {
    // Iteration 1: 4 episodes, 1 won in 10 steps, 3 lost at 50 → 160 steps.
    // Iteration 2: 4 episodes, 2 won in 20 and 30 steps, 2 lost → 150 steps.
    // Iteration 3 (cut by the budget) is left out.
    const history = [
      { episodes: 4, successRate: 0.25, samplesPerIteration: 160 },
      { episodes: 4, successRate: 0.5, samplesPerIteration: 150 },
      { episodes: 1, successRate: 1, samplesPerIteration: 3 },
    ];
    const result = episodeSteps(history, 50);
    expect(result).toMatchObject({ won: 3, lost: 5, steps: 310 });
    expect(result.meanWonSteps).toBeCloseTo(20, 12); // (10 + 20 + 30) / 3
    expect(result.lostStepShare).toBeCloseTo(250 / 310, 12);
    expect(result.lostOverWon).toBeCloseTo(2.5, 12);
  });
});
