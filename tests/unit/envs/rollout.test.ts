import { describe, expect, it } from 'vitest';
import { rollout } from '../../../src/envs/episode.ts';
import { ENVIRONMENTS, envSpec } from '../../../src/envs/registry.ts';

// The acceptance figures of the foundation: the oracle solves held-out tasks, random does not.
describe('scripted policies on the held-out splits (200 episodes)', () => {
  for (const [env, split, randomCeiling] of [['shop', 'test', 0.05], ['home', 'valid-unseen', 0.1]] as const) {
    it(`${env}: oracle ≥ 0.99 and random ≤ ${randomCeiling} on ${split}`, async () => {
      const spec = envSpec(env);
      const oracle = await rollout({ spec, policy: 'oracle', split, episodes: 200, seed: 1 });
      const random = await rollout({ spec, policy: 'random', split, episodes: 200, seed: 1 });
      expect(oracle.successRate).toBeGreaterThanOrEqual(0.99);
      expect(oracle.invalidActionRate).toBe(0);
      expect(random.successRate).toBeLessThanOrEqual(randomCeiling);
      expect(random.meanScore).toBeLessThan(oracle.meanScore);
    });
  }
});

describe('rollout digests', () => {
  for (const spec of ENVIRONMENTS) {
    it(`${spec.name}: equal seeds give equal digests, another seed another one`, async () => {
      for (const policy of ['oracle', 'random'] as const) {
        const a = await rollout({ spec, policy, split: spec.testSplit, episodes: 12, seed: 5 });
        const b = await rollout({ spec, policy, split: spec.testSplit, episodes: 12, seed: 5 });
        const c = await rollout({ spec, policy, split: spec.testSplit, episodes: 12, seed: 6 });
        expect(a.digest).toMatch(/^[0-9a-f]{64}$/);
        expect(b.digest).toBe(a.digest);
        expect(c.digest).not.toBe(a.digest);
        expect({ ...b, stepsPerSec: 0 }).toEqual({ ...a, stepsPerSec: 0 });
      }
    });
  }
});
