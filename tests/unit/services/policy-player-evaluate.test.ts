/**
 * The Evaluate view's "evaluate on N held-out tasks": the player in the trainer worker plays the
 * loaded policy greedily on the env's test split with training's own evaluation (the same tasks,
 * drawn with the policy's training seed, as `rollout --policy` plays them: the same actions digest),
 * counts finished episodes for its progress, stops on request with the episodes played so far, and
 * refuses to swap the policy under a running evaluation.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { envSpec } from '../../../src/envs/registry.ts';
import { rolloutPolicyFile } from '../../../src/jobs/rollout.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { exportPolicy } from '../../../src/policy/policy-file.ts';
import { DEFAULT_POLICY, Policy } from '../../../src/policy/policy.ts';
import { PolicyPlayer } from '../../../src/services/policy-player.ts';

const SEED = 3;

async function policyBytes(): Promise<Uint8Array> {
  const policy = new Policy(DEFAULT_POLICY, 5);
  try {
    return await exportPolicy(policy, {
      env: 'shop', algorithm: 'grpo', backend: 'cpu',
      training: { mode: 'real', seed: SEED, realBudget: 100, realTransitions: 90, syntheticTransitions: 0, iterations: 1, wallSeconds: 1 },
      evaluation: null, createdAt: '2025-01-02T03:04:05.000Z',
    });
  } finally {
    policy.dispose();
  }
}

const player = () => new PolicyPlayer({ ensureBackend: async () => {}, activeTasks: () => null });

describe('the Evaluate view\'s held-out evaluation', () => {
  let bytes: Uint8Array;
  beforeAll(async () => {
    await useBackend(['cpu']);
    bytes = await policyBytes();
  });

  it('plays N test tasks greedily in the real env, as rollout --policy does, with progress per episode', async () => {
    const p = player();
    await p.loadPolicy(bytes.slice());
    const progress: [number, number][] = [];
    const outcome = await p.evaluate(6, (done, total) => progress.push([done, total]));
    expect(outcome).toMatchObject({ stopped: false, requested: 6, result: { split: 'test', episodes: 6 } });
    expect(outcome.seconds).toBeGreaterThanOrEqual(0);
    expect(progress.map(([done]) => done)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(progress.every(([, total]) => total === 6)).toBe(true);
    const cli = await rolloutPolicyFile(envSpec('shop'), bytes.slice(), { split: 'test', episodes: 6, seed: SEED });
    expect(outcome.result.actionsDigest).toBe(cli.actionsDigest);
    expect(outcome.result.successRate).toBe(cli.successRate);
  });

  it('stops with the episodes played so far, and keeps the policy while it evaluates', async () => {
    const p = player();
    await p.loadPolicy(bytes.slice());
    let refused: unknown = null;
    const outcome = await p.evaluate(60, (done) => {
      if (done === 1) {
        p.stopEvaluation();
        p.loadPolicy(bytes.slice()).catch((e: unknown) => { refused = e; });
      }
    });
    expect(outcome.stopped).toBe(true);
    expect(outcome.result.episodes).toBeGreaterThanOrEqual(1);
    expect(outcome.result.episodes).toBeLessThan(60);
    await expect.poll(() => refused).toBeInstanceOf(Error);
    expect(String(refused)).toMatch(/a held-out evaluation is going on; stop it before loading another policy/);
    // Once it ended, another evaluation (and another policy) may follow.
    await p.loadPolicy(bytes.slice());
    expect((await p.evaluate(2)).result.episodes).toBe(2);
  });

  it('refuses a number of episodes that is not a whole number of at least 1, and a player with no policy', async () => {
    const p = player();
    await expect(p.evaluate(3)).rejects.toThrow(/load a \.dgp policy file first/);
    await p.loadPolicy(bytes.slice());
    await expect(p.evaluate(0)).rejects.toThrow(/at least 1 \(got 0\)/);
    await expect(p.evaluate(2.5)).rejects.toThrow(/got 2\.5/);
    // The page names the policy it shows: another one loaded meanwhile is not judged in its place.
    await expect(p.evaluate(1, undefined, 'f'.repeat(64))).rejects.toThrow(/another policy was loaded into the player meanwhile/);
  });
});
