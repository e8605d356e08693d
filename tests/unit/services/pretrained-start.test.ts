/**
 * The app's pretrained start: the Train view's request names the pretrained policy's URL and the
 * Experience view's fit the pretrained model's; the workers fetch them over HTTP when the run or
 * the fit starts (services/pretrained-fetch.ts). Here a local server plays the app's build.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectPolicyFile, exportPolicy } from '../../../src/policy/policy-file.ts';
import { DEFAULT_POLICY, Policy } from '../../../src/policy/policy.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { MemoryReplayStore } from '../../../src/replay/memory-store.ts';
import { ReplayBuffer } from '../../../src/replay/retrieval.ts';
import { ExperienceService } from '../../../src/services/experience-service.ts';
import { MemoryNeuralModelStore } from '../../../src/services/neural-model-store.ts';
import { fetchPretrained } from '../../../src/services/pretrained-fetch.ts';
import { TrainerService, type TrainRequest } from '../../../src/services/trainer-service.ts';
import { seededTransitions } from '../experience/fixtures.ts';

const files = new Map<string, Uint8Array>();
let server: Server;
let base = '';
let replay: MemoryReplayStore;

beforeAll(async () => {
  await useBackend(['wasm']);
  replay = new MemoryReplayStore();
  await (await ReplayBuffer.open(replay)).add(await seededTransitions('shop', 16, 2));
  const policy = new Policy(DEFAULT_POLICY, 11);
  files.set('/pretrained/policy.dgp', await exportPolicy(policy, { env: 'shop', algorithm: 'ppo', backend: 'wasm', training: { mode: 'real' }, evaluation: null, createdAt: '2026-12-06T00:00:00.000Z' }));
  policy.dispose();
  files.set('/pretrained/truncated.dgp', files.get('/pretrained/policy.dgp')!.slice(0, 4000));
  // The model: a one-epoch fit, exported as the app exports one.
  const models = new MemoryNeuralModelStore();
  const experience = new ExperienceService({ openStore: async () => replay, openModelStore: async () => models, backends: ['wasm'] });
  await experience.fitNeural({ env: 'shop', epochs: 1, validationShare: 0 });
  files.set('/pretrained/model.dgx', await experience.exportNeural('shop'));
  server = createServer((request, response) => {
    const body = files.get(request.url ?? '');
    if (!body) return void response.writeHead(404).end('not found');
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.byteLength }).end(Buffer.from(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const request = (init?: { url: string }): TrainRequest => ({
  env: 'shop',
  algo: 'grpo',
  mode: 'real',
  realBudget: 32,
  seed: 1,
  finalEvalEpisodes: 2,
  algoConfig: { tasksPerIteration: 2, groupSize: 4, parallelEnvs: 8, minibatchSize: 32, epochs: 1 },
  ...(init ? { init } : {}),
});

describe('the pretrained start in the app’s workers', () => {
  it('starts a run from the policy at the request’s URL, and says which file it was by its digest', async () => {
    const trainer = new TrainerService({ openReplayStore: async () => replay, openModelStore: async () => new MemoryNeuralModelStore() });
    await trainer.init(['wasm']);
    const url = `${base}/pretrained/policy.dgp`;
    const result = await trainer.train(request({ url }), () => {});
    expect(result.initialPolicy).toMatchObject({ name: `pretrained (${url})`, env: 'shop', algorithm: 'ppo', weightsSha256: inspectPolicyFile(files.get('/pretrained/policy.dgp')!).weightsSha256 });
    expect(inspectPolicyFile(await trainer.exportPolicy()).training).toMatchObject({ initialPolicy: { algorithm: 'ppo' } });
    const fresh = await trainer.train(request(), () => {});
    expect(fresh.initialPolicy).toBeUndefined();
  }, 120_000);

  it('refuses a build without the weights, or a broken file, before the run starts, and names what to do', async () => {
    const trainer = new TrainerService({ openReplayStore: async () => replay, openModelStore: async () => new MemoryNeuralModelStore() });
    await trainer.init(['wasm']);
    await expect(trainer.train(request({ url: `${base}/pretrained/missing.dgp` }), () => {})).rejects.toThrow(/the pretrained web policy is not available at .*missing\.dgp: this build does not ship it .*; start from a fresh policy/);
    expect(trainer.status().state).toBe('idle');
    await expect(trainer.train(request({ url: `${base}/pretrained/truncated.dgp` }), () => {})).rejects.toThrow(/--init pretrained \(.*truncated\.dgp\): .*truncated/);
    expect(trainer.status().state).toBe('idle');
    await expect(fetchPretrained('http://127.0.0.1:1/policy.dgp', 'policy')).rejects.toThrow(/could not be fetched from http:\/\/127\.0\.0\.1:1\/policy\.dgp/);
    const huge = async () => new Response('x', { headers: { 'content-length': String(64 * 1024 * 1024) } });
    await expect(fetchPretrained(`${base}/x`, 'model', huge as typeof fetch)).rejects.toThrow(/is 67108864 bytes, more than the 10485760/);
  }, 60_000);

  it('fine-tunes the model at the fit request’s URL; without it, the env keeps the model it had', async () => {
    const models = new MemoryNeuralModelStore();
    const experience = new ExperienceService({ openStore: async () => replay, openModelStore: async () => models, backends: ['wasm'] });
    const scratch = await experience.fitNeural({ env: 'shop', epochs: 1, validationShare: 0 });
    expect(scratch.model.fineTuned).toBeUndefined();
    await expect(experience.fitNeural({ env: 'shop', epochs: 1, validationShare: 0, init: { url: `${base}/pretrained/nothing.dgx` } })).rejects.toThrow(/the pretrained web experience model is not available at .*nothing\.dgx: this build does not ship it/);
    expect((await experience.neuralStatus('shop')).model).toMatchObject({ createdAt: scratch.model.createdAt });
    const tuned = await experience.fitNeural({ env: 'shop', epochs: 1, validationShare: 0, init: { url: `${base}/pretrained/model.dgx` } });
    expect(tuned.model.fineTuned).toBe(true);
    expect((await models.all()).find((m) => m.env === 'shop')?.info.fineTuned).toBe(true);
  }, 120_000);
});
