/**
 * The room server (`serve`): a fitted neural model served beside kNN, picked by name; the neural
 * model answering through HTTP exactly as it answers in-process; fifty clients stepping at once,
 * each counted apart and none refused; the host's room line; and the CLI serving a .dgx with the
 * link participants open.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/rng.ts';
import type { Task } from '../../../src/core/types.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { KnnExperienceModel } from '../../../src/experience/knn.ts';
import { startChatServer, type RunningChatServer } from '../../../src/experience/llm/chat-server.ts';
import { ROOM_CLIENT_HEADER as CLIENT_HEADER } from '../../../src/experience/llm/chat.ts';
import { OpenAiHttpClient } from '../../../src/experience/llm/http-client.ts';
import { LlmExperienceModel } from '../../../src/experience/llm/llm-model.ts';
import { fitNeuralModel } from '../../../src/experience/neural/fit.ts';
import { exportNeuralModel } from '../../../src/experience/neural/model-io.ts';
import type { NeuralExperienceModel } from '../../../src/experience/neural/model.ts';
import { protocolAnswerer } from '../../../src/experience/serve-answer.ts';
import { SyntheticWorld } from '../../../src/experience/synthetic-env.ts';
import type { ExperienceModel } from '../../../src/experience/types.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { FileReplayStore } from '../../../src/replay/file-store.ts';
import type { ReplayBuffer } from '../../../src/replay/retrieval.ts';
import { spawnCli } from '../../cli-process.ts';
import { seededTransitions } from './fixtures.ts';
import { MemoryReplayStore } from '../../../src/replay/memory-store.ts';
import { ReplayBuffer as Buffer } from '../../../src/replay/retrieval.ts';

const K = 3;

/** A seeded random walk over the admissible actions in a world: each step's action and what the model answered. */
async function walk(model: ExperienceModel, buffer: ReplayBuffer, tasks: readonly Task[]) {
  const starter = envSpec('shop').createEnv();
  const world = new SyntheticWorld({ env: 'shop', model, buffer, k: K, runId: 'walk', initialObservation: (t) => starter.reset(t) });
  const steps: unknown[] = [];
  for (const task of tasks) {
    const env = world.createEnv();
    let observation = await env.reset(task);
    const rng = new Rng(task.id);
    for (let t = 0; t < 8; t++) {
      const action = rng.pick(observation.actions);
      const result = await env.step(action);
      steps.push({ task: task.id, action, next: result.observation.text, actions: result.observation.actions, reward: result.reward, done: result.done, reasoning: result.info.reasoning });
      observation = result.observation;
      if (result.done) break;
    }
  }
  return steps;
}

describe('the room server', () => {
  let buffer: ReplayBuffer;
  let transitions: Awaited<ReturnType<typeof seededTransitions>>;
  let neural: NeuralExperienceModel;
  let server: RunningChatServer;
  const roomLines: string[] = [];
  const failures: string[] = [];

  beforeAll(async () => {
    await useBackend(['cpu']);
    transitions = await seededTransitions('shop', 30, 2);
    buffer = await Buffer.open(new MemoryReplayStore());
    await buffer.add(transitions);
    neural = (await fitNeuralModel({ buffer, env: 'shop', epochs: 1, validationShare: 0, seed: 1 })).model;
    const answerers: Record<string, ReturnType<typeof protocolAnswerer>> = {
      neural: protocolAnswerer(neural, buffer, K, { env: 'shop' }),
      knn: protocolAnswerer(new KnnExperienceModel(), buffer, K),
    };
    server = await startChatServer({
      model: 'neural',
      otherModels: ['knn'],
      logRequests: 'failures',
      log: (line) => failures.push(line),
      roomReport: { everySeconds: 1, print: (line) => roomLines.push(line) },
      answer: (request, _signal, model) => (answerers[model] as ReturnType<typeof protocolAnswerer>)(request),
    });
  }, 120_000);
  afterAll(() => server?.close());

  it('lists what it serves, answers each model by name, and refuses one it does not serve', async () => {
    const models = (await (await fetch(`${server.url}/v1/models`)).json()) as { data: { id: string }[] };
    expect(models.data.map((m) => m.id)).toEqual(['neural', 'knn']);
    const ask = (model: string) =>
      fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }) });
    const unknown = await ask('gpt-4');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(/does not serve the model "gpt-4"; it serves: neural, knn/);
    // A prompt that is not the protocol's is the client's fault, whichever model it names.
    expect((await ask('knn')).status).toBe(400);
  });

  it('the neural model answers through HTTP with the predictions it makes in-process', async () => {
    const tasks = envSpec('shop').tasks('test').slice(0, 6);
    const inProcess = await walk(neural, buffer, tasks);
    const client = new OpenAiHttpClient({ baseUrl: server.url, model: 'neural' });
    // A context large enough that every episode stays one conversation (a restart would drop the history's states).
    const overHttp = await walk(new LlmExperienceModel({ client, framing: 'multi-round', contextTokens: 1_000_000 }), buffer, tasks);
    expect(inProcess.length).toBeGreaterThan(tasks.length);
    expect(overHttp).toEqual(inProcess);
  });

  it('ends a dead end as a synthetic world does, so a client can use the answer', async () => {
    const deadEnd: ExperienceModel = {
      name: 'dead-end',
      stats: () => new KnnExperienceModel().stats(),
      predict: async (inputs) => inputs.map(() => ({ reasoning: 'nowhere to go', next: { text: 'page: nowhere', actions: [] }, reward: 0, done: false, valid: true })),
    };
    const starter = envSpec('shop').createEnv();
    const task = envSpec('shop').tasks('test')[0] as Task;
    const local = await startChatServer({ model: 'dead-end', answer: protocolAnswerer(deadEnd, buffer, K) });
    try {
      const llm = new LlmExperienceModel({ client: new OpenAiHttpClient({ baseUrl: local.url, model: 'dead-end', retries: 0 }) });
      const [prediction] = await llm.predict([{ task, history: [], state: await starter.reset(task), action: 'search[shoes]', examples: [] }]);
      expect(prediction).toMatchObject({ valid: true, done: true, reward: 0, next: { actions: [] } });
    } finally {
      await local.close();
    }
  });

  it('serves fifty clients stepping at once without an error, and counts them apart', async () => {
    const before = server.counts();
    const tasks = envSpec('shop').tasks('test').slice(0, 50);
    const clients = tasks.map((_, i) => new LlmExperienceModel({ client: new OpenAiHttpClient({ baseUrl: server.url, model: i % 2 === 0 ? 'neural' : 'knn', headers: { [CLIENT_HEADER]: `participant-${i}` }, retries: 0 }) }));
    const starter = envSpec('shop').createEnv();
    const firsts = await Promise.all(tasks.map((t) => starter.reset(t)));
    // Every client asks its next step as soon as it has its answer: five rounds of fifty requests in flight.
    await Promise.all(
      clients.map(async (model, i) => {
        const task = tasks[i] as Task;
        let state = firsts[i]!;
        const history: { state: typeof state; action: string }[] = [];
        for (let round = 0; round < 5; round++) {
          const action = state.actions[round % state.actions.length] as string;
          const [prediction] = await model.predict([{ task, history, state, action, examples: [], episodeId: `e${i}` }]);
          expect(prediction?.valid, prediction?.problem).toBe(true);
          history.push({ state, action });
          state = prediction!.next;
          if (prediction!.done) break;
        }
      }),
    );
    const after = server.counts();
    expect(after.failed - before.failed).toBe(0);
    expect(after.answered - before.answered).toBeGreaterThanOrEqual(50);
    expect(after.clients).toBeGreaterThanOrEqual(50);
    expect(failures).toEqual([expect.stringMatching(/404/), expect.stringMatching(/400/)]); // the first test's two refusals, nothing since
    // The host's line: who stepped in the last second, and how many since the start.
    await expect
      .poll(() => roomLines.find((line) => /^room: \d+ clients stepping, [\d.]+ requests\/s, 0 failed in the last 1 s \((5[1-9]|[6-9]\d) clients since the start\)$/.test(line)), { timeout: 5_000 })
      .toBeDefined();
  });

  it('serve --experience neural serves the .dgx and kNN beside it, and prints the link participants open', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-room-'));
    const model = path.join(dir, 'shop.dgx');
    const bufferFile = path.join(dir, 'shop.jsonl');
    writeFileSync(model, await exportNeuralModel(neural, { backend: 'cpu', training: {}, evaluation: null, createdAt: '2026-11-26T00:00:00.000Z' }));
    const file = await FileReplayStore.open(bufferFile);
    await file.add(transitions);
    await file.save();
    await file.release();
    const child = spawnCli(['serve', '--experience', 'neural', '--model', model, '--buffer', bufferFile, '--port', '0', '--api-key', 'room-key-123', '--app-url', 'https://dreamgym.example/app/', '--json']);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    try {
      await expect.poll(() => stdout, { timeout: 60_000 }).toMatch(/\n/);
      const started = JSON.parse(stdout.trim()) as { url: string; models: string[]; link: string };
      expect(started.models).toEqual(['neural', 'knn']);
      const link = new URL(started.link);
      expect(`${link.origin}${link.pathname}`).toBe('https://dreamgym.example/app/');
      const params = new URLSearchParams(link.hash.replace(/^#experience\?/, ''));
      expect(Object.fromEntries(params)).toEqual({ room: `${started.url}/v1`, model: 'neural', key: 'room-key-123' });
      expect(stderr).toMatch(/serving neural and knn over \d+ transitions/);
      const models = await fetch(`${started.url}/v1/models`, { headers: { Authorization: 'Bearer room-key-123' } });
      expect(((await models.json()) as { data: { id: string }[] }).data.map((m) => m.id)).toEqual(['neural', 'knn']);
      expect((await fetch(`${started.url}/v1/models`)).status).toBe(401);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.on('close', resolve));
    }
  }, 90_000);
});
