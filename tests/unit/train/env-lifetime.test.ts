import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../../src/core/types.ts';
import { rollout } from '../../../src/envs/episode.ts';
import { envSpec, replaceEnvironment } from '../../../src/envs/registry.ts';
import { KnnExperienceModel } from '../../../src/experience/knn.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { seedEpisodes } from '../../../src/replay/seed.ts';
import { evaluatePolicy } from '../../../src/train/evaluate.ts';
import { DEFAULT_FEATURIZER } from '../../../src/policy/featurizer.ts';
import { DEFAULT_POLICY, Policy, type ActInput } from '../../../src/policy/policy.ts';
import { Trainer } from '../../../src/train/trainer.ts';
import { seededBuffer } from '../experience/fixtures.ts';

/**
 * Whoever opens an env closes it. A web env's tab is a browser renderer process (an iframe in the
 * app): an evaluation that left its 50 lanes open each time it ran made a long web run hold over
 * 500 renderers, until the machine ran out of memory and pages stopped answering.
 */
const small = { ...DEFAULT_POLICY, hidden: 8, featurizer: { ...DEFAULT_FEATURIZER, stateBuckets: 64, actionBuckets: 32 } };

describe('env lifetime', () => {
  const shop = envSpec('shop');
  let open = new Set<Env>();
  let opened = 0;
  let restore: () => void = () => undefined;

  beforeAll(async () => {
    await useBackend(['cpu']);
  });

  /** The shop, each env of which counts itself open until closed. */
  function countEnvs(): void {
    open = new Set();
    opened = 0;
    restore = replaceEnvironment({
      ...shop,
      createEnv: () => {
        const inner = shop.createEnv();
        const env: Env = {
          name: inner.name,
          reset: (task) => inner.reset(task),
          step: (action) => inner.step(action),
          close: async () => {
            open.delete(env);
          },
        };
        open.add(env);
        opened++;
        return env;
      },
    });
  }

  afterEach(() => restore());

  it('an evaluation closes its lanes, also when it fails', async () => {
    countEnvs();
    const spec = envSpec('shop');
    const policy = new Policy(small, 1);
    await evaluatePolicy({ spec, policy, split: 'test', episodes: 6, seed: 1 });
    expect(opened).toBe(6);
    expect(open.size).toBe(0);
    const failing = new (class extends Policy {
      override act(_inputs: readonly ActInput[]): never {
        throw new Error('the policy broke');
      }
    })(small, 1);
    await expect(evaluatePolicy({ spec, policy: failing, split: 'test', episodes: 4, seed: 1 })).rejects.toThrow('the policy broke');
    expect(opened).toBe(10);
    expect(open.size).toBe(0);
    policy.dispose();
    failing.dispose();
  });

  it('a sim-to-real run closes the real lanes of its phases, the dream starter and every evaluation', async () => {
    countEnvs();
    const buffer = await seededBuffer('shop', 20, 4);
    const trainer = new Trainer({
      env: 'shop',
      mode: 's2r',
      algo: 'grpo',
      realBudget: 60,
      seed: 2,
      backend: 'cpu',
      evalEvery: 1,
      evalEpisodes: 3,
      finalEvalEpisodes: 3,
      dream: { model: new KnnExperienceModel(), buffer, k: 2, syntheticBudget: 60, offlineTransitions: await buffer.store.count({ source: 'real' }) },
      policy: small,
      algoConfig: { tasksPerIteration: 2, groupSize: 2, parallelEnvs: 4, minibatchSize: 32, epochs: 1 },
    });
    const result = await trainer.run();
    expect(result.realTransitions).toBeGreaterThan(0);
    expect(result.syntheticTransitions).toBeGreaterThan(0);
    // Lanes of the real phase, the dream's starter, and 3 of each evaluation's.
    expect(opened).toBeGreaterThan(4 + 1 + 3);
    expect(open.size).toBe(0);
    trainer.dispose();
  });

  it('an evaluation counts the episodes an env failure ended, apart from the policy\'s failures', async () => {
    // Every second env's page "stops answering" at its first step, as the web env reports it.
    let made = 0;
    restore = replaceEnvironment({
      ...shop,
      createEnv: () => {
        const inner = shop.createEnv();
        const failing = made++ % 2 === 1;
        return {
          name: inner.name,
          reset: (task) => inner.reset(task),
          step: async (action) => {
            const result = await inner.step(action);
            return failing ? { ...result, reward: 0, done: true, info: { ...result.info, won: false, error: 'the page did not answer in 10 s' } } : result;
          },
        };
      },
    });
    const policy = new Policy(small, 1);
    const evaluation = await evaluatePolicy({ spec: envSpec('shop'), policy, split: 'test', episodes: 4, seed: 1 });
    expect(evaluation.episodes).toBe(4);
    expect(evaluation.envErrors).toBe(2);
    restore();
    // Without failures the field is absent, so earlier results read the same.
    expect(await evaluatePolicy({ spec: envSpec('shop'), policy, split: 'test', episodes: 4, seed: 1 })).not.toHaveProperty('envErrors');
    policy.dispose();
  });

  it('a rollout and a seeding close their env, a seeding stopped early too', async () => {
    countEnvs();
    await rollout({ spec: envSpec('shop'), policy: 'random', split: 'test', episodes: 2, seed: 1 });
    expect(opened).toBe(1);
    expect(open.size).toBe(0);
    for await (const episode of seedEpisodes({ spec: envSpec('shop'), episodes: 5, mix: { random: 1 }, seed: 1, createdAt: 0 })) {
      expect(episode.index).toBe(0);
      break;
    }
    expect(opened).toBe(2);
    expect(open.size).toBe(0);
  });
});
