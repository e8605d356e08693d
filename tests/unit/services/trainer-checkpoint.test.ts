/**
 * The app's runs survive a reload: the trainer service saves the run in progress to its checkpoint
 * store, offers it (with its curve) to a new service over the same store, resumes it to the digest
 * of the uninterrupted run, and forgets it once a run ends.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '../../../src/platform/tf.ts';
import { MemoryReplayStore } from '../../../src/replay/memory-store.ts';
import { MemoryCheckpointStore, type CheckpointStore } from '../../../src/services/checkpoint-store.ts';
import { MemoryNeuralModelStore } from '../../../src/services/neural-model-store.ts';
import { TrainerService, type TrainerEvent, type TrainRequest } from '../../../src/services/trainer-service.ts';

const REQUEST: TrainRequest = {
  env: 'shop',
  algo: 'grpo',
  mode: 'real',
  realBudget: 250,
  seed: 4,
  maxDifficulty: 4,
  finalEvalEpisodes: 10,
  curriculum: { lambda: 0.5 },
  checkpointEverySeconds: 0,
  algoConfig: { tasksPerIteration: 2, groupSize: 4, parallelEnvs: 8, epochs: 1 },
};

/**
 * On wasm: the resume reaches the same digest on either backend, and the default network's products
 * on the cpu backend (plain JS) made these runs about five times as costly.
 */
async function service(checkpoints: CheckpointStore<TrainRequest>): Promise<TrainerService> {
  const trainer = new TrainerService({ openReplayStore: async () => new MemoryReplayStore(), openModelStore: async () => new MemoryNeuralModelStore(), openCheckpointStore: async () => checkpoints });
  await trainer.init(['wasm']);
  return trainer;
}

describe('the trainer service keeps the run in progress', () => {
  beforeAll(async () => {
    await useBackend(['wasm']);
  });

  it('offers an interrupted run with its curve, resumes it to the uninterrupted digest, and forgets it when the run ends', async () => {
    const whole = await (await service(new MemoryCheckpointStore<TrainRequest>())).train(REQUEST, () => {});

    // The same run; what its store held after iteration 2 is what a reload during iteration 3 finds.
    const store = new MemoryCheckpointStore<TrainRequest>();
    const events: TrainerEvent[] = [];
    let afterTwo: MemoryCheckpointStore<TrainRequest>['saved'];
    await (await service(store)).train(REQUEST, (event) => {
      events.push(event);
      if (event.kind === 'checkpoint' && event.iteration === 2) afterTwo = store.saved;
    });
    expect(events.filter((e) => e.kind === 'checkpoint').length).toBeGreaterThanOrEqual(whole.iterations);
    expect(store.saved).toBeUndefined(); // the run ended: nothing to resume
    expect(afterTwo).toBeDefined();

    store.saved = afterTwo;
    const reloaded = await service(store);
    const offer = await reloaded.savedRun();
    expect(offer).toMatchObject({ request: REQUEST, backend: 'wasm', iteration: 2 });
    expect(offer?.history.map((m) => m.iteration)).toEqual([1, 2]);
    const resumed = await reloaded.resumeSavedRun(() => {});
    expect(resumed.eval?.actionsDigest).toBe(whole.eval?.actionsDigest);
    expect(resumed.history.map((m) => m.successRate)).toEqual(whole.history.map((m) => m.successRate));
    expect(resumed.realTransitions).toBe(whole.realTransitions);
    expect(await reloaded.savedRun()).toBeNull();
  });

  it('a damaged checkpoint is refused with what to do, and can be discarded', async () => {
    const store = new MemoryCheckpointStore<TrainRequest>();
    const trainer = await service(store);
    let saved: MemoryCheckpointStore<TrainRequest>['saved'];
    await trainer.train({ ...REQUEST, realBudget: 100_000 }, (event) => {
      if (event.kind === 'checkpoint' && event.iteration === 1) {
        saved = store.saved;
        trainer.stop();
      }
    });
    expect(saved).toBeDefined();
    store.saved = { ...(saved as NonNullable<typeof saved>), bytes: (saved as NonNullable<typeof saved>).bytes.slice(0, 100) };
    const reloaded = await service(store);
    await expect(reloaded.resumeSavedRun(() => {})).rejects.toThrow(/the saved run cannot be resumed: .*truncated.*Discard it and start the run again/);
    expect(reloaded.status().state).toBe('idle');
    await reloaded.discardSavedRun();
    expect(await reloaded.savedRun()).toBeNull();
    await expect(reloaded.resumeSavedRun(() => {})).rejects.toThrow(/no interrupted run to resume/);
  });

  it('a store that refuses a save is reported and the run trains on', async () => {
    const full: CheckpointStore<TrainRequest> = {
      get: async () => undefined,
      put: async () => {
        throw new DOMException('the quota is exceeded', 'QuotaExceededError');
      },
      delete: async () => {},
    };
    const events: TrainerEvent[] = [];
    const result = await (await service(full)).train({ ...REQUEST, realBudget: 150 }, (e) => events.push(e));
    expect(result.stopped).toBe(false);
    expect(events.find((e) => e.kind === 'checkpoint-failed')).toMatchObject({ message: expect.stringMatching(/could not be saved to this browser \(the quota is exceeded\); it trains on/) });
  });

  it('keeps a run that names a slot (the guided run\'s) apart from the Train view\'s, and resumes it from there', async () => {
    const store = new MemoryCheckpointStore<TrainRequest>();
    const guided: TrainRequest = { ...REQUEST, checkpointSlot: 'guide-real' };
    let afterOne: Awaited<ReturnType<typeof store.get>>;
    await (await service(store)).train(guided, (event) => {
      if (event.kind === 'checkpoint' && event.iteration === 1) void store.get('guide-real').then((saved) => (afterOne ??= saved));
    });
    // Saved in its slot only, and forgotten there when it ended; the Train view's slot never held it.
    expect(afterOne).toMatchObject({ iteration: 1, request: guided });
    expect(store.saved).toBeUndefined();
    expect(await store.get('guide-real')).toBeUndefined();

    await store.put(afterOne as NonNullable<typeof afterOne>, 'guide-real');
    const reloaded = await service(store);
    // The Train view is offered nothing; the slot's owner is, and resumes it (to the uninterrupted
    // digest, as the first case shows for the Train view's slot) to its end.
    expect(await reloaded.savedRun()).toBeNull();
    expect(await reloaded.savedRun('guide-real')).toMatchObject({ iteration: 1 });
    const resumed = await reloaded.resumeSavedRun(() => {}, 'guide-real');
    expect(resumed.history[0]?.iteration).toBe(1);
    expect(resumed.eval?.episodes).toBe(REQUEST.finalEvalEpisodes);
    expect(await store.get('guide-real')).toBeUndefined();
  }, 120_000);
});
