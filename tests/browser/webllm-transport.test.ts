import { prebuiltAppConfig, type AppConfig } from '@mlc-ai/web-llm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.ts';
import { ChatTransportError, type ChatMessage } from '../../src/experience/llm/chat.ts';
import {
  WebLlmChatClient,
  classifyWebLlmError,
  deleteCachedModel,
  gpuHasShaderF16,
  modelCacheStatus,
  terminateWebLlmWorker,
  type LoadProgress,
} from '../../src/experience/llm/webllm-client.ts';
import { appConfigWith, customModel } from '../../src/experience/llm/webllm-models.ts';
import type { StandInAnswer } from './fixtures/standin-llm.worker.ts';

// The page side and the worker plumbing are real (WebLLM's WebWorkerMLCEngine and
// WebWorkerMLCEngineHandler, a real Worker, real WebGPU probing and Cache API); inside the worker,
// `StandInEngine` stands in for MLCEngine, whose weights cannot be downloaded here.
const STANDIN = 'StandIn-0.5B-Instruct-q4f32_1-MLC';
const standInRecord = (id: string) => customModel(`https://standin.invalid/${id}`, `https://standin.invalid/${id}-webgpu.wasm`, id);
const standInConfig: AppConfig = appConfigWith([
  standInRecord(STANDIN),
  standInRecord('StandIn-fail-fetch-q4f32_1-MLC'),
  standInRecord('StandIn-stall-q4f32_1-MLC'),
]);

const workers: Worker[] = [];
function startWorker(url: URL, name?: string): Worker {
  const worker = new Worker(url, { type: 'module', name });
  workers.push(worker);
  return worker;
}
/** A worker of the test's own, ended after it: for a test that kills, closes or wedges it. */
const standInWorker = (name?: string) => startWorker(new URL('./fixtures/standin-llm.worker.ts', import.meta.url), name);

afterEach(() => {
  for (const worker of workers.splice(0)) worker.terminate();
});

// Most of a test's cost is starting its worker (each compiles WebLLM's 6.6 MB bundle), so the tests
// that leave their worker serving share one, as the app keeps one worker across loads: each of them
// loads its model into it again (a load resets what the last one left), and what a test pins about
// a fresh worker's end (a crash, a termination, a stuck turn) it pins on a worker of its own.
let serving: Worker | undefined;
const servingWorker = () => (serving ??= new Worker(new URL('./fixtures/standin-llm.worker.ts', import.meta.url), { type: 'module' }));
// The real engine's tests share one worker too: each load fails before a model is held, and the f16
// refusal is decided before the worker is asked anything.
let real: Worker | undefined;
const realWorker = () => (real ??= new Worker(new URL('../../workers/llm.worker.ts', import.meta.url), { type: 'module' }));
afterAll(() => {
  serving?.terminate();
  real?.terminate();
});

async function loadStandIn(options: { onProgress?: (p: LoadProgress) => void; worker?: Worker; modelId?: string } = {}): Promise<WebLlmChatClient> {
  return WebLlmChatClient.load({ worker: options.worker ?? servingWorker(), modelId: options.modelId ?? STANDIN, appConfig: standInConfig, onProgress: options.onProgress });
}

async function rejection(promise: Promise<unknown>): Promise<ChatTransportError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ChatTransportError);
  return error as ChatTransportError;
}

const answerOf = (content: string) => JSON.parse(content) as StandInAnswer;

describe('WebLlmChatClient over the real WebLLM worker protocol (StandInEngine in the worker)', () => {
  it('forwards load progress to the page and round-trips a completion with usage mapped', async () => {
    const progress: LoadProgress[] = [];
    const client = await loadStandIn({ onProgress: (p) => progress.push(p) });
    expect(client.name).toBe(`webllm/${STANDIN}`);
    expect(client.maxConcurrency).toBe(1);
    // Ours first (WebLLM is silent while it fetches config and library), then the engine's reports.
    expect(progress[0]).toEqual({ progress: 0, text: expect.stringContaining('fetching its configuration') });
    expect(progress.map((p) => p.text)).toContain('Fetching param cache[1/2]: stand-in shards');
    expect(progress.at(-1)).toEqual({ progress: 1, text: 'Finish loading on WebGPU - stand-in' });
    expect(progress.every((p) => p.progress >= 0 && p.progress <= 1)).toBe(true);

    const response = await client.complete({
      messages: [
        { role: 'system', content: 'You simulate a web shop.' },
        { role: 'user', content: 'click[item 3]' },
      ],
      temperature: 0.2,
      max_tokens: 64,
      seed: 7,
      response_format: { type: 'json_object', schema: JSON.stringify({ type: 'object' }) },
    });
    const answer = answerOf(response.content);
    expect(answer).toEqual({
      model: STANDIN,
      userTurns: 1,
      lastUserLength: 'click[item 3]'.length,
      extendsPrevious: false,
      temperature: 0.2,
      maxTokens: 64,
      seed: 7,
      responseFormat: 'json_object',
      hasSchema: true,
      stream: false,
    });
    expect(response.finishReason).toBe('stop');
    expect(response.usage).toEqual({
      prompt_tokens: Math.ceil('system:You simulate a web shop.'.length / 4) + Math.ceil('user:click[item 3]'.length / 4),
      completion_tokens: Math.ceil(response.content.length / 4),
      promptIsPrefill: true,
      extra: { prefill_tokens_per_s: 1000, decode_tokens_per_s: 50 },
    });
    await client.unload();
  });

  it('serves a multi-round conversation, each request extending the previous one', async () => {
    const client = await loadStandIn();
    const messages: ChatMessage[] = [{ role: 'system', content: 'You simulate a household.' }];
    const turns = ['go to kitchen', 'open fridge 1', 'take apple 1 from fridge 1'];
    const answers: StandInAnswer[] = [];
    const promptTokens: number[] = [];
    for (const action of turns) {
      messages.push({ role: 'user', content: action });
      const response = await client.complete({ messages: [...messages], temperature: 0 });
      answers.push(answerOf(response.content));
      promptTokens.push(response.usage!.prompt_tokens);
      messages.push({ role: 'assistant', content: response.content });
    }
    expect(answers.map((a) => a.userTurns)).toEqual([1, 2, 3]);
    expect(answers.map((a) => a.lastUserLength)).toEqual(turns.map((t) => t.length));
    // The engine saw each request extend the conversation it already held (KV-cache reuse)…
    expect(answers.map((a) => a.extendsPrevious)).toEqual([false, true, true]);
    // …so it counted only the new message as prompt tokens.
    expect(promptTokens[1]).toBe(Math.ceil(`user:${turns[1]}`.length / 4));
    expect(promptTokens[2]).toBe(Math.ceil(`user:${turns[2]}`.length / 4));
    await client.unload();
  });

  it('turns an engine error into a ChatTransportError that says what to do, and keeps serving', async () => {
    const client = await loadStandIn();
    const error = await rejection(client.complete({ messages: [{ role: 'user', content: '__engine_error__' }] }));
    expect(error.kind).toBe('bad-body');
    expect(error.message).toMatch(/could not answer the request with StandIn.*context window size.*Shorten the prompt/s);
    const next = await client.complete({ messages: [{ role: 'user', content: 'look' }] });
    expect(answerOf(next.content).lastUserLength).toBe(4);
    await client.unload();
  });

  it('reports a worker that closed itself mid-request as worker-crashed instead of hanging', async () => {
    const worker = standInWorker();
    const client = await loadStandIn({ worker });
    const crashes: ChatTransportError[] = [];
    client.onCrash((e) => crashes.push(e));
    const error = await rejection(client.complete({ messages: [{ role: 'user', content: '__close__' }] }));
    expect(error.kind).toBe('worker-crashed');
    expect(error.message).toMatch(/WebLLM worker crashed \(it stopped.*Load the model again in a new worker/s);
    expect(crashes).toEqual([error]);
    // Later requests fail at once with the same error.
    expect(await rejection(client.complete({ messages: [{ role: 'user', content: 'look' }] }))).toBe(error);
    await client.unload(); // does not hang on a dead worker
    // A dead worker cannot load again: the caller starts a new one.
    expect(await rejection(loadStandIn({ worker }))).toBe(error);
  });

  it('notices a worker that closed itself even when the browser granted its lifeline lock late', async () => {
    // The stand-in's lock comes 300 ms late; its load takes about 10 ms. Unless the worker holds
    // back the load until it holds the lock, the request below closes a worker whose end no lock
    // reports, and the request never settles (seen under the full suite's load in CI): the test
    // then times out. The file's timeout, not 10 s: starting the worker alone took over 10 s on a
    // heavily loaded 2-core machine.
    const client = await loadStandIn({ worker: standInWorker('slow-lifeline') });
    const error = await rejection(client.complete({ messages: [{ role: 'user', content: '__close__' }] }));
    expect(error.kind).toBe('worker-crashed');
  });

  it('reports an uncaught error in the worker as worker-crashed with its message', async () => {
    const client = await loadStandIn({ worker: standInWorker() });
    const error = await rejection(client.complete({ messages: [{ role: 'user', content: '__throw__' }] }));
    expect(error.kind).toBe('worker-crashed');
    expect(error.message).toContain('stand-in engine: uncaught failure');
  });

  it('fails a load whose fetch fails with model-load and network advice', async () => {
    const error = await rejection(
      WebLlmChatClient.load({ worker: servingWorker(), modelId: 'StandIn-fail-fetch-q4f32_1-MLC', appConfig: standInConfig }),
    );
    expect(error.kind).toBe('model-load');
    expect(error.message).toMatch(/could not be fetched \(TypeError: Failed to fetch\).*Check the network.*loads offline/s);
  });

  it('ends a load that stops making progress (stall timeout) instead of waiting forever', async () => {
    const worker = servingWorker();
    const error = await rejection(
      WebLlmChatClient.load({ worker, modelId: 'StandIn-stall-q4f32_1-MLC', appConfig: standInConfig, stallTimeoutMs: 300 }),
    );
    expect(error.kind).toBe('model-load');
    expect(error.message).toMatch(/made no progress for 0.3 s.*Check the network/s);
    // The worker was told to stop; it loads another model afterwards.
    const client = await WebLlmChatClient.load({ worker, modelId: STANDIN, appConfig: standInConfig });
    expect(answerOf((await client.complete({ messages: [{ role: 'user', content: 'hi' }] })).content).model).toBe(STANDIN);
  });

  it('stops a load or a request when its signal aborts, and refuses requests after unload', async () => {
    const controller = new AbortController();
    const loading = WebLlmChatClient.load({ worker: servingWorker(), modelId: 'StandIn-stall-q4f32_1-MLC', appConfig: standInConfig, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect((await rejection(loading)).kind).toBe('aborted');

    const client = await loadStandIn();
    expect((await rejection(client.complete({ messages: [{ role: 'user', content: 'x' }] }, AbortSignal.abort()))).kind).toBe('aborted');
    await client.unload();
    const error = await rejection(client.complete({ messages: [{ role: 'user', content: 'x' }] }));
    expect(error.kind).toBe('model-load');
    expect(error.message).toContain('no longer loaded (it was unloaded)');
  });

  it('stops a request that runs past its time limit and sets the stuck model aside; the limit counts from its turn, not the queue', async () => {
    const worker = standInWorker();
    const queued = await WebLlmChatClient.load({ worker, modelId: STANDIN, appConfig: standInConfig, requestTimeoutMs: 300 });
    // Three 200 ms requests wait 600 ms in all, each within its 300 ms turn.
    const slow = await Promise.all([0, 1, 2].map(() => queued.complete({ messages: [{ role: 'user', content: '__slow__' }] })));
    expect(slow.map((r) => answerOf(r.content).model)).toEqual([STANDIN, STANDIN, STANDIN]);

    const stuck = queued.complete({ messages: [{ role: 'user', content: '__hang__' }] });
    const behind = queued.complete({ messages: [{ role: 'user', content: 'x' }] });
    const [error, waiting] = await Promise.all([rejection(stuck), rejection(behind)]);
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe(
      `${STANDIN} did not answer within 0.3 s, so the request was stopped and the model set aside: the GPU may have been lost or be stuck. Reload the page or load the model again; if it recurs, pick a smaller model.`,
    );
    expect(waiting.kind).toBe('model-load');
    expect(waiting.message).toContain('no longer loaded (a request ran past its 0.3 s limit)');
    // Another worker serves again (the stuck one still holds its engine's turn).
    const fresh = await loadStandIn();
    expect(answerOf((await fresh.complete({ messages: [{ role: 'user', content: 'x' }] })).content).model).toBe(STANDIN);
  });

  it('holds one model per worker: a second load ends the first client', async () => {
    const worker = servingWorker();
    const first = await loadStandIn({ worker });
    const other = 'StandIn-Other-1B-q4f32_1-MLC';
    const second = await WebLlmChatClient.load({ worker, modelId: other, appConfig: appConfigWith([standInRecord(other)], standInConfig) });
    const error = await rejection(first.complete({ messages: [{ role: 'user', content: 'x' }] }));
    expect(error.kind).toBe('model-load');
    expect(error.message).toContain(`no longer loaded (the worker was given ${other} to load)`);
    await first.unload(); // must not unload the second client's model
    expect(answerOf((await second.complete({ messages: [{ role: 'user', content: 'x' }] })).content).model).toBe(other);
    await second.unload();
  });

  it('ends a load in flight when the worker is given another model or terminated', async () => {
    const stallId = 'StandIn-stall-q4f32_1-MLC';
    /** Start a load that never finishes by itself, once it has reached the worker. */
    const startLoad = async (worker: Worker) => {
      let started!: () => void;
      const startedLoading = new Promise<void>((resolve) => (started = resolve));
      const loading = WebLlmChatClient.load({ worker, modelId: stallId, appConfig: standInConfig, onProgress: () => started() });
      await startedLoading;
      return { loading };
    };
    const worker = servingWorker();
    const { loading: firstLoad } = await startLoad(worker);
    const second = loadStandIn({ worker });
    const first = await rejection(firstLoad);
    expect(first.kind).toBe('aborted');
    expect(first.message).toBe(`Loading ${stallId} was stopped: the worker was given ${STANDIN} to load.`);
    const client = await second;
    expect(answerOf((await client.complete({ messages: [{ role: 'user', content: 'x' }] })).content).model).toBe(STANDIN);

    const other = standInWorker();
    const { loading } = await startLoad(other);
    terminateWebLlmWorker(other);
    const error = await rejection(loading);
    expect(error.kind).toBe('aborted');
    expect(error.message).toContain('its worker was terminated');
  });

  it('ends a worker on purpose without reporting a crash', async () => {
    const worker = standInWorker();
    const client = await loadStandIn({ worker });
    const crashes: ChatTransportError[] = [];
    client.onCrash((e) => crashes.push(e));
    terminateWebLlmWorker(worker);
    const error = await rejection(client.complete({ messages: [{ role: 'user', content: 'x' }] }));
    expect(error.kind).toBe('model-load');
    expect(error.message).toContain('no longer loaded (its worker was terminated)');
    await new Promise((resolve) => setTimeout(resolve, 100)); // room for the lifeline to be released
    expect(crashes).toEqual([]);
  });

  it('rejects a model id that is not in the app config with a UsageError', async () => {
    await expect(WebLlmChatClient.load({ worker: servingWorker(), modelId: 'No-Such-Model', appConfig: standInConfig })).rejects.toThrow(UsageError);
  });
});

describe('WebLLM with its real engine and no network (workers/llm.worker.ts)', () => {
  const MODEL = 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';

  it('fails fast with model-load when the model host refuses the connection', async () => {
    const record = prebuiltAppConfig.model_list.find((r) => r.model_id === MODEL)!;
    const refused = appConfigWith([{ ...record, model: `http://127.0.0.1:9/${MODEL}`, model_lib: 'http://127.0.0.1:9/lib/model-webgpu.wasm' }]);
    const progress: LoadProgress[] = [];
    const error = await rejection(
      WebLlmChatClient.load({ worker: realWorker(), modelId: MODEL, appConfig: refused, onProgress: (p) => progress.push(p), stallTimeoutMs: 30_000 }),
    );
    expect(error.kind).toBe('model-load');
    expect(error.message).toMatch(/could not be fetched.*Check the network/s);
    expect(progress.length).toBeGreaterThan(0);
  });

  it('fails with model-load (not a hang) for a prebuilt model when the internet is unreachable', async () => {
    const error = await rejection(WebLlmChatClient.load({ worker: realWorker(), modelId: MODEL, stallTimeoutMs: 30_000 }));
    expect(error.kind).toBe('model-load');
    expect(error.message).toMatch(/Check the network/);
  });

  it('refuses an f16 build up front when the adapter lacks shader-f16', async () => {
    const shaderF16 = await gpuHasShaderF16();
    expect(shaderF16).not.toBeNull(); // headless Chromium here has a SwiftShader adapter
    if (shaderF16) return; // a GPU with f16 would go on to the download instead
    const error = await rejection(WebLlmChatClient.load({ worker: realWorker(), modelId: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC' }));
    expect(error.kind).toBe('no-webgpu');
    expect(error.message).toMatch(/shader-f16.*q4f32_1/s);
  });
});

describe('classifyWebLlmError (the strings WebLLM 0.2.86 posts from its worker)', () => {
  const id = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';
  const cases: [string, 'load' | 'request', string, RegExp][] = [
    ['WebGPUNotAvailableError: WebGPU is not supported in your current environment, but it is necessary to run the WebLLM engine.', 'load', 'no-webgpu', /Chrome or Edge with WebGPU.*HTTP endpoint or kNN/s],
    ['ShaderF16SupportError: This model requires WebGPU extension shader-f16, which is not enabled in this browser.', 'load', 'no-webgpu', /q4f32_1 build/],
    ['DeviceLostError: The WebGPU device was lost while loading the model.', 'load', 'model-load', /ran out of memory.*smaller model/s],
    ['QuotaExceededError: Quota exceeded.', 'load', 'model-load', /storage is full.*Delete cached models/s],
    ['Error: Cannot fetch https://huggingface.co/mlc-ai/x/resolve/main/mlc-chat-config.json', 'load', 'model-load', /could not be fetched.*loads offline/s],
    ['Error: Cannot initialize runtime because of requested maxStorageBufferBindingSize exceeds limit. requested=1024MB, limit=128MB.', 'load', 'model-load', /WebGPU limits are too small/],
    ['ModelNotLoadedError: Model not loaded before trying to complete ChatCompletionRequest.', 'request', 'model-load', /Load Qwen.* again/],
    ['SeedTypeError: `seed` should be an integer, but got 1.5', 'request', 'bad-body', /could not answer the request.*seed/s],
  ];
  for (const [raw, phase, kind, message] of cases) {
    it(`${raw.split(':')[0]} while ${phase === 'load' ? 'loading' : 'answering'} → ${kind}`, () => {
      const error = classifyWebLlmError(raw, phase, id);
      expect(error.kind).toBe(kind);
      expect(error.message).toMatch(message);
      expect(error.cause).toBe(raw);
    });
  }
});

describe('the WebLLM model cache (real Cache API, files made by the test)', () => {
  const id = `CacheTest-${crypto.randomUUID().slice(0, 8)}-q4f32_1-MLC`;
  const record = customModel(`https://models.example/${id}`, `https://models.example/${id}-webgpu.wasm`, id);
  const appConfig = appConfigWith([record]);
  const folder = `https://models.example/${id}/resolve/main/`;

  async function put(scope: string, url: string, body: string): Promise<void> {
    await (await caches.open(scope)).put(url, new Response(body));
  }
  async function cachedUrls(scope: string): Promise<string[]> {
    return (await (await caches.open(scope)).keys()).map((r) => r.url).filter((u) => u.includes(id));
  }

  it('reports a model as cached only with all its shards, and deletes every file of it', async () => {
    expect(await modelCacheStatus(id, appConfig)).toBe('not-cached');
    await put('webllm/model', `${folder}tensor-cache.json`, JSON.stringify({ metadata: {}, records: [{ dataPath: 'params_shard_0.bin' }, { dataPath: 'params_shard_1.bin' }] }));
    await put('webllm/model', `${folder}params_shard_0.bin`, 'shard 0');
    await put('webllm/model', `${folder}tokenizer.json`, '{}');
    await put('webllm/config', `${folder}mlc-chat-config.json`, '{}');
    await put('webllm/wasm', record.model_lib, 'wasm');
    expect(await modelCacheStatus(id, appConfig)).toBe('not-cached'); // shard 1 missing: an interrupted download
    await put('webllm/model', `${folder}params_shard_1.bin`, 'shard 1');
    expect(await modelCacheStatus(id, appConfig)).toBe('cached');

    await deleteCachedModel(id, appConfig);
    expect(await modelCacheStatus(id, appConfig)).toBe('not-cached');
    expect(await cachedUrls('webllm/model')).toEqual([]);
    expect(await cachedUrls('webllm/config')).toEqual([]);
    expect(await cachedUrls('webllm/wasm')).toEqual([]);
  });

  it('deletes the files of an interrupted download without the network', async () => {
    await put('webllm/model', `${folder}params_shard_0.bin`, 'shard 0');
    await put('webllm/wasm', record.model_lib, 'wasm');
    await deleteCachedModel(id, appConfig); // models.example is unreachable: nothing may be fetched
    expect(await cachedUrls('webllm/model')).toEqual([]);
    expect(await cachedUrls('webllm/wasm')).toEqual([]);
  });

  it('keeps a library that another cached model uses', async () => {
    const sibling = customModel(`https://models.example/${id}-sibling`, record.model_lib, `${id}-sibling`);
    const shared = appConfigWith([record, sibling]);
    const siblingFolder = `https://models.example/${id}-sibling/resolve/main/`;
    await put('webllm/model', `${siblingFolder}tensor-cache.json`, JSON.stringify({ metadata: {}, records: [{ dataPath: 'params_shard_0.bin' }] }));
    await put('webllm/model', `${siblingFolder}params_shard_0.bin`, 'shard 0');
    await put('webllm/model', `${folder}params_shard_0.bin`, 'shard 0');
    await put('webllm/wasm', record.model_lib, 'wasm');
    expect(await modelCacheStatus(sibling.model_id, shared)).toBe('cached');

    await deleteCachedModel(id, shared);
    expect(await cachedUrls('webllm/model')).toEqual([`${siblingFolder}tensor-cache.json`, `${siblingFolder}params_shard_0.bin`]);
    expect(await cachedUrls('webllm/wasm')).toEqual([record.model_lib]);
    await deleteCachedModel(sibling.model_id, shared); // the last user of the library takes it along
    expect(await cachedUrls('webllm/model')).toEqual([]);
    expect(await cachedUrls('webllm/wasm')).toEqual([]);
  });

  it('says which model it does not know', async () => {
    await expect(modelCacheStatus('No-Such-Model')).rejects.toThrow(/Unknown WebLLM model "No-Such-Model"/);
  });
});
