import { beforeAll, describe, expect, it } from 'vitest';
import { ENV_FAILURE_REPLAYS, rollout } from '../../../src/envs/episode.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { onPolicyTransitions } from '../../../src/jobs/evaluate-fidelity.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { DEFAULT_FEATURIZER } from '../../../src/policy/featurizer.ts';
import { DEFAULT_POLICY, Policy } from '../../../src/policy/policy.ts';
import { evaluatePolicy } from '../../../src/train/evaluate.ts';
import { failingOn } from '../envs/failing-env.ts';

/**
 * A greedy evaluation plays again an episode a failing page ended (a page slow on a loaded machine):
 * the same policy on the same seed measures the same figure whether or not pages failed on the way.
 */
const small = { ...DEFAULT_POLICY, hidden: 8, featurizer: { ...DEFAULT_FEATURIZER, stateBuckets: 64, actionBuckets: 32 } };

describe('an evaluation on pages that fail', () => {
  const shop = envSpec('shop');
  let policy: Policy;

  beforeAll(async () => {
    await useBackend(['cpu']);
    policy = new Policy(small, 1);
  });

  it('plays again an episode a page ended once, and measures what it measures without failures', async () => {
    const clean = await evaluatePolicy({ spec: shop, policy, split: 'test', episodes: 12, seed: 1 });
    expect(clean).not.toHaveProperty('retried');
    // Every task's first episode hangs at its first step; the second plays through.
    const slowOnce = await evaluatePolicy({ spec: failingOn(shop, () => true, 1, 1), policy, split: 'test', episodes: 12, seed: 1 });
    expect(slowOnce).toMatchObject({ episodes: 12, retried: 12, actionsDigest: clean.actionsDigest, successRate: clean.successRate, meanScore: clean.meanScore });
    expect(slowOnce).not.toHaveProperty('envErrors');
  });

  it(`counts an episode as ended by the env after ${ENV_FAILURE_REPLAYS} more tries`, async () => {
    const hangs = await evaluatePolicy({ spec: failingOn(shop, () => true, 1), policy, split: 'test', episodes: 12, seed: 1 });
    expect(hangs).toMatchObject({ episodes: 12, envErrors: 12, retried: 12 * ENV_FAILURE_REPLAYS, successRate: 0 });
  });

  it('plays a scripted agent\'s episode again the same way: a random agent\'s rollout keeps its digest', async () => {
    const settings = { policy: 'random' as const, split: 'test', episodes: 10, seed: 5 };
    const clean = await rollout({ spec: shop, ...settings });
    expect(clean).not.toHaveProperty('retried');
    const slowOnce = await rollout({ spec: failingOn(shop, () => true, 1, 1), ...settings });
    expect(slowOnce).toMatchObject({ digest: clean.digest, successRate: clean.successRate, retried: 10 });
    expect(slowOnce).not.toHaveProperty('envErrors');
    const hangs = await rollout({ spec: failingOn(shop, () => true, 1), ...settings });
    expect(hangs).toMatchObject({ envErrors: 10, retried: 10 * ENV_FAILURE_REPLAYS });
  });

  it('scores a policy\'s own steps as if no page had failed, not the failed plays', async () => {
    const clean = await onPolicyTransitions(shop, policy, 60, 4);
    // Every task's first play hangs at its second step; the play after it goes through.
    const slowOnce = await onPolicyTransitions(failingOn(shop, () => true, 2, 1), policy, 60, 4);
    expect(slowOnce.envErrors).toBe(0);
    expect(slowOnce.retried).toBeGreaterThan(0);
    expect(clean.retried).toBeUndefined();
    const asPlayed = (h: (typeof clean.heldout)[number]) => ({ task: h.task.id, action: h.transition.action, reward: h.transition.reward, done: h.transition.done, next: h.transition.next.text });
    expect(slowOnce.heldout.map(asPlayed)).toEqual(clean.heldout.map(asPlayed));
    expect(slowOnce.episodes).toBe(clean.episodes);
  });

  it('plays each task of its sample once, however many rounds it takes to reach the steps asked', async () => {
    const resets = new Map<string, number>();
    // failingOn asks its predicate at every reset: here it counts them, and no page fails.
    const counting = failingOn(shop, (taskId) => {
      resets.set(taskId, (resets.get(taskId) ?? 0) + 1);
      return false;
    });
    // More steps than the first round's 16 episodes hold: later rounds draw more of the sample.
    const played = await onPolicyTransitions(counting, policy, 600, 4);
    expect(played.heldout).toHaveLength(600);
    const plays = [...resets.values()].reduce((a, n) => a + n, 0);
    expect(plays).toBeGreaterThan(16);
    // The sample's tasks are drawn without repeats until the split runs out: each was played once.
    expect(Math.max(...resets.values())).toBe(1);
  });
});
