import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KnnExperienceModel } from '../../../src/experience/knn.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { Trainer, type TrainOptions } from '../../../src/train/trainer.ts';
import { seededBuffer } from '../experience/fixtures.ts';

// Dream mode end to end at small size: a buffer seeded with real shop episodes, GRPO against the
// kNN experience model with 0 real transitions, judged on the real test split. On wasm: the network's
// products cost several times as much on the cpu backend (plain JS), and what is pinned (a run
// repeated in the same process gives the same digest) holds on either.
async function dreamOptions(): Promise<TrainOptions> {
  const buffer = await seededBuffer('shop', 60, 3);
  return {
    env: 'shop',
    mode: 'dream',
    algo: 'grpo',
    realBudget: 0,
    seed: 5,
    backend: 'wasm',
    maxDifficulty: 4,
    // Two runs compare their digests: 10 greedy episodes pin that as well as 30 would.
    finalEvalEpisodes: 10,
    dream: { model: new KnnExperienceModel(), buffer, k: 3, syntheticBudget: 600, offlineTransitions: await buffer.store.count({ source: 'real' }) },
    policy: { hidden: 32, featurizer: { stateBuckets: 512, actionBuckets: 256, historyWindow: 3, maxElements: 40 } },
    algoConfig: { tasksPerIteration: 4, groupSize: 8, parallelEnvs: 32, minibatchSize: 128, learningRate: 3e-3 },
  };
}

describe('dream-mode training', () => {
  beforeAll(async () => {
    await useBackend(['wasm']);
  });
  afterAll(async () => {
    await useBackend(['cpu']);
  });

  it('trains GRPO against kNN with 0 real transitions, writes synthetic experience back, and judges on the real test split', async () => {
    const options = await dreamOptions();
    const buffer = options.dream!.buffer!;
    const realBefore = await buffer.store.count({ source: 'real' });
    const result = await new Trainer(options).run();
    expect(result.mode).toBe('dream');
    expect(result.realTransitions).toBe(0);
    expect(result.syntheticTransitions).toBeGreaterThan(400);
    expect(result.syntheticTransitions).toBeLessThanOrEqual(600);
    expect(result.iterations).toBeGreaterThan(1);
    expect(result.history.every((m) => m.realTransitions === 0)).toBe(true);
    expect(result.eval).toMatchObject({ split: 'test', episodes: 10 });
    expect(result.dream).toMatchObject({ experience: 'knn', k: 3, offlineTransitions: realBefore, model: { invalidOutputs: 0 }, synthetic: { steps: result.syntheticTransitions, inadmissibleActions: 0 } });
    // Every training episode opened with one real reset and no real step.
    expect(result.dream!.realResets).toBe(result.dream!.synthetic.episodes);
    expect(await buffer.store.count({ source: 'real' })).toBe(realBefore);
    expect(await buffer.store.count({ source: 'synthetic' })).toBe(result.dream!.synthetic.writtenBack);
    expect(result.dream!.synthetic.writtenBack).toBe(result.syntheticTransitions);

    const again = await new Trainer(await dreamOptions()).run();
    expect(again.eval?.actionsDigest).toBe(result.eval?.actionsDigest);
    expect(again.syntheticTransitions).toBe(result.syntheticTransitions);
  });

  it('PPO with rolloutsPerTask plays each task that many times an iteration, and its curriculum scores a task by its own outcomes', async () => {
    const base = await dreamOptions();
    const options: TrainOptions = {
      ...base,
      algo: 'ppo',
      curriculum: {},
      maxIterations: 2,
      finalEvalEpisodes: 5,
      dream: { ...base.dream!, syntheticBudget: 5000 },
      algoConfig: { episodesPerIteration: 32, rolloutsPerTask: 4, parallelEnvs: 32, minibatchSize: 128, learningRate: 3e-3 },
    };
    const trainer = new Trainer(options);
    const result = await trainer.run();
    expect(result.curriculum?.grouping).toBe('task');
    expect(result.history.map((m) => m.episodes)).toEqual([32, 32]);
    const played = trainer.curriculum!.rows().filter((r) => r.attempts > 0);
    expect(played.length).toBeGreaterThanOrEqual(8); // 8 distinct tasks an iteration, not 32
    expect(played.length).toBeLessThanOrEqual(16);
    expect(played.every((r) => r.attempts % 4 === 0)).toBe(true);
    // Scored by their own four outcomes, the tasks of the second iteration were chosen by variance.
    expect(result.history[1]?.curriculum?.byVariance).toBeGreaterThan(0);

    // Shop's dream PPO plays 8 episodes of each task without being told (the shop spec's training settings).
    expect(new Trainer({ ...base, algo: 'ppo', curriculum: {} }).config).toMatchObject({ rolloutsPerTask: 8, episodesPerIteration: 64 });
    // Changing only the episode count meets that setting: the message says where the 8 came from.
    expect(() => new Trainer({ ...base, algo: 'ppo', algoConfig: { episodesPerIteration: 20 } })).toThrow(
      /divides episodesPerIteration \(20\), got 8 \(shop's dream setting, its spec's training settings\); set the two together/,
    );
    const once = new Trainer({ ...options, algoConfig: { ...options.algoConfig, rolloutsPerTask: 1 } });
    expect(once.curriculum?.summary().grouping).toBe('cluster');
    expect(() => new Trainer({ ...options, algoConfig: { ...options.algoConfig, rolloutsPerTask: 3 } })).toThrow(/divides episodesPerIteration \(32\), got 3/);
  });

  it('refuses a dream run that would touch the real environment or has no model', async () => {
    const options = await dreamOptions();
    expect(() => new Trainer({ ...options, realBudget: 100 })).toThrow(/0 real transitions/);
    const { dream: _dream, ...withoutModel } = options;
    expect(() => new Trainer(withoutModel)).toThrow(/needs an experience model/);
  });
});
