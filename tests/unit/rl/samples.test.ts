import { describe, expect, it } from 'vitest';
import type { Task } from '../../../src/core/types.ts';
import type { Trajectory } from '../../../src/rl/rollout.ts';
import { grpoSamples } from '../../../src/rl/samples.ts';

const task = (id: string): Task => ({ id, env: 'shop', instruction: id, difficulty: 1, origin: 'seed' });

/** A trajectory of `length` steps on `taskId` whose outcome is `reward`; each step's action index is its position. */
function trajectory(taskId: string, length: number, reward: number): Trajectory {
  const steps = Array.from({ length }, (_, i) => ({
    features: { state: { indices: [], values: [] }, actions: [] },
    actionIndex: i,
    action: `a${i}`,
    logProb: -1,
    value: 0,
    reward: i === length - 1 ? reward : 0,
    done: i === length - 1,
  }));
  return { task: task(taskId), steps, totalReward: reward, won: reward === 1, truncated: false };
}

describe('GRPO samples', () => {
  // One group on task t: a 2-step success and a 6-step failure (advantages +1 and −1);
  // a lone trajectory on task u has no group and is dropped.
  const trajectories = [trajectory('t', 2, 1), trajectory('t', 6, 0), trajectory('u', 3, 1)];

  it('gives every step its trajectory’s normalised outcome and drops groups of one', () => {
    const samples = grpoSamples(trajectories, { lossAverage: 'step' });
    expect(samples.map((s) => s.advantage.toFixed(3))).toEqual([...Array(2).fill('1.000'), ...Array(6).fill('-1.000')]);
    expect(samples.every((s) => s.weight === 1)).toBe(true);
  });

  it('with a trajectory mean weighs each step 1/length, scaled to average 1', () => {
    const samples = grpoSamples(trajectories, { lossAverage: 'trajectory' });
    // 8 kept steps over 2 trajectories: weight 8 / (2 · length).
    expect(samples.map((s) => s.weight)).toEqual([2, 2, ...Array(6).fill(8 / 12)]);
    const byTrajectory = [samples.slice(0, 2), samples.slice(2)].map((steps) => steps.reduce((a, s) => a + (s.weight as number), 0));
    // The success and the failure now weigh the same in total.
    byTrajectory.forEach((total) => expect(total).toBeCloseTo(4, 12));
    expect(samples.reduce((a, s) => a + (s.weight as number), 0) / samples.length).toBeCloseTo(1, 12);
  });
});
