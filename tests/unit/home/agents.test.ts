import { describe, expect, it } from 'vitest';
import { planGoal } from '../../../src/envs/home/agents.ts';
import type { HomeGoal } from '../../../src/envs/home/goal.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { buildWorld } from '../../../src/envs/home/world.ts';

const homeSpec = envSpec('home');

// Success rates of the oracle and random agents on both envs live in tests/unit/envs/rollout.test.ts.
describe('home scripted agents', () => {
  it('the oracle plan is never longer than the two-object worst case', () => {
    for (const task of homeSpec.tasks('train')) {
      const goal = task.goal as HomeGoal;
      // go, open, take, go, open, put, twice, with the target opened only once: 11.
      expect(planGoal(buildWorld(goal), goal).length).toBeLessThanOrEqual(11);
    }
  });
});
