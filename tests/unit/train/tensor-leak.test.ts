/**
 * No tensor outlives its use: over dozens of training iterations the live tensor count stays flat
 * (real mode, and dream mode against the neural model), and disposing a run's trainer and model
 * brings it back to where it started. A leak here is GPU memory on webgpu, one run after another.
 * Flat at every iteration after the tenth, not only at the last: a leak on any one iteration shows,
 * so 40 real and 25 dream iterations (30 and 15 checked) catch what 100 and 50, or 200 and 100,
 * did at a fraction of the cost; the count has been the same from the first iteration.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envSpec } from '../../../src/envs/registry.ts';
import { fitNeuralModel } from '../../../src/experience/neural/fit.ts';
import { train, type TrainJob } from '../../../src/jobs/train.ts';
import { tf, useBackend } from '../../../src/platform/tf.ts';
import { MemoryReplayStore } from '../../../src/replay/memory-store.ts';
import { ReplayBuffer } from '../../../src/replay/retrieval.ts';
import { seedEpisodes } from '../../../src/replay/seed.ts';

const tiny = { tasksPerIteration: 2, groupSize: 2, parallelEnvs: 4, minibatchSize: 16, epochs: 1 };
const run = { seed: 1, realBudget: 1_000_000, evalEvery: 0, finalEvalEpisodes: 2, lambda: 0.2, explorationFloor: 0.1 };

async function liveTensorsPerIteration(job: TrainJob): Promise<{ counts: number[]; dispose: () => void }> {
  const counts: number[] = [];
  const { trainer } = await train(job, { onIteration: () => counts.push(tf.memory().numTensors) });
  return { counts, dispose: () => trainer.dispose() };
}

describe('live tensors over a long run', () => {
  beforeAll(async () => {
    await useBackend(['wasm']);
  });
  afterAll(async () => {
    await useBackend(['cpu']);
  });

  it('stay flat over 40 real GRPO iterations, and a disposed trainer leaves none behind', async () => {
    const before = tf.memory().numTensors;
    const { counts, dispose } = await liveTensorsPerIteration({ env: 'shop', mode: 'real', algo: 'grpo', backend: 'wasm', run: { ...run, iterations: 40 }, curriculum: false, algoConfig: { ...tiny, klCoef: 0.05 } });
    expect(counts).toHaveLength(40);
    expect(new Set(counts.slice(9))).toEqual(new Set([counts[9]]));
    dispose();
    expect(tf.memory().numTensors).toBe(before);
  }, 120_000);

  it('stay flat over 25 dream iterations against the neural model, and the model frees its own', async () => {
    const before = tf.memory().numTensors;
    const buffer = await ReplayBuffer.open(new MemoryReplayStore());
    for await (const e of seedEpisodes({ spec: envSpec('shop'), episodes: 30, mix: { oracle: 0.5, random: 0.5 }, seed: 1, createdAt: 0 })) await buffer.add(e.transitions);
    const fit = await fitNeuralModel({ buffer, env: 'shop', epochs: 1, validationShare: 0 });
    const { counts, dispose } = await liveTensorsPerIteration({
      env: 'shop',
      mode: 'dream',
      algo: 'grpo',
      backend: 'wasm',
      run: { ...run, realBudget: 0, iterations: 25 },
      curriculum: true,
      algoConfig: tiny,
      dream: { model: fit.model, buffer, k: 3, syntheticBudget: 1_000_000, offlineTransitions: buffer.index.count, writeBack: false },
    });
    expect(counts).toHaveLength(25);
    expect(new Set(counts.slice(9))).toEqual(new Set([counts[9]]));
    dispose();
    fit.model.dispose();
    expect(tf.memory().numTensors).toBe(before);
  }, 180_000);
});
