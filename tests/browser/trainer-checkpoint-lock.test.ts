/**
 * In a page, with Web Locks: the checkpoint a run saves while it trains (in this or another tab) is
 * not offered as an interrupted run; once the run is gone (its tab closed, its worker crashed, here:
 * the lock let go with the checkpoint left behind), it is.
 */
import { describe, expect, it } from 'vitest';
import { MemoryReplayStore } from '../../src/replay/memory-store.ts';
import { MemoryCheckpointStore } from '../../src/services/checkpoint-store.ts';
import { MemoryNeuralModelStore } from '../../src/services/neural-model-store.ts';
import { TrainerService, type TrainRequest } from '../../src/services/trainer-service.ts';

const REQUEST: TrainRequest = {
  env: 'shop',
  algo: 'grpo',
  realBudget: 100_000,
  seed: 2,
  maxDifficulty: 4,
  checkpointEverySeconds: 0,
  algoConfig: { tasksPerIteration: 2, groupSize: 4, parallelEnvs: 8, epochs: 1 },
};

describe('an interrupted run, as another tab sees it (real Chromium, Web Locks)', () => {
  it('is not offered while a tab trains it, and is once the run is gone', async () => {
    const store = new MemoryCheckpointStore<TrainRequest>();
    const options = { openReplayStore: async () => new MemoryReplayStore(), openModelStore: async () => new MemoryNeuralModelStore(), openCheckpointStore: async () => store };
    const training = new TrainerService(options);
    const otherTab = new TrainerService(options);
    await training.init(['cpu']);
    let seenWhileTraining: unknown = 'not asked';
    let savedWhileTraining: unknown;
    let left: typeof store.saved;
    await training.train(REQUEST, (event) => {
      if (event.kind !== 'checkpoint' || event.iteration !== 2) return;
      savedWhileTraining = store.saved?.iteration;
      left = store.saved;
      void otherTab.savedRun().then((offer) => {
        seenWhileTraining = offer;
        training.stop();
      });
    });
    expect(savedWhileTraining).toBe(2);
    expect(seenWhileTraining).toBeNull();
    // The run is gone, its checkpoint left behind (a closed tab): now it is offered.
    store.saved = left;
    expect(await otherTab.savedRun()).toMatchObject({ iteration: 2, request: REQUEST });
  }, 120_000);
});
