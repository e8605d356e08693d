import { beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../../../src/core/types.ts';
import { runEpisode } from '../../../src/envs/episode.ts';
import { recordingsOf, recordingSpec, type RecordedEpisode } from '../../../src/envs/recorded-episodes.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { onPolicyTransitions } from '../../../src/jobs/evaluate-fidelity.ts';
import { DEFAULT_FEATURIZER } from '../../../src/policy/featurizer.ts';
import { DEFAULT_POLICY, Policy } from '../../../src/policy/policy.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { evaluatePolicy } from '../../../src/train/evaluate.ts';
import { failingOn } from './failing-env.ts';

const small = { ...DEFAULT_POLICY, hidden: 8, featurizer: { ...DEFAULT_FEATURIZER, stateBuckets: 64, actionBuckets: 32 } };

describe('recorded episodes', () => {
  beforeAll(async () => {
    await useBackend(['cpu']);
  });

  it('keeps every state as played, what followed, and the history with its states', async () => {
    const shop = envSpec('shop');
    const task = shop.tasks('test')[3] as Task;
    const recording = recordingSpec(shop);
    const played = await runEpisode(recording.spec.createEnv(), shop.createOracle(), task);
    const [episode] = recordingsOf(recording.episodes, [{ task, steps: played.steps }]);
    expect(episode?.steps.map((s) => s.result)).toEqual(played.steps.map((s) => s.result));
    expect(episode?.steps[0]?.state).toEqual(played.first);
    episode?.steps.forEach((step, i) => {
      if (i > 0) expect(step.state).toBe(played.steps[i - 1]?.result.observation);
      expect(step.history.map((h) => h.action)).toEqual(played.steps.slice(0, i).map((s) => s.action));
      expect(step.history.map((h) => h.state)).toEqual(episode.steps.slice(0, i).map((s) => s.state));
    });
  });

  it('matches each played episode to its own recording, out of order and with a task played twice', async () => {
    const shop = envSpec('shop');
    const task = shop.tasks('test')[0] as Task;
    const recording = recordingSpec(shop);
    const env = recording.spec.createEnv();
    const oracle = await runEpisode(env, shop.createOracle(), task);
    // The same task again, ended after its first action: another episode of the same task.
    await env.reset(task);
    await env.step(oracle.steps[0]?.action as string);
    const short = { task, steps: oracle.steps.slice(0, 1) };
    const [first, second] = recordingsOf(recording.episodes, [short, { task, steps: oracle.steps }]);
    expect(first).toBe(recording.episodes[1]);
    expect(second).toBe(recording.episodes[0]);
    expect(() => recordingsOf(recording.episodes, [short, short])).toThrow(/no recording of the episode of task/);
    // A play the env ended is never the one matched, though it holds the same actions as the play kept.
    const [ok] = recording.episodes;
    const failedPlay = { task, steps: (ok?.steps ?? []).map((s, i, all) => (i === all.length - 1 ? { ...s, result: { ...s.result, info: { ...s.result.info, error: 'the page did not answer in 5 s' } } } : s)) };
    expect(recordingsOf([failedPlay, ok as RecordedEpisode], [{ task, steps: oracle.steps }])).toEqual([ok]);
  });

  it('gives a policy\'s steps as its lanes played them, and leaves out the episodes the env ended', async () => {
    const shop = envSpec('shop');
    const policy = new Policy(small, 1);
    try {
      // The greedy episodes as evaluatePolicy reports them, in the sample's order (its first n are the same for every n).
      const byIndex: { task: Task; steps: { action: string; reward: number }[] }[] = [];
      await evaluatePolicy({ spec: shop, policy, split: shop.testSplit, episodes: 32, seed: 4, onEpisode: (t, i) => (byIndex[i] = t) });
      const stepsOf = (episodes: typeof byIndex) => episodes.flatMap((t) => t.steps.map((s) => ({ task: t.task.id, action: s.action, reward: s.reward }))).slice(0, 60);
      const asPlayed = (heldout: Awaited<ReturnType<typeof onPolicyTransitions>>['heldout']) => heldout.map((h) => ({ task: h.task.id, action: h.transition.action, reward: h.transition.reward }));

      const clean = await onPolicyTransitions(shop, policy, 60, 4);
      expect(clean.envErrors).toBe(0);
      expect(asPlayed(clean.heldout)).toEqual(stepsOf(byIndex));

      // The first two episodes of two steps or more end at their second step, by a failing page.
      const failed = byIndex.filter((t) => t.steps.length >= 2).slice(0, 2).map((t) => t.task.id);
      expect(failed).toHaveLength(2);
      const failing = await onPolicyTransitions(failingOn(shop, new Set(failed)), policy, 60, 4);
      expect(failing.envErrors).toBe(2);
      expect(failing.firstEnvError).toEqual({ taskId: failed[0], error: 'the page did not answer in 10 s' });
      expect(asPlayed(failing.heldout)).toEqual(stepsOf(byIndex.filter((t) => !failed.includes(t.task.id))));
      expect(failing.episodes).toBe(new Set(failing.heldout.map((h) => h.task.id)).size);
    } finally {
      policy.dispose();
    }
  });
});
