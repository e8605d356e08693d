import { describe, expect, it } from 'vitest';
import { meanStd } from '../../../experiments/paper-report.ts';
import { realTable, type RealRun } from '../../../experiments/real-table.ts';

function run(algo: string, seed: number, evals: [number, number][], final: number): RealRun {
  return {
    algo,
    seed,
    history: {
      history: evals.map(([realTransitions, successRate], i) => ({ iteration: i + 1, realTransitions, ...(successRate >= 0 ? { eval: { successRate } } : {}) })),
    } as unknown as RealRun['history'],
    final: { successRate: final, meanScore: final * 100, episodes: 250 },
  };
}

describe('realTable', () => {
  it('lists each run by algorithm and seed with its held-out curve, then means over seeds', () => {
    const table = realTable('home', [
      run('ppo', 2, [[5000, 0.3], [9000, -1], [14600, 0.41]], 0.44),
      run('grpo', 1, [[5000, 0.2]], 0.4),
      run('ppo', 1, [[5200, 0.25]], 0.4),
    ]);
    const rows = table.split('\n');
    expect(rows[0]).toContain('final, 250 held-out episodes');
    expect(rows[2]).toBe('| home GRPO seed 1 | 5K 20% | **40.0%** (score 40.0) |');
    expect(rows[3]).toContain('| home PPO seed 1 |');
    // Iterations without an evaluation are left out of the curve.
    expect(rows[4]).toBe('| home PPO seed 2 | 5K 30% · 15K 41% | **44.0%** (score 44.0) |');
    expect(table).toContain('GRPO 40.0 ± 0.0% (1 seed, min 40.0%); PPO 42.0 ± 2.8% (2 seeds, min 40.0%)');
  });

  it('uses the sample standard deviation', () => {
    expect(meanStd([1, 2, 3])).toEqual({ mean: 2, std: 1 });
    expect(meanStd([5])).toEqual({ mean: 5, std: 0 });
  });
});
