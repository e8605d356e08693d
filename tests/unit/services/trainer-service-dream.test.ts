import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { inspectPolicyFile } from '../../../src/policy/policy-file.ts';
import { MemoryReplayStore } from '../../../src/replay/memory-store.ts';
import { ReplayBuffer } from '../../../src/replay/retrieval.ts';
import { ExperienceService } from '../../../src/services/experience-service.ts';
import { MemoryNeuralModelStore } from '../../../src/services/neural-model-store.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { TrainerService, type TrainerEvent, type TrainRequest } from '../../../src/services/trainer-service.ts';
import { START_AFTER } from '../../../src/experience/neural/prediction-pool.ts';
import { WORKERS_PAY_FROM } from '../../../src/jobs/prediction-worker-count.ts';
import { seededTransitions } from '../experience/fixtures.ts';

/**
 * A short dream run: a handful of GRPO iterations against the model, judged on 6 real test episodes.
 * On wasm throughout: nothing here is a digest, and the default networks on the cpu backend (plain
 * JS) made the runs several times as costly.
 */
const request: TrainRequest = {
  env: 'shop',
  algo: 'grpo',
  mode: 'dream',
  realBudget: 0,
  syntheticBudget: 400,
  seed: 1,
  finalEvalEpisodes: 6,
  curriculum: { lambda: 0.25 },
  algoConfig: { tasksPerIteration: 4, groupSize: 4, parallelEnvs: 16, minibatchSize: 64, epochs: 1 },
};

describe('dream-mode training in the app’s trainer service', () => {
  let replay: MemoryReplayStore;
  let models: MemoryNeuralModelStore;

  beforeAll(async () => {
    await useBackend(['wasm']);
    replay = new MemoryReplayStore();
    await (await ReplayBuffer.open(replay)).add(await seededTransitions('shop', 24, 2));
    // The app's path: the Experience view's service fits the model and keeps it in the model store.
    models = new MemoryNeuralModelStore();
    const experience = new ExperienceService({ openStore: async () => replay, openModelStore: async () => models, backends: ['wasm'] });
    await experience.fitNeural({ env: 'shop', epochs: 1, validationShare: 0 });
  }, 120_000);

  const service = () => new TrainerService({ openReplayStore: async () => replay, openModelStore: async () => models });

  it('trains against the saved neural model with 0 real transitions, writes synthetic experience back, and judges in the real env', async () => {
    // The model store starts empty, as before a person fits one: the first start fails and changes nothing.
    const later = new MemoryNeuralModelStore();
    const trainer = new TrainerService({ openReplayStore: async () => replay, openModelStore: async () => later });
    await trainer.init(['wasm']);
    await expect(trainer.train(request, () => {})).rejects.toThrow(/no neural experience model is fitted for shop/);
    expect(trainer.status().state).toBe('idle');
    await expect(trainer.exportPolicy()).rejects.toThrow(/nothing to export yet/);
    await later.put((await models.all())[0]!);

    const realBefore = await replay.count({ env: 'shop', source: 'real' });
    const events: TrainerEvent['kind'][] = [];
    const result = await trainer.train(request, (event) => events.push(event.kind));
    expect(trainer.status().state).toBe('done');
    expect(result.mode).toBe('dream');
    expect(result.realTransitions).toBe(0);
    expect(result.syntheticTransitions).toBeGreaterThan(0);
    expect(result.syntheticTransitions).toBeLessThanOrEqual(400);
    expect(result.dream?.experience).toMatch(/neural/);
    expect(result.dream?.offlineTransitions).toBe(realBefore);
    expect(result.eval?.episodes).toBe(6);
    expect(events).toContain('iteration');
    expect(events.at(-1)).toBe('done');
    // Synthetic transitions go to the store beside the real ones, which stay as they were.
    expect(await replay.count({ env: 'shop', source: 'synthetic' })).toBe(result.dream?.synthetic.writtenBack);
    expect(await replay.count({ env: 'shop', source: 'real' })).toBe(realBefore);
    const header = inspectPolicyFile(await trainer.exportPolicy());
    expect(header.training).toMatchObject({ mode: 'dream', realTransitions: 0, syntheticTransitions: result.syntheticTransitions });
  }, 120_000);

  it('says what is missing, and where to get it, before it trains', async () => {
    const noModel = new TrainerService({ openReplayStore: async () => replay, openModelStore: async () => new MemoryNeuralModelStore() });
    await expect(noModel.train(request, () => {})).rejects.toThrow(/no neural experience model is fitted for shop in this browser: fit one \(or import a \.dgx file\) in the Experience view first/);

    const emptyBuffer = new TrainerService({ openReplayStore: async () => new MemoryReplayStore(), openModelStore: async () => models });
    await expect(emptyBuffer.train(request, () => {})).rejects.toThrow(/holds no real shop transitions to retrieve from; seed it in the Buffer view first/);

    const broken = new MemoryNeuralModelStore();
    const saved = (await models.all())[0]!;
    await broken.put({ ...saved, bytes: saved.bytes.slice(0, saved.bytes.length - 10) });
    const brokenModel = new TrainerService({ openReplayStore: async () => replay, openModelStore: async () => broken });
    const tensors = tf.memory().numTensors;
    await expect(brokenModel.train(request, () => {})).rejects.toThrow(/the saved neural model for shop cannot be used \(.+\); fit it again or import a \.dgx file/);
    expect(tf.memory().numTensors).toBe(tensors);

    const noStore = new TrainerService({ openReplayStore: () => Promise.reject(new Error('QuotaExceededError')), openModelStore: async () => models });
    await expect(noStore.train(request, () => {})).rejects.toThrow(/retrieves from this browser's replay buffer, which could not be opened \(QuotaExceededError\)/);

    await expect(service().train({ ...request, syntheticBudget: 0 }, () => {})).rejects.toThrow(/Synthetic-transition budget must be an integer ≥ 1/);
    await expect(service().train({ ...request, mode: 's2r' as never }, () => {})).rejects.toThrow(/the app trains in: real, dream/);
  }, 60_000);

  it('stops a run asked to stop while it is still being set up, and refuses a second start meanwhile', async () => {
    const trainer = service();
    await trainer.init(['wasm']);
    const running = trainer.train({ ...request, syntheticBudget: 100_000 }, () => {});
    expect(trainer.status().state).toBe('starting');
    await expect(trainer.train(request, () => {})).rejects.toThrow(/already in progress/);
    trainer.stop();
    const result = await running;
    expect(result.stopped).toBe(true);
    expect(result.syntheticTransitions).toBe(0);
    expect(trainer.status().state).toBe('stopped');
  }, 60_000);

  it('tells the view when a long dream loses a prediction worker, and dreams on without it', async () => {
    // A dream long enough to start one (WORKERS_PAY_FROM); the spawner fails as a browser without
    // nested workers would. The run is stopped once the view has been told.
    const trainer = new TrainerService({
      openReplayStore: async () => replay,
      openModelStore: async () => models,
      predictionWorkers: { cores: 2, spawn: () => { throw new Error('Worker is not defined'); } },
    });
    await trainer.init(['wasm']);
    const events: TrainerEvent[] = [];
    const result = await trainer.train({ ...request, syntheticBudget: WORKERS_PAY_FROM }, (event) => {
      events.push(event);
      if (event.kind === 'prediction-worker-lost') trainer.stop();
    });
    expect(events.filter((e) => e.kind === 'prediction-worker-lost')).toEqual([
      { kind: 'prediction-worker-lost', message: 'a prediction worker could not be started (Worker is not defined); 0 worker(s) predict beside this thread' },
    ]);
    expect(result.stopped).toBe(true);
    expect(result.syntheticTransitions).toBeGreaterThanOrEqual(START_AFTER);
  }, 120_000);

  it('caps the synthetic write-back at the Buffer view’s limit', async () => {
    const small = new MemoryReplayStore();
    await (await ReplayBuffer.open(small)).add(await seededTransitions('shop', 24, 2));
    const real = await small.count({ source: 'real' });
    const trainer = new TrainerService({ openReplayStore: async () => small, openModelStore: async () => models });
    await trainer.init(['wasm']);
    const result = await trainer.train({ ...request, storeLimits: { cap: real + 50, evictReal: false } }, () => {});
    expect(result.syntheticTransitions).toBeGreaterThan(50);
    expect(await small.count()).toBeLessThanOrEqual(real + 50);
    expect(await small.count({ source: 'real' })).toBe(real);
  }, 120_000);
});
