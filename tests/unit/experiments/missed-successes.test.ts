import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missedSuccesses } from '../../../experiments/missed-successes.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { KnnExperienceModel } from '../../../src/experience/knn.ts';
import { seedBuffer } from '../../../src/jobs/seed-buffer.ts';
import { createTrainer } from '../../../src/jobs/train.ts';
import { tf, useBackend, type BackendName } from '../../../src/platform/tf.ts';
import { MemoryReplayStore } from '../../../src/replay/memory-store.ts';
import { ReplayBuffer } from '../../../src/replay/retrieval.ts';

describe('missed-successes', () => {
  // wasm, not cpu: the untrained policy plays about a thousand greedy home steps to meet five real
  // successes, and its forward passes on the cpu backend were 26 s of CPU against 2.5 s on wasm.
  // The backend the file found is given back (none yet in a fresh worker: tfjs then picks wasm anyway).
  let previous: BackendName | undefined;
  beforeAll(async () => {
    previous = tf.getBackend() as BackendName | undefined;
    await useBackend(['wasm']);
  });
  afterAll(async () => {
    if (previous) await useBackend([previous]);
  });

  it('lists every real success among a policy\'s own steps with the prediction and the examples it was given', async () => {
    const spec = envSpec('home');
    const store = new MemoryReplayStore();
    const buffer = await ReplayBuffer.open(store);
    await seedBuffer(spec, { episodes: 40, mix: 'oracle=0.5,random=0.5', seed: 1 }, { store, write: (t) => buffer.add(t) });
    const trainer = createTrainer({ env: 'home', mode: 'real', algo: 'grpo', backend: 'wasm', run: { seed: 1, realBudget: 10, evalEvery: 0, lambda: 0.2, explorationFloor: 0.1 }, curriculum: false });
    const rows = await missedSuccesses(spec, { policy: trainer.policy, model: new KnnExperienceModel(), buffer, k: 3, heldout: 1000, seed: 1 });
    trainer.policy.dispose();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.action.length).toBeGreaterThan(0);
      expect(row.examples).toHaveLength(3);
      expect(typeof row.predicted.success).toBe('boolean');
    }
  }, 120_000);
});
