/**
 * The Experience view's worker service, in Node over a MemoryReplayStore: teacher-forced steps of
 * an experience model beside the real environment, scored and averaged; the HTTP backend over an
 * injected fetch (a perfect model, a hung one stopped by hand or by its time limit); the page-side path (prepare, then resolve); and a
 * buffer that changes between episodes; and the neural model: fitted from the store (cpu backend),
 * stepped, kept across a new service (a reload), exported, imported, and a bad file refused.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DreamGymError, UsageError } from '../../../src/core/errors.ts';
import type { Task } from '../../../src/core/types.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import type { ChatMessage } from '../../../src/experience/llm/chat.ts';
import { renderAnswer } from '../../../src/experience/output.ts';
import { readPrompt } from '../../../src/experience/prompt-reader.ts';
import { ReplayBuffer } from '../../../src/replay/retrieval.ts';
import { MemoryReplayStore } from '../../../src/replay/memory-store.ts';
import { ModelFileError } from '../../../src/experience/neural/model-file.ts';
import { encodePolicyFile } from '../../../src/policy/dgp.ts';
import { ExperienceService, fidelityMeter } from '../../../src/services/experience-service.ts';
import type { NeuralFitEvent } from '../../../src/services/experience-protocol.ts';
import { MemoryNeuralModelStore, type NeuralModelStore } from '../../../src/services/neural-model-store.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { seededTransitions } from './fixtures.ts';

async function seededStore(episodes: number, seed = 1): Promise<MemoryReplayStore> {
  const store = new MemoryReplayStore();
  const buffer = await ReplayBuffer.open(store);
  await buffer.add(await seededTransitions('shop', episodes, seed));
  return store;
}

function serviceOver(store: MemoryReplayStore, fetch?: typeof globalThis.fetch): ExperienceService {
  return new ExperienceService({ openStore: async () => store, ...(fetch ? { fetch } : {}), now: () => 1 });
}

/** What the real shop does after `action` on test task `index`, having taken `before` first. */
async function realOutcome(index: number, before: string[], action: string) {
  const spec = envSpec('shop');
  const env = spec.createEnv();
  await env.reset(spec.tasks('test')[index] as Task);
  for (const a of before) await env.step(a);
  return env.step(action);
}

/** An OpenAI-compatible endpoint that answers as the real shop would: a perfect experience model. */
const perfectShopFetch: typeof fetch = async (_url, init) => {
  const body = JSON.parse(String(init?.body)) as { messages: ChatMessage[] };
  const step = readPrompt(body.messages);
  const spec = envSpec('shop');
  const index = spec.tasks('test').findIndex((t) => t.instruction === step.instruction);
  const result = await realOutcome(index, step.history, step.action);
  const content = renderAnswer({ reasoning: 'as the shop does', next: result.observation, reward: result.reward, done: result.done });
  return new Response(JSON.stringify({ choices: [{ message: { content }, finish_reason: 'stop' }] }), { status: 200, headers: { 'Content-Type': 'application/json' } });
};

describe('the experience service (kNN over the replay store)', () => {
  it('steps kNN beside the real shop from the real state, and scores each step into a running meter', async () => {
    const store = await seededStore(30);
    const service = serviceOver(store);
    // The default is the neural model; with none fitted for the shop, kNN answers and the info says so.
    expect(await service.experienceInfo()).toEqual({ kind: 'neural', name: 'neural', predictsOnPage: false });
    expect(await service.experienceInfo('shop')).toEqual({
      kind: 'neural', name: 'knn', predictsOnPage: false,
      fallback: 'No neural model is fitted for shop yet, so kNN answers.',
    });
    const start = await service.start('shop', 'test', 0);
    expect(start.task).not.toHaveProperty('goal');
    expect(start.observation.text).toMatch(/^page: search/);
    expect(start.buffer).toEqual({ env: 'shop', real: await store.count({ env: 'shop', source: 'real' }), synthetic: 0 });
    expect(start.buffer.real).toBeGreaterThan(30);

    const first = await service.step('search[running shoes]');
    expect(first.index).toBe(1);
    expect(first.admissible).toBe('search[running shoes]');
    expect(first.real.observation.text).toMatch(/^page: results/);
    expect(first.predicted.valid).toBe(true);
    expect(first.predicted.reasoning).toMatch(/^kNN: copied the outcome/);
    expect(first.predicted.next.text).toMatch(/^page: results/);
    expect(first.examples).toHaveLength(3);
    expect(first.examples[0]!.action).toMatch(/^search\[/);
    expect(first.examples[0]).not.toHaveProperty('vector');
    expect(first.score).not.toBeNull();
    expect(first.score!.nextStateF1).toBeGreaterThan(0);
    expect(first.score!.nextStateF1).toBeLessThanOrEqual(1);
    expect(first.meter).toMatchObject({ steps: 1, unscored: 0, invalidOutputs: 0, nextStateF1: first.score!.nextStateF1, actionSetF1: first.score!.actionSetF1 });
    expect(first.experience).toBe('knn');

    // The next step starts from the REAL results page, whatever kNN predicted.
    const product = first.real.observation.actions.find((a) => /^click\[b0/i.test(a)) as string;
    const second = await service.step(product);
    const expected = await realOutcome(0, ['search[running shoes]'], product);
    expect(second.real.observation.text).toBe(expected.observation.text);
    expect(second.index).toBe(2);
    expect(second.meter.steps).toBe(2);
    const scores = [first.score!, second.score!];
    expect(second.meter.nextStateF1).toBeCloseTo((scores[0]!.nextStateF1 + scores[1]!.nextStateF1) / 2, 10);
    expect(second.meter.doneAccuracy).toBe(1);
  });

  it('answers an action the state does not admit with the failure state, without scoring it', async () => {
    const service = serviceOver(await seededStore(10));
    await service.start('shop', 'test', 1);
    const step = await service.step('click[Buy Now]');
    expect(step.admissible).toBeNull();
    expect(step.predicted).toMatchObject({ valid: false, done: true, reward: 0 });
    expect(step.predicted.problem).toMatch(/not an admissible action/);
    expect(step.real.info.valid).toBe(false);
    expect(step.real.observation.text).toMatch(/^page: search/);
    expect(step.score).toBeNull();
    expect(step.meter).toMatchObject({ steps: 0, unscored: 1 });
    // The real episode goes on from the same state.
    const next = await service.step('search[mug]');
    expect(next.real.observation.text).toMatch(/^page: results/);
    expect(next.meter).toMatchObject({ steps: 1, unscored: 1 });
  });

  it('says to seed the buffer when it holds no real transitions of the env', async () => {
    const service = serviceOver(new MemoryReplayStore());
    const start = await service.start('shop', 'test', 0);
    expect(start.buffer.real).toBe(0);
    const step = await service.step('search[shoes]');
    expect(step.predicted.valid).toBe(false);
    expect(step.predicted.problem).toMatch(/seed it from the real environment first/);
    expect(step.examples).toEqual([]);
    expect(step.meter).toMatchObject({ steps: 1, invalidOutputs: 1 });
  });

  it('retrieves from what the store holds when an episode starts (the Buffer view seeds in another worker)', async () => {
    const store = new MemoryReplayStore();
    const service = serviceOver(store);
    await service.start('shop', 'test', 0);
    expect((await service.step('search[shoes]')).examples).toEqual([]);
    const buffer = await ReplayBuffer.open(store);
    await buffer.add(await seededTransitions('shop', 10));
    const start = await service.start('shop', 'test', 0);
    expect(start.buffer.real).toBeGreaterThan(10);
    const step = await service.step('search[shoes]');
    expect(step.examples.length).toBeGreaterThan(0);
    expect(step.predicted.valid).toBe(true);
  });

  it('plays the household too: kNN over an empty home buffer answers with the failure state, the real home moves on', async () => {
    const service = serviceOver(await seededStore(5));
    const start = await service.start('home', 'train', 0);
    expect(start.buffer).toEqual({ env: 'home', real: 0, synthetic: 0 });
    const action = start.observation.actions[0] as string;
    const step = await service.step(action);
    expect(step.admissible).toBe(action);
    expect(step.examples).toEqual([]);
    expect(step.predicted.valid).toBe(false);
    expect(step.real.info.valid).toBe(true);
    expect(step.score).toMatchObject({ valid: false });
  });

  it('refuses steps before a start and after the end, and a bad k, in words', async () => {
    const service = serviceOver(await seededStore(10));
    await expect(service.step('search[x]')).rejects.toThrow(/start an episode first/);
    await expect(service.start('garden', 'test', 0)).rejects.toThrow(UsageError);
    await expect(service.start('shop', 'test', 99_999)).rejects.toThrow(/task number must be between 0 and/);
    expect(() => service.setK(-1)).toThrow(/from 0 to 16/);
    expect(() => service.setK(17)).toThrow(/from 0 to 16/);
    expect(() => service.setK(1.5)).toThrow(/from 0 to 16/);
    service.setK(1);
    await service.start('shop', 'test', 0);
    expect((await service.step('search[shoes]')).examples).toHaveLength(1);
    // Play the oracle's way to Buy Now, then one more step is refused.
    const spec = envSpec('shop');
    const oracle = spec.createOracle();
    const env = spec.createEnv();
    const task = spec.tasks('test')[2] as Task;
    let obs = await env.reset(task);
    oracle.reset(task, obs);
    await service.start('shop', 'test', 2);
    for (let i = 0; i < 20; i++) {
      const action = oracle.act(obs);
      const step = await service.step(action);
      obs = (await env.step(action)).observation;
      if (step.real.done) break;
    }
    await expect(service.step('search[x]')).rejects.toThrow(/episode is over/);
  });

  it('keeps the meter until the backend changes or it is reset', async () => {
    const service = serviceOver(await seededStore(10));
    await service.start('shop', 'test', 0);
    await service.step('search[shoes]');
    expect(service.meter().steps).toBe(1);
    await service.start('shop', 'test', 1);
    expect(service.meter().steps).toBe(1);
    expect(service.resetMeter().steps).toBe(0);
    await service.step('search[shoes]');
    await service.chooseExperience({ kind: 'knn' });
    expect(service.meter()).toEqual(fidelityMeter([], 0));
  });
});

describe('the experience service with an HTTP endpoint', () => {
  it('asks the endpoint from the real state; a model that answers as the shop does scores perfectly', async () => {
    const service = serviceOver(await seededStore(10), perfectShopFetch);
    const info = await service.chooseExperience({ kind: 'http', settings: { endpoint: 'http://127.0.0.1:8080/v1', model: 'perfect' } });
    // The endpoint's time to answer a request, which the view shows beside the seconds waited.
    expect(info).toEqual({ kind: 'http', name: 'llm:http/perfect@127.0.0.1:8080', predictsOnPage: false, requestTimeoutMs: 60_000 });
    await service.start('shop', 'test', 3);
    const first = await service.step('search[comfortable shoes]');
    expect(first.predicted.reasoning).toBe('as the shop does');
    expect(first.score).toMatchObject({ nextStateF1: 1, actionSetF1: 1, rewardError: 0, doneRight: true, sameNextState: true, valid: true });
    const product = first.real.observation.actions.find((a) => /^click\[b0/i.test(a)) as string;
    const second = await service.step(product);
    expect(second.score).toMatchObject({ nextStateF1: 1, sameNextState: true });
    expect(second.meter).toMatchObject({ steps: 2, nextStateF1: 1, actionSetF1: 1, rewardMae: 0, exactNextState: 1 });
    expect(service.modelStats()).toMatchObject({ predictions: 2, invalidOutputs: 0 });
  });

  it('checks the address when the backend is chosen', async () => {
    const service = serviceOver(new MemoryReplayStore());
    await expect(service.chooseExperience({ kind: 'http', settings: { endpoint: 'my server', model: 'm' } })).rejects.toThrow(/not an absolute URL/);
    await expect(service.chooseExperience({ kind: 'http', settings: { endpoint: 'localhost:8080', model: 'm' } })).rejects.toThrow(/must start with http:\/\/ or https:\/\//);
    await expect(service.chooseExperience({ kind: 'http', settings: { endpoint: 'http://127.0.0.1:8080', model: ' ' } })).rejects.toThrow(/Name the model/);
    expect((await service.experienceInfo()).kind).toBe('neural');
  });

  it('stops a request that hangs, leaving the real environment where it was', async () => {
    let calls = 0;
    const hung: typeof fetch = (_url, init) => {
      calls++;
      return new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    };
    const service = serviceOver(await seededStore(5), hung);
    await service.chooseExperience({ kind: 'http', settings: { endpoint: 'http://127.0.0.1:8080', model: 'slow' } });
    await service.start('shop', 'test', 0);
    const stepping = service.step('search[shoes]');
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toBe(1);
    service.stop();
    await expect(stepping).rejects.toThrow(/stopped/);
    // The real env did not move: the same search from the start still works, with kNN.
    await service.chooseExperience({ kind: 'knn' });
    const step = await service.step('search[shoes]');
    expect(step.index).toBe(1);
    expect(step.real.observation.text).toMatch(/^page: results/);
  });

  it('gives up on an endpoint that never answers at its time limit, with a message that says so', async () => {
    const never: typeof fetch = (_url, init) => new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    const service = serviceOver(await seededStore(5), never);
    expect(await service.chooseExperience({ kind: 'http', settings: { endpoint: 'http://127.0.0.1:8080', model: 'hung', timeoutMs: 200 } })).toMatchObject({ requestTimeoutMs: 200 });
    await service.start('shop', 'test', 0);
    // The message the Experience view shows in its alert: what did not answer, in how long, and what to do.
    await expect(service.step('search[shoes]')).rejects.toThrow(/^http:\/\/127\.0\.0\.1:8080\/v1\/chat\/completions did not answer within 0\.2 s\. The server may be busy or the model \(hung\) too slow/);
    await service.chooseExperience({ kind: 'knn' });
    expect((await service.step('search[shoes]')).index).toBe(1);
  });
});

describe('the experience service with the model on the page (WebLLM)', () => {
  it('prepares the input with retrieved examples and no goal, then scores the prediction handed back', async () => {
    const service = serviceOver(await seededStore(10));
    const info = await service.chooseExperience({ kind: 'webllm', settings: { modelId: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC' } });
    expect(info).toEqual({ kind: 'webllm', name: 'llm:webllm/Qwen2.5-0.5B-Instruct-q4f32_1-MLC', predictsOnPage: true });
    await service.start('shop', 'test', 0);
    await expect(service.step('search[shoes]')).rejects.toThrow(/runs on the page/);
    await expect(service.resolve({ reasoning: '', next: { text: 'x', actions: [] }, reward: 0, done: false, valid: true })).rejects.toThrow(/prepare a step/);

    const prepared = await service.prepare('search[shoes]');
    if (prepared.kind !== 'ask') throw new Error('expected the model to be asked');
    expect(prepared.input.task).not.toHaveProperty('goal');
    expect(prepared.input.episodeId).toBeUndefined();
    expect(prepared.input.history).toEqual([]);
    expect(prepared.input.examples).toHaveLength(3);
    expect(prepared.input.examples[0]).not.toHaveProperty('vector');
    expect(prepared.examples.map((e) => e.id)).toEqual(prepared.input.examples.map((e) => e.id));

    const real = await realOutcome(0, [], 'search[shoes]');
    const step = await service.resolve({ reasoning: 'a search shows results', next: real.observation, reward: 0, done: false, valid: true });
    expect(step.experience).toBe('llm:webllm/Qwen2.5-0.5B-Instruct-q4f32_1-MLC');
    expect(step.score).toMatchObject({ nextStateF1: 1, actionSetF1: 1, sameNextState: true });
    expect(step.meter.steps).toBe(1);

    // A malformed prediction from the page is the failure state, scored as such.
    const product = step.real.observation.actions.find((a) => /^click\[b0/i.test(a)) as string;
    await service.prepare(product);
    const bad = await service.resolve({ next: null } as never);
    expect(bad.predicted).toMatchObject({ valid: false, problem: 'the prediction handed to the service is malformed' });
    expect(bad.meter).toMatchObject({ steps: 2, invalidOutputs: 1 });

    const inadmissible = await service.prepare('click[Nowhere]');
    expect(inadmissible.kind).toBe('inadmissible');
  });
});

describe('the experience service with the neural model (tfjs cpu in Node)', () => {
  let store: MemoryReplayStore;
  beforeAll(async () => {
    await useBackend(['cpu']);
    store = await seededStore(24, 2);
  });

  const neuralService = (models: NeuralModelStore) =>
    new ExperienceService({ openStore: async () => store, openModelStore: async () => models, backends: ['cpu'], now: () => 1_700_000_000_000 });

  /** Step 1 of shop test task 0 with whatever answers under the current backend. */
  async function firstStep(service: ExperienceService) {
    await service.start('shop', 'test', 0);
    return service.step('search[running shoes]');
  }

  it('fits from the store with progress, then steps with it (and kNN still answers for an env without one)', async () => {
    const models = new MemoryNeuralModelStore();
    const service = neuralService(models);
    expect((await service.neuralStatus('shop')).model).toBeNull();
    const events: NeuralFitEvent[] = [];
    const fit = await service.fitNeural({ env: 'shop', epochs: 2, validationShare: 0.3, batchSize: 128 }, (e) => events.push(e));
    expect(fit.backend).toBe('cpu');
    expect(events.every((e) => e.backend === 'cpu' && e.env === 'shop')).toBe(true);
    expect(events[0]!.phase).toBe('prepare');
    expect(events.some((e) => e.phase === 'train' && e.epoch === 2 && e.done === e.total)).toBe(true);
    const validated = events.filter((e) => e.validation);
    expect(validated.map((e) => e.epoch)).toEqual([1, 2]);
    expect(validated[1]!.validation!.nextStateF1).toBeGreaterThan(0);

    expect(fit.model).toMatchObject({ env: 'shop', origin: 'fitted', fittedOn: 'cpu', saved: true, createdAt: '2023-11-14T22:13:20.000Z' });
    expect(fit.model.transitions).toBeGreaterThan(50);
    expect(fit.model.validationTransitions).toBeGreaterThan(0);
    expect(fit.model.history.map((h) => h.epoch)).toEqual([1, 2]);
    expect(fit.model.history[1]!.validation).toEqual(validated[1]!.validation);
    expect(models.records.get('shop')?.bytes.byteLength).toBe(fit.model.bytes);
    expect(await service.experienceInfo('shop')).toEqual({ kind: 'neural', name: 'neural', predictsOnPage: false });
    expect((await service.experienceInfo('home')).fallback).toMatch(/No neural model is fitted for home/);

    const step = await firstStep(service);
    expect(step.experience).toBe('neural');
    expect(step.predicted.valid).toBe(true);
    expect(step.predicted.reasoning.length).toBeGreaterThan(0);
    expect(step.predicted.next.text).toMatch(/^page: /);
    expect(typeof step.predicted.reward).toBe('number');
    expect(typeof step.predicted.done).toBe('boolean');
    expect(step.examples).toHaveLength(3);
    expect(step.score).not.toBeNull();
    expect(step.meter.steps).toBe(1);
    expect(service.modelStats()).toMatchObject({ predictions: 1 });

    // Choosing kNN by hand uses kNN, whatever is fitted.
    await service.chooseExperience({ kind: 'knn' });
    expect((await firstStep(service)).experience).toBe('knn');
  }, 120_000);

  it('keeps the model for the next session (a reload), exports it and imports it; a bad file changes nothing', async () => {
    const models = new MemoryNeuralModelStore();
    const first = neuralService(models);
    await first.fitNeural({ env: 'shop', epochs: 1, batchSize: 128 });
    const before = await firstStep(first);

    // A new service over the same storage: the model is there, and predicts the same.
    const reloaded = neuralService(models);
    const status = await reloaded.neuralStatus('shop');
    expect(status.model).toMatchObject({ env: 'shop', origin: 'fitted', saved: true });
    const after = await firstStep(reloaded);
    expect(after.experience).toBe('neural');
    expect(after.predicted).toEqual(before.predicted);

    const bytes = await reloaded.exportNeural('shop');
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('DGXF');
    await expect(reloaded.exportNeural('home')).rejects.toThrow(/no neural model is fitted for home/);

    // Into a service with nothing saved: the file brings the model and its history.
    const other = neuralService(new MemoryNeuralModelStore());
    const info = await other.importNeural(bytes, 'shop-neural.dgx');
    expect(info).toMatchObject({ env: 'shop', origin: 'imported', fittedOn: 'cpu', fileName: 'shop-neural.dgx', saved: true, bytes: bytes.byteLength });
    expect(info.history).toEqual(status.model!.history);
    expect((await firstStep(other)).predicted).toEqual(before.predicted);

    // Bad files: each refused with what is wrong, and the imported model stays in use.
    const garbage = new TextEncoder().encode('not a model at all');
    await expect(other.importNeural(garbage, 'notes.txt')).rejects.toThrow(ModelFileError);
    const dgp = encodePolicyFile(
      { env: 'shop', algorithm: 'grpo', backend: 'cpu', architecture: {}, featurizer: {}, training: {}, evaluation: null, createdAt: '2025-01-01T00:00:00.000Z' },
      [{ name: 'w', shape: [2], data: new Float32Array([1, 2]) }],
    );
    await expect(other.importNeural(dgp, 'policy.dgx')).rejects.toThrow(/policy file \(\.dgp\), not an experience model file/);
    const truncated = bytes.subarray(0, bytes.byteLength - 16);
    await expect(other.importNeural(truncated, 'cut.dgx')).rejects.toThrow(ModelFileError);
    expect((await other.neuralStatus('shop')).model).toMatchObject({ origin: 'imported', fileName: 'shop-neural.dgx' });
    expect((await firstStep(other)).predicted).toEqual(before.predicted);

    // Forgetting it brings kNN back, here and after a reload.
    const saved = new MemoryNeuralModelStore();
    const forgetful = neuralService(saved);
    await forgetful.importNeural(bytes);
    await forgetful.forgetNeural('shop');
    expect(saved.records.size).toBe(0);
    expect((await forgetful.experienceInfo('shop')).name).toBe('knn');
  }, 120_000);

  it('stops a fit on request and keeps the model it had; refuses a second fit and bad epochs', async () => {
    const models = new MemoryNeuralModelStore();
    const service = neuralService(models);
    const fitted = await service.fitNeural({ env: 'shop', epochs: 1, batchSize: 128 });
    await expect(service.fitNeural({ env: 'shop', epochs: 0 })).rejects.toThrow(UsageError);
    await expect(service.fitNeural({ env: 'garden' })).rejects.toThrow(UsageError);

    let stopped = false;
    const running = service.fitNeural({ env: 'shop', epochs: 3, batchSize: 128, seed: 9 }, (e) => {
      if (e.phase === 'train' && !stopped) {
        stopped = true;
        service.stopFit();
      }
    });
    await expect(service.fitNeural({ env: 'shop', epochs: 1 })).rejects.toThrow(/being fitted already/);
    await expect(running).rejects.toThrow(/The fit was stopped; shop keeps the model it had/);
    await expect(running).rejects.toBeInstanceOf(DreamGymError);
    const status = await service.neuralStatus('shop');
    expect(status.fitting).toBe(false);
    expect(status.model).toEqual(fitted.model);
    expect(models.records.get('shop')?.info.createdAt).toBe(fitted.model.createdAt);
    expect((await firstStep(service)).experience).toBe('neural');

    // With nothing fitted before, a stopped fit leaves kNN answering.
    const fresh = neuralService(new MemoryNeuralModelStore());
    const again = fresh.fitNeural({ env: 'shop', epochs: 2 }, (e) => { if (e.phase === 'train') fresh.stopFit(); });
    await expect(again).rejects.toThrow(/shop still has none, so kNN answers there/);
    expect((await fresh.experienceInfo('shop')).name).toBe('knn');
  }, 120_000);

  it('falls back to kNN, and says why, when the saved model cannot be used', async () => {
    const models = new MemoryNeuralModelStore();
    await neuralService(models).fitNeural({ env: 'shop', epochs: 1, batchSize: 128 });
    const record = models.records.get('shop')!;
    await models.put({ ...record, bytes: record.bytes.subarray(0, 64) });
    const service = neuralService(models);
    const info = await service.experienceInfo('shop');
    expect(info.name).toBe('knn');
    expect(info.fallback).toMatch(/^The saved neural model for shop cannot be used \(.+\); fit it again or import a \.dgx file\. kNN answers meanwhile\.$/);
    expect((await service.neuralStatus('shop')).model?.problem).toMatch(/cannot be used/);
    expect((await firstStep(service)).experience).toBe('knn');
  }, 60_000);

  it('says what to do when the buffer holds no real transitions of the env', async () => {
    const service = neuralService(new MemoryNeuralModelStore());
    await expect(service.fitNeural({ env: 'home', epochs: 1 })).rejects.toThrow(/no real home transitions.*seed it/);
    expect((await service.neuralStatus('home')).fitting).toBe(false);
  });
});
