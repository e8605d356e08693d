/**
 * A trained policy's card: the file says what made it and how its curve went (held-out success at
 * each evaluation, training success at up to 10 points), whatever made it (the CLI or the app).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { curveSummary, exportTrainedPolicy } from '../../../src/jobs/policy-export.ts';
import { train } from '../../../src/jobs/train.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { readPolicyHeader } from '../../../src/policy/dgp.ts';
import type { IterationMetrics } from '../../../src/train/metrics.ts';

beforeAll(async () => {
  await useBackend(['cpu']);
});

const iteration = (i: number, withEval: boolean): IterationMetrics => ({
  iteration: i, phase: 'real', realTransitions: 100 * i, syntheticTransitions: 0, episodes: 8, samplesPerIteration: 100, successRate: i / 40,
  meanScore: 0, meanReturn: 0, entropy: 1, approxKl: 0, clipFraction: 0, policyLoss: 0, valueLoss: 0, referenceKl: 0, gradNorm: 0, learningRate: 0.001,
  samplesPerSecond: 100, wallSeconds: i,
  ...(withEval ? { eval: { split: 'test', episodes: 20, successRate: i / 25, meanScore: 0, meanSteps: 3, actionsDigest: 'x' } } : {}),
});

describe('the policy card\'s curve', () => {
  it('keeps every held-out evaluation and at most 10 training points, the last always', () => {
    const history = Array.from({ length: 25 }, (_, i) => iteration(i + 1, (i + 1) % 5 === 0));
    const curve = curveSummary(history);
    expect(curve.heldOut).toEqual([[500, 0.2], [1000, 0.4], [1500, 0.6], [2000, 0.8], [2500, 1]]);
    expect(curve.training.length).toBeLessThanOrEqual(10);
    expect(curve.training.at(-1)).toEqual([2500, 0.625]);
    expect(curveSummary([])).toEqual({ heldOut: [], training: [] });
  });

  it('is in the file a training run exports', async () => {
    const { trainer } = await train({
      env: 'shop', mode: 'real', algo: 'grpo', backend: 'cpu', curriculum: false, maxDifficulty: 4,
      run: { seed: 1, realBudget: 400, evalEvery: 1, evalEpisodes: 3, finalEvalEpisodes: 4, lambda: 0.2, explorationFloor: 0.1 },
      algoConfig: { tasksPerIteration: 4, groupSize: 4, parallelEnvs: 16, minibatchSize: 64, epochs: 1 },
    });
    const header = readPolicyHeader(await exportTrainedPolicy(trainer, 'cpu'));
    trainer.policy.dispose();
    const curve = header.training.curve as ReturnType<typeof curveSummary>;
    expect(curve.training.length).toBeGreaterThan(0);
    expect(curve.heldOut.length).toBeGreaterThan(0);
    expect(curve.heldOut[0]?.[0]).toBeGreaterThan(0);
  }, 60_000);
});
