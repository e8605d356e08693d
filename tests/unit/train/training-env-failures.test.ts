import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { envSpec, replaceEnvironment } from '../../../src/envs/registry.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { DEFAULT_FEATURIZER } from '../../../src/policy/featurizer.ts';
import { DEFAULT_POLICY } from '../../../src/policy/policy.ts';
import { MemoryReplayStore } from '../../../src/replay/memory-store.ts';
import { Trainer, type TrainOptions } from '../../../src/train/trainer.ts';
import { failingOn } from '../envs/failing-env.ts';

/**
 * A training episode a failing page ended (info.error) says nothing of the policy: real RL leaves it
 * out of the update and the curriculum's outcomes, counts it, and still counts its steps.
 */
const small = { ...DEFAULT_POLICY, hidden: 8, featurizer: { ...DEFAULT_FEATURIZER, stateBuckets: 64, actionBuckets: 32 } };
const options = (statsStore?: MemoryReplayStore): TrainOptions => ({
  env: 'shop',
  mode: 'real',
  algo: 'grpo',
  realBudget: 120,
  seed: 3,
  backend: 'cpu',
  finalEvalEpisodes: 0,
  policy: small,
  algoConfig: { tasksPerIteration: 2, groupSize: 4, parallelEnvs: 4, minibatchSize: 32, epochs: 1 },
  ...(statsStore ? { statsStore } : {}),
});

describe('training episodes the environment ended', () => {
  const shop = envSpec('shop');
  let restore: () => void = () => undefined;

  beforeAll(async () => {
    await useBackend(['cpu']);
  });

  afterEach(() => restore());

  it('are left out of the update: a run whose every episode fails learns nothing', async () => {
    restore = replaceEnvironment(failingOn(shop, () => true, 1));
    const trainer = new Trainer(options());
    const before = trainer.policy.network.variables.map((v) => Array.from(v.dataSync()));
    const result = await trainer.run();
    expect(result.realTransitions).toBeGreaterThan(0);
    expect(result.history).toHaveLength(0);
    expect(trainer.policy.network.variables.map((v) => Array.from(v.dataSync()))).toEqual(before);
    trainer.dispose();
  });

  it('are counted per iteration, apart from the episodes learned from and the outcomes recorded', async () => {
    // Half the tasks' pages stop answering at the second step.
    restore = replaceEnvironment(failingOn(shop, (id) => id.charCodeAt(id.length - 1) % 2 === 0));
    const stats = new MemoryReplayStore();
    const trainer = new Trainer(options(stats));
    const result = await trainer.run();
    const failed = result.history.reduce((n, m) => n + (m.envErrors ?? 0), 0);
    const learned = result.history.reduce((n, m) => n + m.episodes, 0);
    expect(failed).toBeGreaterThan(0);
    expect(learned).toBeGreaterThan(0);
    const outcomes = (await stats.taskStats('shop')).reduce((n, s) => n + s.attempts, 0);
    expect(outcomes).toBe(learned);
    trainer.dispose();
  });
});
