/**
 * The WebLLM transport: a `ChatClient` over WebLLM's own worker protocol (`WebWorkerMLCEngine` on
 * the page, `WebWorkerMLCEngineHandler` in workers/llm.worker.ts). WebLLM serves one request at a
 * time and reuses its KV cache when a request extends the previous conversation, so requests are
 * queued here rather than interleaved.
 *
 * WebLLM's page-side engine never settles a request whose worker has died, has no timeout of its
 * own, and reports no progress while it fetches the model's config and library. So this module adds
 * what keeps a load or a request from hanging silently: a crash watch on the worker (its `error`
 * event, plus a Web Lock the worker holds for as long as it lives, which is how a worker that
 * closed itself or was killed is noticed), a stall timeout on load progress, and abort signals.
 * Every failure becomes a `ChatTransportError` whose message says what to do.
 */
import {
  WebWorkerMLCEngine,
  deleteChatConfigInCache,
  deleteModelInCache,
  deleteModelWasmInCache,
  hasModelInCache,
  prebuiltAppConfig,
  type AppConfig,
  type ChatCompletion,
  type InitProgressReport,
  type ModelRecord,
} from '@mlc-ai/web-llm';
import { UsageError, errorMessage } from '../../core/errors.ts';
import { boundedText, excerpt } from '../../core/text.ts';
import { probeWebGpu } from '../../platform/gpu.ts';
import { ChatTransportError, type ChatClient, type ChatRequest, type ChatResponse, type ChatUsage } from './chat.ts';
import { needsShaderF16 } from './webllm-models.ts';

export interface LoadProgress {
  /** 0..1 */
  progress: number;
  text: string;
}

export interface WebLlmLoadOptions {
  /**
   * A worker running WebLLM's `WebWorkerMLCEngineHandler` (workers/llm.worker.ts). The caller
   * creates it (Vite finds workers only in the literal `new Worker(new URL(…), …)` form) and owns
   * it: `unload()` frees the model but leaves the worker running for the next load.
   */
  worker: Worker;
  modelId: string;
  /** Defaults to WebLLM's prebuilt list; pass `appConfigWith([customModel(…)])` for a custom model. */
  appConfig?: AppConfig;
  onProgress?: (progress: LoadProgress) => void;
  signal?: AbortSignal;
  /**
   * Fail the load when no progress arrives for this long (ms; 0 turns the guard off). WebLLM
   * reports progress once per weight shard (not per byte; four shards download at a time), so the default is generous
   * enough for a slow link and still ends a load whose connection went silent.
   */
  stallTimeoutMs?: number;
  /**
   * Fail a request that has not answered this long after its turn began (ms; 0 turns the guard
   * off). A request's tokens are bounded by its max_tokens, so one that runs past this is stuck
   * (a lost or hung GPU the worker survives), not slow; the client then ends, because the engine's
   * next turn would wait behind the stuck one.
   */
  requestTimeoutMs?: number;
}

export const DEFAULT_STALL_TIMEOUT_MS = 5 * 60_000;
/** Generous for a slow integrated GPU: a 2K-token prefill and 512 tokens at 5 tokens/s take under 2 minutes. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 5 * 60_000;

const NETWORK_ADVICE =
  'Check the network connection and try again; a model that was downloaded once is kept in the browser cache and then loads offline.';

// --- the worker's lifeline -------------------------------------------------------------------

/**
 * Sent to the worker with a lock name in `uuid` and no `content`: a worker that does not know it
 * (WebLLM's handler alone) ignores kind-only messages instead of throwing.
 */
const LIFELINE_REQUEST = 'dreamgym.lifeline';
const LIFELINE_HELD = 'dreamgym.lifeline-held';

interface LifelineMessage {
  kind: typeof LIFELINE_REQUEST | typeof LIFELINE_HELD;
  uuid: string;
}

function isLifeline(data: unknown, kind: LifelineMessage['kind']): data is LifelineMessage {
  return typeof data === 'object' && data !== null && (data as { kind?: unknown }).kind === kind && typeof (data as { uuid?: unknown }).uuid === 'string';
}

/** What the lifeline needs of `navigator.locks` (a parameter so tests can slow the grant down). */
export type LifelineLocks = Pick<LockManager, 'request'>;

/**
 * Worker side of the crash watch: wraps the worker's message handler. The page's first message is
 * the lifeline request; the worker takes the Web Lock it names and never releases it, the browser
 * releases it when the worker ends in any way (a crash, `close()`, `terminate()`), and the page,
 * queued on the same lock, hears of it at once.
 *
 * The browser grants a lock asynchronously, so messages that arrive before the worker holds it
 * wait and are handled after: a worker that ended before holding its lock would end unnoticed, and
 * on a busy machine a load and a request that closed the worker were seen to finish before the
 * grant (the page then waited forever on the request).
 */
export function withLifeline(
  scope: { postMessage(message: unknown): void },
  handle: (event: MessageEvent<unknown>) => void,
  locks: LifelineLocks | undefined = globalThis.navigator?.locks,
): (event: MessageEvent<unknown>) => void {
  let waiting: MessageEvent<unknown>[] | null = null;
  const flush = () => {
    const queued = waiting ?? [];
    waiting = null;
    for (const message of queued) {
      try {
        handle(message);
      } catch (error) {
        // As if thrown by the handler itself (the page's `error` event), and the next queued
        // message is still handled.
        globalThis.reportError(error);
      }
    }
  };
  return (event) => {
    if (!isLifeline(event.data, LIFELINE_REQUEST)) {
      if (waiting) waiting.push(event);
      else handle(event);
      return;
    }
    if (!locks) return; // no Web Locks (insecure context): the page falls back to `error` events
    const name = event.data.uuid;
    waiting ??= [];
    locks
      .request(name, () => {
        scope.postMessage({ kind: LIFELINE_HELD, uuid: name } satisfies LifelineMessage);
        flush();
        return new Promise<never>(() => {});
      })
      // A lock that cannot be taken leaves the page with `error` events alone; the work goes on.
      .catch(flush);
  };
}

/** Page side: notices a worker that threw an uncaught error, failed to load, or ended. */
class WorkerWatch {
  crash: ChatTransportError | null = null;
  private readonly listeners = new Set<(error: ChatTransportError) => void>();
  private lockName: string | null = null;
  private retired = false;

  constructor(private readonly worker: Worker) {
    worker.addEventListener('error', this.onError);
  }

  /** Send the lifeline request; `interceptAck` must already be installed on the worker's onmessage. */
  start(): void {
    if (!globalThis.navigator?.locks) return;
    this.lockName = `dreamgym-webllm-${crypto.randomUUID()}`;
    this.worker.postMessage({ kind: LIFELINE_REQUEST, uuid: this.lockName } satisfies LifelineMessage);
  }

  /** True when the message was the worker's "lock held" answer (and must not reach WebLLM). */
  interceptAck(data: unknown): boolean {
    if (!isLifeline(data, LIFELINE_HELD)) return false;
    if (data.uuid === this.lockName) {
      // Granted only once the worker's context is gone; the watch lives as long as the worker.
      void navigator.locks.request(data.uuid, () => {
        this.fail('it stopped (closed, terminated or killed by the browser)');
      });
    }
    return true;
  }

  /** The worker is being ended on purpose: its end is no crash. */
  retire(): void {
    this.retired = true;
    this.listeners.clear();
  }

  onCrash(listener: (error: ChatTransportError) => void): () => void {
    if (this.crash) listener(this.crash);
    else this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private readonly onError = (event: ErrorEvent): void => {
    event.preventDefault();
    this.fail(event.message ? `it threw: ${event.message}` : 'it failed to load');
  };

  private fail(reason: string): void {
    if (this.crash || this.retired) return;
    this.crash = new ChatTransportError(
      'worker-crashed',
      `The WebLLM worker crashed (${reason}). Load the model again in a new worker (a cached model loads quickly); if it keeps crashing, pick a smaller model or the HTTP or kNN experience model.`,
    );
    for (const listener of [...this.listeners]) listener(this.crash);
    this.listeners.clear();
  }
}

// --- errors ------------------------------------------------------------------------------------

function aborted(what: string): ChatTransportError {
  return new ChatTransportError('aborted', `${what} was stopped.`);
}

/**
 * WebLLM's worker sends errors as `err.toString()` ("Name: message"), so they reach the page as
 * strings; classify them by WebLLM's error names and the browser's fetch messages.
 */
export function classifyWebLlmError(raw: unknown, phase: 'load' | 'request', modelId: string): ChatTransportError {
  if (raw instanceof ChatTransportError) return raw;
  const said = errorMessage(raw);
  // Matched whole; repeated bounded (a worker's error may carry a stack or the request).
  const text = boundedText(said);
  const cause = { cause: raw };
  if (/WebGPUNotAvailableError|WebGPUNotFoundError|navigator\.gpu/.test(said)) {
    return new ChatTransportError(
      'no-webgpu',
      `WebLLM needs WebGPU, which this browser does not offer to the worker (${text}). Use a current Chrome or Edge with WebGPU enabled, or pick the HTTP endpoint or kNN experience model.`,
      cause,
    );
  }
  if (/ShaderF16SupportError|shader-f16/.test(said)) {
    return new ChatTransportError(
      'no-webgpu',
      `${modelId} needs the WebGPU feature shader-f16, which this GPU does not offer. Pick the q4f32_1 build of the model (the model list does so when shader-f16 is missing).`,
      cause,
    );
  }
  if (/FeatureSupportError/.test(said)) {
    return new ChatTransportError('no-webgpu', `This GPU lacks a WebGPU feature ${modelId} needs (${text}). Pick another model, or the HTTP endpoint or kNN experience model.`, cause);
  }
  if (/exceeds limit|maxStorageBufferBindingSize|maxBufferSize/.test(said)) {
    return new ChatTransportError('model-load', `This GPU's WebGPU limits are too small for ${modelId} (${text}). Pick a smaller model.`, cause);
  }
  if (/DeviceLostError|device was lost/i.test(said)) {
    // WebLLM unloads the model when the device is lost; the worker itself lives on.
    return new ChatTransportError(
      'model-load',
      `The GPU device was lost${phase === 'load' ? ' while loading' : ' while running'} ${modelId}, usually because it ran out of memory. Close other GPU-heavy tabs or pick a smaller model, then load it again.`,
      cause,
    );
  }
  if (/QuotaExceeded|quota/i.test(said)) {
    return new ChatTransportError(
      'model-load',
      `The browser's storage is full, so ${modelId} could not be cached (${text}). Delete cached models you no longer use (Experience view) or free disk space, then load again.`,
      cause,
    );
  }
  if (/ModelNotFoundError/.test(said)) {
    return new ChatTransportError('model-load', `${modelId} is not in WebLLM's model list. Pick a model from the list, or add it as a custom model with its URLs.`, cause);
  }
  if (/ModelNotLoadedError|WorkerEngineModelNotLoadedError/.test(said)) {
    return new ChatTransportError('model-load', `No model is loaded in the WebLLM worker (${text}). Load ${modelId} again.`, cause);
  }
  if (/Failed to fetch|NetworkError|Cannot fetch|Request failed|net::|fetch/i.test(said)) {
    return new ChatTransportError('model-load', `The files of ${modelId} could not be fetched (${text}). ${NETWORK_ADVICE}`, cause);
  }
  if (phase === 'load') {
    return new ChatTransportError('model-load', `WebLLM could not load ${modelId}: ${text}. Try again, or pick another model.`, cause);
  }
  // The engine refused or failed this request (context window exceeded, a bad schema…).
  return new ChatTransportError(
    'bad-body',
    `WebLLM could not answer the request with ${modelId}: ${text}. Shorten the prompt or check the response schema.`,
    cause,
  );
}

// --- mapping -----------------------------------------------------------------------------------

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * WebLLM's `usage.prompt_tokens` counts only the tokens it prefilled: when a request extends the
 * previous conversation, the part already in the KV cache is not counted.
 */
export function toChatResponse(completion: ChatCompletion): ChatResponse {
  const choice = completion.choices?.[0];
  if (!choice) throw new ChatTransportError('bad-body', 'WebLLM answered without any choice. Try the request again.');
  const response: ChatResponse = { content: choice.message?.content ?? '' };
  if (choice.finish_reason) response.finishReason = choice.finish_reason;
  const usage = completion.usage;
  if (usage) {
    const mapped: ChatUsage = { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens, promptIsPrefill: true };
    const prefill = finite(usage.extra?.prefill_tokens_per_s);
    const decode = finite(usage.extra?.decode_tokens_per_s);
    if (prefill !== undefined || decode !== undefined) {
      mapped.extra = {};
      if (prefill !== undefined) mapped.extra.prefill_tokens_per_s = prefill;
      if (decode !== undefined) mapped.extra.decode_tokens_per_s = decode;
    }
    response.usage = mapped;
  }
  return response;
}

function seconds(ms: number): string {
  return ms >= 10_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 1000).toFixed(1)} s`;
}

function progressOf(report: InitProgressReport): LoadProgress {
  const p = finite(report.progress) ?? 0;
  return { progress: Math.min(1, Math.max(0, p)), text: String(report.text ?? '') };
}

// --- the client --------------------------------------------------------------------------------

interface Stop {
  signal: AbortSignal | undefined;
  /** The error to reject with (and anything to do first, like interrupting the engine). */
  error: () => ChatTransportError;
}

/** Settles with `work`, or rejects first when the worker dies or one of the stop signals aborts. */
function guard<T>(work: Promise<T>, watch: WorkerWatch, ...stops: Stop[]): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const fired = stops.find((stop) => stop.signal?.aborted);
    if (fired) return reject(fired.error());
    const handlers = stops.map((stop) => {
      const handler = () => reject(stop.error());
      stop.signal?.addEventListener('abort', handler, { once: true });
      return () => stop.signal?.removeEventListener('abort', handler);
    });
    const unwatch = watch.onCrash(reject);
    work.then(resolve, reject).finally(() => {
      unwatch();
      for (const remove of handlers) remove();
    });
  });
}

function findRecord(modelId: string, appConfig: AppConfig): ModelRecord {
  const record = appConfig.model_list.find((r) => r.model_id === modelId);
  if (!record) {
    throw new UsageError(`Unknown WebLLM model ${excerpt(modelId)}: pick one from the model list, or add it as a custom model with its URLs.`);
  }
  return record;
}

/**
 * WebLLM fetches the config and the library before it looks for a GPU, so without WebGPU a user
 * would wait for a download (or, offline, be told about the network) before hearing the real
 * problem. Checking first on the page gives the right message at once.
 */
async function checkGpu(record: ModelRecord): Promise<void> {
  const probe = await probeWebGpu();
  if (!probe.available) {
    throw new ChatTransportError(
      'no-webgpu',
      `WebLLM needs WebGPU, and ${probe.reason ?? 'this browser has none'}. Use a current Chrome or Edge with WebGPU enabled, or pick the HTTP endpoint or kNN experience model.`,
    );
  }
  if (needsShaderF16(record) && !probe.shaderF16) {
    throw new ChatTransportError(
      'no-webgpu',
      `${record.model_id} needs the WebGPU feature shader-f16, which this GPU does not offer. Pick the q4f32_1 build of the model (the model list does so when shader-f16 is missing).`,
    );
  }
}

/**
 * One page-side engine per worker, kept across loads: a second `WebWorkerMLCEngine` on the same
 * worker would take over its `onmessage`, and the first one's late answers would then reach the
 * second, which throws on request ids it does not know.
 */
interface Connection {
  engine: WebWorkerMLCEngine;
  watch: WorkerWatch;
  /** Where the engine's progress reports go during the current load. */
  progress: ((progress: LoadProgress) => void) | null;
  /** The client whose model the worker holds (or is loading). */
  current: WebLlmChatClient | null;
}

const connections = new WeakMap<Worker, Connection>();

function connect(worker: Worker): Connection {
  const existing = connections.get(worker);
  if (existing) return existing;
  const watch = new WorkerWatch(worker);
  const engine = new WebWorkerMLCEngine(worker, {
    initProgressCallback: (report: InitProgressReport) => connection.progress?.(progressOf(report)),
  });
  const connection: Connection = { engine, watch, progress: null, current: null };
  // WebLLM's page engine throws on message kinds it does not know; the lifeline answer is ours.
  const engineOnMessage = worker.onmessage;
  worker.onmessage = (event: MessageEvent<unknown>) => {
    if (watch.interceptAck(event.data)) return;
    engineOnMessage?.call(worker, event);
  };
  watch.start();
  connections.set(worker, connection);
  return connection;
}

export class WebLlmChatClient implements ChatClient {
  readonly name: string;
  readonly maxConcurrency = 1;
  private tail: Promise<unknown> = Promise.resolve();
  /** Why this client can no longer answer (unloaded, another model took the worker, terminated). */
  private gone: string | null = null;
  /** Aborted when the client ends, so a load or request in flight does not wait on a dead end. */
  private readonly ending = new AbortController();

  private constructor(
    private readonly connection: Connection,
    readonly modelId: string,
    private readonly requestTimeoutMs: number,
  ) {
    this.name = `webllm/${modelId}`;
  }

  /**
   * Load `modelId` in the worker: resolves once the model is on the GPU and ready to answer. A
   * worker holds one model: loading another ends the previous client of the same worker. A worker
   * that crashed stays crashed (the load rejects with its error): start a new Worker.
   */
  static async load(options: WebLlmLoadOptions): Promise<WebLlmChatClient> {
    const { worker, modelId, onProgress, signal } = options;
    const appConfig = options.appConfig ?? prebuiltAppConfig;
    const stallTimeoutMs = options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
    if (signal?.aborted) throw aborted(`Loading ${modelId}`);
    const record = findRecord(modelId, appConfig);
    await checkGpu(record);
    if (signal?.aborted) throw aborted(`Loading ${modelId}`);

    const connection = connect(worker);
    const { engine, watch } = connection;
    if (watch.crash) throw watch.crash;
    const client = new WebLlmChatClient(connection, modelId, options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
    connection.current?.end(`the worker was given ${modelId} to load`);
    connection.current = client;

    let stallTimer: ReturnType<typeof setTimeout> | undefined;
    let failStall: (error: ChatTransportError) => void = () => {};
    const stalled = new Promise<never>((_, reject) => (failStall = reject));
    const armStall = () => {
      clearTimeout(stallTimer);
      if (stallTimeoutMs > 0) {
        stallTimer = setTimeout(() => {
          failStall(
            new ChatTransportError(
              'model-load',
              `Loading ${modelId} made no progress for ${seconds(stallTimeoutMs)}, so it was stopped: the model files are not arriving. ${NETWORK_ADVICE}`,
            ),
          );
        }, stallTimeoutMs);
      }
    };
    const report = (progress: LoadProgress) => {
      armStall();
      onProgress?.(progress);
    };
    connection.progress = report;
    engine.setAppConfig(appConfig);
    report({ progress: 0, text: `Loading ${modelId}: fetching its configuration and library…` });

    try {
      const loading = engine.reload(modelId).catch((error: unknown) => {
        throw classifyWebLlmError(error, 'load', modelId);
      });
      await guard(
        Promise.race([loading, stalled]),
        watch,
        { signal, error: () => aborted(`Loading ${modelId}`) },
        { signal: client.ending.signal, error: () => new ChatTransportError('aborted', `Loading ${modelId} was stopped: ${client.gone}.`) },
      );
      return client;
    } catch (error) {
      if (connection.current === client) {
        client.end('its load failed');
        connection.current = null;
        // Stop the download in the worker too (WebLLM's unload aborts a reload's fetches).
        if (!watch.crash) engine.unload().catch(() => {});
      }
      throw error;
    } finally {
      clearTimeout(stallTimer);
      if (connection.progress === report) connection.progress = null;
    }
  }

  async complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    this.assertUsable();
    if (signal?.aborted) throw aborted('The request');
    const { engine, watch } = this.connection;
    // The time limit counts from the turn's start, not from the queue: a request waiting behind
    // another is not stuck.
    const overdue = new AbortController();
    let overdueTimer: ReturnType<typeof setTimeout> | undefined;
    const turn = this.tail.then(async () => {
      if (signal?.aborted) throw aborted('The request');
      this.assertUsable();
      if (this.requestTimeoutMs > 0) overdueTimer = setTimeout(() => overdue.abort(), this.requestTimeoutMs);
      try {
        return await engine.chat.completions.create({
          messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
          temperature: request.temperature,
          max_tokens: request.max_tokens,
          seed: request.seed,
          response_format: request.response_format,
          stream: false,
        });
      } catch (error) {
        throw classifyWebLlmError(error, 'request', this.modelId);
      }
    });
    this.tail = turn.catch(() => {});
    try {
      const completion = await guard(
        turn,
        watch,
        {
          signal,
          error: () => {
            engine.interruptGenerate();
            return aborted('The request');
          },
        },
        { signal: overdue.signal, error: () => this.overdueError() },
        { signal: this.ending.signal, error: () => this.goneError() },
      );
      return toChatResponse(completion);
    } finally {
      clearTimeout(overdueTimer);
    }
  }

  /** Hear about the worker crashing (e.g. to tell the person and offer a reload). */
  onCrash(listener: (error: ChatTransportError) => void): () => void {
    return this.connection.watch.onCrash(listener);
  }

  /** Free the model's GPU memory. The worker stays; load again to use it. */
  async unload(): Promise<void> {
    if (this.gone) return;
    this.end('it was unloaded');
    const { engine, watch } = this.connection;
    if (this.connection.current !== this) return;
    this.connection.current = null;
    if (watch.crash) return;
    try {
      await guard(engine.unload(), watch);
    } catch {
      // A worker that died while unloading holds no model any more.
    }
  }

  /** Stop answering, with the reason requests are told (module-internal). */
  end(reason: string): void {
    if (this.gone) return;
    this.gone = reason;
    this.ending.abort();
  }

  /** A request past its time limit: stop the generation and end the client (see `requestTimeoutMs`). */
  private overdueError(): ChatTransportError {
    const limit = seconds(this.requestTimeoutMs);
    this.connection.engine.interruptGenerate();
    // After this request has its own error: ending first would answer it with the queued ones'.
    queueMicrotask(() => this.end(`a request ran past its ${limit} limit`));
    return new ChatTransportError(
      'timeout',
      `${this.modelId} did not answer within ${limit}, so the request was stopped and the model set aside: the GPU may have been lost or be stuck. Reload the page or load the model again; if it recurs, pick a smaller model.`,
    );
  }

  private goneError(): ChatTransportError {
    return new ChatTransportError('model-load', `${this.modelId} is no longer loaded (${this.gone}). Load it again to use it.`);
  }

  private assertUsable(): void {
    if (this.connection.watch.crash) throw this.connection.watch.crash;
    if (this.gone) throw this.goneError();
  }
}

/**
 * End an LLM worker on purpose (e.g. when the person picks another experience model): its client
 * stops answering ("no longer loaded") and `onCrash` listeners do not hear of it as a crash.
 */
export function terminateWebLlmWorker(worker: Worker): void {
  const connection = connections.get(worker);
  if (connection) {
    connection.watch.retire();
    connection.current?.end('its worker was terminated');
    connection.current = null;
    connections.delete(worker);
  }
  worker.terminate();
}

// --- GPU and cache helpers -----------------------------------------------------------------------

/** Whether the WebGPU adapter has `shader-f16` (then f16 builds run); null when there is no WebGPU. */
export async function gpuHasShaderF16(): Promise<boolean | null> {
  const probe = await probeWebGpu();
  return probe.available ? probe.shaderF16 : null;
}

export type ModelCacheStatus = 'cached' | 'not-cached' | 'unavailable';

/** The Cache API exists only in secure contexts (https, localhost). */
function cacheApiAvailable(): boolean {
  return typeof caches !== 'undefined';
}

function usesCacheApi(appConfig: AppConfig): boolean {
  return appConfig.cacheBackend === undefined || appConfig.cacheBackend === 'cache';
}

/** Whether all of the model's weights are in the browser cache (then it loads offline). */
export async function modelCacheStatus(modelId: string, appConfig: AppConfig = prebuiltAppConfig): Promise<ModelCacheStatus> {
  findRecord(modelId, appConfig);
  if (usesCacheApi(appConfig) && !cacheApiAvailable()) return 'unavailable';
  try {
    return (await hasModelInCache(modelId, appConfig)) ? 'cached' : 'not-cached';
  } catch {
    return 'unavailable';
  }
}

/** WebLLM's `cleanModelUrl` (not exported): the folder its cache keys of a model start with. */
function modelFolderUrl(model: string): string {
  let url = model.endsWith('/') ? model : `${model}/`;
  // A folder after `/resolve/` (the URL ends with `/`); indexOf, where `/.+\/resolve\/.+\//` was quadratic.
  const resolve = url.indexOf('/resolve/', 1);
  if (resolve < 0 || url.length - 1 <= resolve + '/resolve/'.length) url += 'resolve/main/';
  return new URL(url).href;
}

/**
 * Whether another cached model uses the same compiled library (e.g. Qwen2.5-0.5B and
 * Qwen2.5-Coder-0.5B share one .wasm): deleting it would make that model need the network again.
 */
async function libraryShared(record: ModelRecord, appConfig: AppConfig): Promise<boolean> {
  const others = appConfig.model_list.filter((r) => r.model_lib === record.model_lib && r.model_id !== record.model_id);
  for (const other of others) {
    if (await hasModelInCache(other.model_id, appConfig).catch(() => false)) return true;
  }
  return false;
}

/**
 * Delete what WebLLM cached for a model: weights, tokenizer, config, and the library unless another
 * cached model uses it. WebLLM's `deleteModelAllInfoInCache` reads the shard list from
 * `tensor-cache.json` through a fetch that downloads it when it is not cached (so it fails
 * offline), leaves that file and the shards of an interrupted download behind, and deletes a
 * shared library; with the default Cache API backend, every cached file under the model's folder
 * is deleted instead. Other backends go through WebLLM's own functions.
 */
export async function deleteCachedModel(modelId: string, appConfig: AppConfig = prebuiltAppConfig): Promise<void> {
  const record = findRecord(modelId, appConfig);
  if (usesCacheApi(appConfig) && !cacheApiAvailable()) return;
  if (!usesCacheApi(appConfig)) {
    if (await hasModelInCache(modelId, appConfig)) await deleteModelInCache(modelId, appConfig);
  } else {
    const folder = modelFolderUrl(record.model);
    const cache = await caches.open('webllm/model');
    const keys = await cache.keys();
    await Promise.all(keys.filter((request) => request.url.startsWith(folder)).map((request) => cache.delete(request)));
  }
  await deleteChatConfigInCache(modelId, appConfig);
  if (!(await libraryShared(record, appConfig))) await deleteModelWasmInCache(modelId, appConfig);
}
