import { MessageChannel } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Observation, Task, Transition } from '../../../src/core/types.ts';
import { Rng } from '../../../src/core/rng.ts';
import { fitNeuralModel } from '../../../src/experience/neural/fit.ts';
import type { NeuralExperienceModel } from '../../../src/experience/neural/model.ts';
import { exportNeuralModel, importNeuralModel } from '../../../src/experience/neural/model-io.ts';
import { MIN_SHARD, PredictionPool, START_AFTER, type PredictionWorker, type PredictionWorkers } from '../../../src/experience/neural/prediction-pool.ts';
import { servePredictions } from '../../../src/experience/neural/prediction-server.ts';
import { WireDecoder, WireEncoder, WireNumbers } from '../../../src/experience/neural/prediction-wire.ts';
import type { ExperienceInput } from '../../../src/experience/types.ts';
import { nodePredictionWorkers } from '../../../src/jobs/node-prediction-workers.ts';
import { defaultPredictionWorkers, WORKERS_PAY_FROM } from '../../../src/jobs/prediction-worker-count.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { seededBuffer } from './fixtures.ts';

const info = { backend: 'wasm', training: {}, evaluation: null, createdAt: '2026-12-07T00:00:00.000Z' };

/** A worker on this thread: the real server over a MessageChannel, as a worker thread serves it. */
function inProcessWorker(hooks: { onPredict?: (stop: (reason: string) => void) => boolean; onLoad?: () => boolean } = {}): PredictionWorker & { terminated: boolean } {
  const { port1, port2 } = new MessageChannel();
  servePredictions({ post: (m) => port2.postMessage(m), onMessage: (handle) => port2.on('message', handle) });
  let stopped: ((reason: string) => void) | null = null;
  const worker = {
    terminated: false,
    port: {
      post: (m: unknown) => {
        // A hook may stop the worker instead of letting the message through (a crash mid-shard), or
        // swallow it (a worker that hangs).
        const type = (m as { type: string }).type;
        if (type === 'predict' && hooks.onPredict?.((reason) => stopped?.(reason))) return;
        if (type === 'load' && hooks.onLoad?.()) return;
        port1.postMessage(m);
      },
      onMessage: (handle: (m: unknown) => void) => port1.on('message', handle),
    },
    onStop: (handle: (reason: string) => void) => {
      stopped = handle;
    },
    terminate: () => {
      worker.terminated = true;
      port1.close();
      port2.close();
    },
  };
  return worker;
}

describe('the wire a pool sends its inputs on', () => {
  const task: Task = { id: 't', instruction: 'buy a lamp' } as Task;
  const state = (n: number): Observation => ({ text: `page ${n}`, actions: ['click[next]'] });
  const example = (n: number): Transition => ({ runId: 'r', taskId: 't', env: 'shop', instruction: 'buy a lamp', history: [], state: state(n), action: 'click[next]', next: state(n + 1), reward: 0, done: false, source: 'real', createdAt: 0 });

  it('sends each object once, then by number, and the worker reads back what was sent, object for object', () => {
    const encoder = new WireEncoder(new WireNumbers(), 8);
    const decoder = new WireDecoder(8);
    const examples = [example(1), example(2)];
    const first: ExperienceInput = { task, history: [], state: state(0), action: 'click[a]', examples };
    const second: ExperienceInput = { task, history: [{ state: first.state, action: 'click[a]' }], state: state(5), action: 'click[b]', examples };
    const sentFirst = encoder.encode([first]);
    const sentSecond = encoder.encode([second]);
    // The second message names the task, the first state and both examples by number only.
    expect(sentSecond[0]?.task).toBeTypeOf('number');
    expect(sentSecond[0]?.history[0]?.state).toBeTypeOf('number');
    expect(sentSecond[0]?.examples.every((e) => typeof e === 'number')).toBe(true);
    const [a] = decoder.decode(structuredClone(sentFirst));
    const [b] = decoder.decode(structuredClone(sentSecond));
    expect(a).toEqual(first);
    expect(b).toEqual(second);
    // The worker holds one object per object sent: its memos, keyed by object, hit again.
    expect(b?.examples[0]).toBe(a?.examples[0]);
    expect(b?.history[0]?.state).toBe(a?.state);
  });

  it('forgets on both ends alike: an object pushed out is sent again in full', () => {
    const encoder = new WireEncoder(new WireNumbers(), 3);
    const decoder = new WireDecoder(3);
    const kept = example(1);
    const rng = new Rng(1);
    for (let step = 0; step < 50; step++) {
      // Every step names the same example and fresh states, which push older entries out of a table of 3.
      const input: ExperienceInput = { task, history: [], state: state(100 + step), action: 'click[a]', examples: rng.next() < 0.5 ? [kept] : [kept, example(200 + step)] };
      const [decoded] = decoder.decode(structuredClone(encoder.encode([input])));
      expect(decoded).toEqual(input);
    }
  });

  it('a number the worker does not hold is a bug, said as one', () => {
    expect(() => new WireDecoder(4).decode([{ task: 7, history: [], state: 8, action: 'x', examples: [] }])).toThrow(/object 7 was never sent/);
  });
});

describe('a prediction pool', () => {
  let model: NeuralExperienceModel;
  let bytes: Uint8Array;
  let batch: ExperienceInput[];
  const pools: PredictionPool[] = [];
  const pool = (workers: number | PredictionWorkers) => {
    const made = new PredictionPool(importNeuralModel(bytes).model, bytes, typeof workers === 'number' ? nodePredictionWorkers({ count: workers }) : workers);
    pools.push(made);
    return made;
  };

  beforeAll(async () => {
    await useBackend(['wasm']);
    const buffer = await seededBuffer('shop', 6, 2);
    const fit = await fitNeuralModel({ buffer, env: 'shop', epochs: 1, validationShare: 0 });
    model = fit.model;
    bytes = await exportNeuralModel(model, info);
    batch = fit.inputs.map((x) => x.input).slice(0, 20);
    expect(batch.length).toBeGreaterThanOrEqual(3 * MIN_SHARD);
  }, 120_000);

  afterAll(() => {
    for (const p of pools) p.dispose();
    model.dispose();
  });

  it('predicts on worker threads what the model predicts alone, likeliest and sampled, and counts every prediction', async () => {
    const threads = pool(2);
    await threads.ready();
    expect(threads.workerCount).toBe(2);
    expect(await threads.predict(batch)).toEqual(await model.predict(batch));
    const alone = new Rng('imagine');
    const pooled = new Rng('imagine');
    for (let round = 0; round < 2; round++) {
      expect(await threads.predict(batch, { random: () => pooled.next() })).toEqual(await model.predict(batch, { random: () => alone.next() }));
    }
    // Each input draws from its own stream: the batch split another way (or not at all) imagines the same.
    expect(alone.state()).toEqual(pooled.state());
    expect(threads.stats().predictions).toBe(3 * batch.length);
  }, 120_000);

  it('starts its workers only after this thread has predicted START_AFTER inputs, and predicts a batch too small to split here', async () => {
    let spawned = 0;
    let shards = 0;
    const late = pool({ count: 1, spawn: () => (spawned++, inProcessWorker({ onPredict: () => (shards++, false) })) });
    let predicted = 0;
    while (predicted + batch.length < START_AFTER) {
      await late.predict(batch);
      predicted += batch.length;
    }
    expect(spawned).toBe(0);
    await late.predict(batch);
    expect(spawned).toBe(1);
    await late.ready();
    expect(late.workerCount).toBe(1);
    expect(await late.predict(batch)).toEqual(await model.predict(batch));
    expect(shards).toBe(1);
    const few = batch.slice(0, 2 * MIN_SHARD - 1);
    expect(await late.predict(few)).toEqual(await model.predict(few));
    expect(shards).toBe(1);
  }, 120_000);

  it('drops a worker that stops mid-shard, predicts its shard here with the same draws, and says so', async () => {
    const lost: string[] = [];
    let crash = false;
    const crashing = inProcessWorker({ onPredict: (stop) => (crash ? (stop('killed by the test'), true) : false) });
    const flaky = pool({ count: 1, spawn: () => crashing, onWorkerLost: (reason) => lost.push(reason) });
    await flaky.ready();
    expect(flaky.workerCount).toBe(1);
    crash = true;
    const alone = new Rng(9);
    const pooled = new Rng(9);
    expect(await flaky.predict(batch, { random: () => pooled.next() })).toEqual(await model.predict(batch, { random: () => alone.next() }));
    expect(flaky.workerCount).toBe(0);
    expect(crashing.terminated).toBe(true);
    expect(lost).toEqual([expect.stringMatching(/a prediction worker was lost \(it stopped \(killed by the test\)\); its shard is predicted on this thread, and 0 worker\(s\) go on/)]);
    expect(await flaky.predict(batch)).toEqual(await model.predict(batch));
  }, 60_000);

  it('ends a worker that hangs on a shard or on loading the model, predicts its shard here, and says so', async () => {
    const lost: string[] = [];
    let hang = false;
    const hanging = inProcessWorker({ onPredict: () => hang });
    const hangLimits = { loadMs: 300, shardMs: 200 };
    const stuck = pool({ count: 1, spawn: () => hanging, onWorkerLost: (reason) => lost.push(reason), hangLimits });
    await stuck.ready();
    expect(stuck.workerCount).toBe(1);
    hang = true;
    const alone = new Rng(4);
    const pooled = new Rng(4);
    expect(await stuck.predict(batch, { random: () => pooled.next() })).toEqual(await model.predict(batch, { random: () => alone.next() }));
    expect(stuck.workerCount).toBe(0);
    expect(hanging.terminated).toBe(true);
    expect(lost).toEqual([expect.stringMatching(/^a prediction worker was lost \(it did not answer a shard within [\d.]+ s of this thread predicting its own\); its shard is predicted on this thread/)]);

    // One that never says it has loaded the model is left out once loadMs has passed; nothing waits on it but ready().
    const silent = inProcessWorker({ onLoad: () => true });
    const unloaded = pool({ count: 1, spawn: () => silent, onWorkerLost: (reason) => lost.push(reason), hangLimits });
    await unloaded.ready();
    expect(unloaded.workerCount).toBe(0);
    expect(silent.terminated).toBe(true);
    expect(lost[1]).toBe('a prediction worker was left out: it did not load the model within 0.3 s');
    expect(await unloaded.predict(batch)).toEqual(await model.predict(batch));
  }, 60_000);

  it('leaves out a worker that cannot start or cannot load the model, and predicts without it', async () => {
    const lost: string[] = [];
    const unstartable = pool({ count: 1, spawn: () => { throw new Error('Worker is not defined'); }, onWorkerLost: (reason) => lost.push(reason) });
    await unstartable.ready();
    expect(await unstartable.predict(batch)).toEqual(await model.predict(batch));
    expect(lost).toEqual(['a prediction worker could not be started (Worker is not defined); 0 worker(s) predict beside this thread']);

    // A worker whose copy of the file is cut short refuses it and is left out; this thread predicts alone.
    const cut = new PredictionPool(importNeuralModel(bytes).model, bytes.slice(0, 200), { count: 1, spawn: () => inProcessWorker(), onWorkerLost: (reason) => lost.push(reason) });
    pools.push(cut);
    await cut.ready();
    expect(cut.workerCount).toBe(0);
    expect(lost[1]).toMatch(/^a prediction worker was left out: it could not load the model: .+/);
    expect(await cut.predict(batch)).toEqual(await model.predict(batch));
  }, 60_000);

  it('starts one worker per core to spare, at most 3, and none for a run too short to repay them', () => {
    expect([1, 2, 4, 8, 64].map((cores) => defaultPredictionWorkers(cores))).toEqual([0, 1, 3, 3, 3]);
    expect(defaultPredictionWorkers(8, WORKERS_PAY_FROM - 1)).toBe(0);
    expect(defaultPredictionWorkers(8, WORKERS_PAY_FROM)).toBe(3);
  });
});
