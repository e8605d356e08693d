/**
 * The HTTP transport: a `ChatClient` for any OpenAI-compatible chat-completions endpoint
 * (llama.cpp's llama-server, Ollama, vLLM, SGLang, this project's `serve`). It runs in a page, a
 * worker and Node alike (only `fetch`), and adds what a training loop needs from a server it does
 * not control: a concurrency limit, a timeout per attempt, bounded retries with backoff for the
 * failures that pass (429, 5xx, a dropped connection, a garbled body), and errors that say what to
 * do, including the one a browser hides behind "Failed to fetch": CORS.
 *
 * Constrained decoding: a request with a schema is sent as OpenAI's
 * `{type: 'json_schema', json_schema: {name, schema}}`, which llama-server, vLLM, SGLang, Ollama
 * (0.5+) and OpenAI itself all read; without a schema, as `{type: 'json_object'}`.
 */
import { UsageError, errorMessage } from '../../core/errors.ts';
import { ChatTransportError, type ChatClient, type ChatFailureKind, type ChatRequest, type ChatResponse, type ChatUsage } from './chat.ts';
import { boundedText, excerpt, isShowable, trimEndOf } from '../../core/text.ts';
import { apiKeyProblem } from './api-key.ts';

export interface HttpClientOptions {
  /** The server's address, with or without `/v1` (`http://127.0.0.1:8080`, `http://host:11434/v1`). */
  baseUrl: string;
  /** The model name the server expects (Ollama: `qwen2.5:0.5b`; llama-server accepts any). */
  model: string;
  /** Sent as `Authorization: Bearer …` (vLLM `--api-key`, hosted endpoints). */
  apiKey?: string;
  /** Requests in flight at once (default 4); more wait their turn. */
  concurrency?: number;
  /** Per attempt, from sending the request to the end of the answer (default 60 s). */
  timeoutMs?: number;
  /** Extra attempts after a 429, a 5xx, a dropped connection or a garbled body (default 3). */
  retries?: number;
  /** First backoff (default 500 ms), doubled each retry, with jitter; a 429's Retry-After wins. */
  backoffMs?: number;
  /** No single wait between attempts is longer than this (default 30 s), Retry-After included. */
  maxBackoffMs?: number;
  /** Injected for tests and for environments with their own fetch. */
  fetch?: typeof fetch;
  /** Sent with every request besides the client's own (a room's participant id: chat-server.ts CLIENT_HEADER). */
  headers?: Readonly<Record<string, string>>;
}

/** How long one attempt waits for its answer unless told otherwise; the Experience view shows it beside the wait. */
export const DEFAULT_TIMEOUT_MS = 60_000;

const DEFAULTS = { concurrency: 4, timeoutMs: DEFAULT_TIMEOUT_MS, retries: 3, backoffMs: 500, maxBackoffMs: 30_000 };

// --- the address -------------------------------------------------------------------------------

/**
 * The server's root, checked: origin plus any path prefix, without `/v1` or a trailing slash. People paste the address in every form servers
 * document it (`…:8080`, `…:11434/v1`, even the whole `…/v1/chat/completions`), so all are taken;
 * a path before them (a reverse proxy's prefix) is kept.
 */
export function normaliseBaseUrl(baseUrl: string): string {
  const text = String(baseUrl ?? '').trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`The endpoint URL ${excerpt(text)} ${unreadableUrlProblem(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`The endpoint URL ${excerpt(text)} must start with http:// or https:// (got ${url.protocol}).`);
  }
  if (url.search || url.hash) throw new UsageError(`The endpoint URL ${excerpt(text)} must not carry a query or fragment; give the server's address only.`);
  // A key in the address would be sent to no one (fetch drops it) and shown in every message.
  if (url.username || url.password) throw new UsageError('The endpoint URL must not carry a user name or password; send the key with the API key setting (--api-key-file FILE on the command line).');
  const prefix = trimEndOf(url.pathname, '/')
    .replace(/\/chat\/completions$/, '')
    .replace(/\/v1$/, '');
  return `${url.origin}${prefix}`;
}

/** What is wrong with an address `new URL` refused, where it can be told: the port, or the missing scheme. */
function unreadableUrlProblem(text: string): string {
  const port = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@]*:(\d+)(?:[/?#]|$)/i.exec(text)?.[1];
  if (port !== undefined && Number(port) > 65_535) return `has the port ${port.length > 12 ? `${port.slice(0, 12)}…` : port}, past the last one (65535); check the port the server listens on.`;
  return 'is not an absolute URL; write it with its scheme and host, e.g. http://127.0.0.1:8080 or http://localhost:11434/v1.';
}

// --- a semaphore -------------------------------------------------------------------------------

/**
 * A counting semaphore whose waiters can give up (an aborted request leaves the queue at once).
 * Written out rather than a dependency: p-limit cannot take back one queued call when its caller
 * aborts, and p-queue, which can, is far more than a counter and a queue.
 */
class Semaphore {
  private active = 0;
  private readonly queue: { grant(): void }[] = [];
  constructor(private readonly size: number) {}

  async acquire(signal: AbortSignal | undefined, onAbort: () => Error): Promise<() => void> {
    if (this.active < this.size) this.active++;
    else {
      await new Promise<void>((resolve, reject) => {
        const waiter = { grant: () => (signal?.removeEventListener('abort', abort), resolve()) };
        const abort = () => {
          const at = this.queue.indexOf(waiter);
          if (at >= 0) this.queue.splice(at, 1);
          reject(onAbort());
        };
        signal?.addEventListener('abort', abort, { once: true });
        this.queue.push(waiter);
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next) next.grant(); // the slot passes straight on: `active` stays the same
      else this.active--;
    };
  }
}

// --- errors ------------------------------------------------------------------------------------

/** Node's fetch (undici) hides the socket error in `cause` (sometimes an AggregateError of them). */
function networkCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const first = (e as { errors?: unknown[] }).errors?.[0] as { code?: unknown } | undefined;
    if (typeof first?.code === 'string') return first.code;
  }
  return undefined;
}

/** The connection was made and then lost: worth another attempt (a restart, a keep-alive race). */
const DROPPED = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** True when a `fetch` that threw had a connection and lost it (Node tells; a browser does not). */
export function isDroppedConnection(error: unknown): boolean {
  const code = networkCode(error);
  return code !== undefined && DROPPED.has(code);
}

/**
 * What a `fetch` that threw (no HTTP status at all) most likely means. In Node the socket error
 * says. A browser says only "Failed to fetch" and, on purpose, not why: to another origin that is
 * most often CORS (the server answered without Access-Control-Allow-Origin), but a server that is
 * not running looks the same, so the message covers both.
 */
export function classifyNetworkError(error: unknown, url: string, pageOrigin: string | undefined = globalThis.location?.origin): ChatTransportError {
  const code = networkCode(error);
  const detail = boundedText(errorMessage(error));
  const target = new URL(url);
  if (code !== undefined && DROPPED.has(code)) {
    return new ChatTransportError('http', `${url} closed the connection without answering (${code}). The server may have crashed or restarted; check its log.`, { cause: error });
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new ChatTransportError('refused', `could not connect to ${url}: the host name "${target.hostname}" does not resolve (${code}). Check the endpoint URL.`, { cause: error });
  }
  if (code !== undefined || pageOrigin === undefined || pageOrigin === 'null') {
    return new ChatTransportError(
      'refused',
      `could not connect to ${url}: is the server running? Start it (llama-server, ollama serve, vllm serve …) and check the host and port in the endpoint URL (${code ?? detail}).`,
      { cause: error },
    );
  }
  if (target.origin === pageOrigin) {
    return new ChatTransportError('refused', `could not connect to ${url}: is the server running? The browser reports only ${excerpt(detail)}; check the endpoint URL and the server's log.`, { cause: error });
  }
  const mixed = target.protocol === 'http:' && pageOrigin.startsWith('https:') && !['localhost', '127.0.0.1', '[::1]'].includes(target.hostname);
  return new ChatTransportError(
    'cors',
    `could not reach ${url} from this page (${pageOrigin}). Either the server is not running, or it does not allow calls from this page: ` +
      `the browser drops an answer from another origin unless the server sends Access-Control-Allow-Origin (the browser console says which). ` +
      `llama.cpp's llama-server sends it by default; start Ollama with OLLAMA_ORIGINS=${pageOrigin} (or '*'); start vLLM with --allowed-origins '["${pageOrigin}"]'.` +
      (mixed ? ' Also, a page served over https cannot call a plain http:// server on another machine: serve the endpoint over https or open this page over http.' : ''),
    { cause: error },
  );
}

/** The server's own words about a failure, from OpenAI's, vLLM's, FastAPI's or a plain-text body; bounded, never the whole body. */
function serverMessage(text: string): string {
  let said: string | undefined;
  try {
    const json = JSON.parse(text) as { error?: unknown; message?: unknown; detail?: unknown };
    const error = json.error;
    if (typeof error === 'string') said = error;
    else if (error && typeof (error as { message?: unknown }).message === 'string') said = (error as { message: string }).message;
    else if (typeof json.message === 'string') said = json.message;
    else if (typeof json.detail === 'string') said = json.detail;
  } catch {
    // not JSON: the text itself
  }
  return boundedText((said ?? text.slice(0, 1000).replace(/\s+/g, ' ').trim()).trim(), 200);
}

/** How long a Retry-After header asks to wait (seconds or an HTTP date), in ms; undefined if absent or unreadable. */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

function seconds(ms: number): string {
  return ms >= 10_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 1000).toFixed(1)} s`;
}

// --- the client --------------------------------------------------------------------------------

/** One attempt's failure: the error to throw, and whether another attempt may help. */
interface AttemptFailure {
  error: ChatTransportError;
  retryable: boolean;
  waitMs?: number;
}

function positiveInt(value: number, name: string, min: number): number {
  if (!Number.isInteger(value) || value < min) throw new UsageError(`${name} must be an integer ≥ ${min}, got ${value}`);
  return value;
}

function toResponseFormat(format: ChatRequest['response_format']): unknown {
  if (!format) return undefined;
  if (format.schema === undefined) return { type: 'json_object' };
  let schema: unknown;
  try {
    schema = JSON.parse(format.schema);
  } catch (error) {
    throw new UsageError(`response_format.schema is not JSON (${errorMessage(error)}); pass the schema as JSON.stringify(schema)`);
  }
  return { type: 'json_schema', json_schema: { name: 'experience_step', schema } };
}

function finiteCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

export class OpenAiHttpClient implements ChatClient {
  readonly name: string;
  readonly maxConcurrency: number;
  /** The full chat-completions address requests go to. */
  readonly endpoint: string;
  private readonly options: Required<Omit<HttpClientOptions, 'apiKey' | 'fetch'>> & { apiKey?: string };
  private readonly fetch: typeof fetch;
  private readonly slots: Semaphore;

  constructor(options: HttpClientOptions) {
    const root = normaliseBaseUrl(options.baseUrl);
    if (typeof options.model !== 'string' || options.model.trim() === '') throw new UsageError('Name the model the server should use (e.g. the one `ollama list` shows).');
    // Checked before any request: fetch refuses such a header with an error that quotes it, key and all.
    const keyProblem = options.apiKey ? apiKeyProblem(options.apiKey) : null;
    if (keyProblem !== null) throw new UsageError(`The API key ${keyProblem}.`);
    if (!isShowable(options.model) || options.model.length > 256) throw new UsageError(`The model name ${excerpt(options.model)} must be one line of at most 256 characters (e.g. the one \`ollama list\` shows).`);
    this.options = {
      baseUrl: root,
      model: options.model.trim(),
      concurrency: positiveInt(options.concurrency ?? DEFAULTS.concurrency, 'concurrency', 1),
      timeoutMs: positiveInt(options.timeoutMs ?? DEFAULTS.timeoutMs, 'timeoutMs', 1),
      retries: positiveInt(options.retries ?? DEFAULTS.retries, 'retries', 0),
      backoffMs: positiveInt(options.backoffMs ?? DEFAULTS.backoffMs, 'backoffMs', 0),
      maxBackoffMs: positiveInt(options.maxBackoffMs ?? DEFAULTS.maxBackoffMs, 'maxBackoffMs', 0),
      headers: { ...options.headers },
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    };
    this.endpoint = `${root}/v1/chat/completions`;
    this.name = `http/${this.options.model}@${new URL(root).host}`;
    this.maxConcurrency = this.options.concurrency;
    // A bare `fetch` reference loses its `this` in some browsers ("Illegal invocation").
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.slots = new Semaphore(this.maxConcurrency);
  }

  async complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    const aborted = () => new ChatTransportError('aborted', 'The request was stopped.');
    if (signal?.aborted) throw aborted();
    const body = JSON.stringify({
      model: this.options.model,
      messages: request.messages,
      temperature: request.temperature,
      max_tokens: request.max_tokens,
      seed: request.seed,
      response_format: toResponseFormat(request.response_format),
      stream: false,
    });
    const release = await this.slots.acquire(signal, aborted);
    try {
      const { retries, backoffMs, maxBackoffMs } = this.options;
      for (let attempt = 0; ; attempt++) {
        const outcome = await this.attempt(body, signal);
        if ('content' in outcome) return outcome;
        if (!outcome.retryable || attempt >= retries) {
          if (attempt > 0 && outcome.retryable) outcome.error.message += ` (gave up after ${attempt + 1} attempts)`;
          throw outcome.error;
        }
        // Exponential backoff with "equal jitter": half fixed, half random, so clients that failed
        // together do not come back together. A 429's Retry-After is the server's own answer.
        const exponential = Math.min(maxBackoffMs, backoffMs * 2 ** attempt);
        const delay = Math.min(maxBackoffMs, outcome.waitMs ?? exponential / 2 + Math.random() * (exponential / 2));
        await sleep(delay, signal, aborted);
      }
    } finally {
      release();
    }
  }

  private async attempt(body: string, signal: AbortSignal | undefined): Promise<ChatResponse | AttemptFailure> {
    const { timeoutMs, apiKey, model } = this.options;
    const url = this.endpoint;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const stopped = (error: unknown): AttemptFailure | undefined => {
      if (signal?.aborted) return { error: new ChatTransportError('aborted', 'The request was stopped.', { cause: error }), retryable: false };
      if (timedOut) {
        return {
          error: new ChatTransportError(
            'timeout',
            `${url} did not answer within ${seconds(timeoutMs)}. The server may be busy or the model (${model}) too slow for this prompt: raise the timeout, lower the concurrency, or use a smaller model.`,
            { cause: error },
          ),
          retryable: false,
        };
      }
      return undefined;
    };
    try {
      let response: Response;
      try {
        response = await this.fetch(url, {
          method: 'POST',
          headers: { ...this.options.headers, 'Content-Type': 'application/json', Accept: 'application/json', ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}) },
          body,
          signal: controller.signal,
        });
      } catch (error) {
        const stop = stopped(error);
        if (stop) return stop;
        const failure = classifyNetworkError(error, url);
        // The key is checked before it is sent, so no error should quote it; if one ever does, it is not shown.
        if (apiKey) failure.message = failure.message.split(apiKey).join('<the API key>');
        return { error: failure, retryable: isDroppedConnection(error) };
      }
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        const stop = stopped(error);
        if (stop) return stop;
        return { error: new ChatTransportError('http', `${url} cut the answer off midway (${boundedText(errorMessage(error))}). Check the server's log.`, { cause: error, status: response.status }), retryable: true };
      }
      return this.read(response, text);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private read(response: Response, text: string): ChatResponse | AttemptFailure {
    const url = this.endpoint;
    const { status } = response;
    if (!response.ok) {
      const said = serverMessage(text);
      const what = `${url} answered ${status}${response.statusText ? ` ${boundedText(response.statusText, 80)}` : ''}${said ? `: ${said}` : ''}`;
      if (status === 429) {
        const waitMs = retryAfterMs(response.headers.get('retry-after'));
        return {
          error: new ChatTransportError('rate-limited', `${what}. The server is rate-limiting: lower the concurrency or wait a little.`, { status }),
          retryable: true,
          ...(waitMs !== undefined ? { waitMs } : {}),
        };
      }
      if (status >= 500 || status === 408) {
        return { error: new ChatTransportError('http', `${what}. The server failed; check its log (out of memory, model not loaded).`, { status }), retryable: true };
      }
      const advice =
        status === 401 || status === 403
          ? 'Check the API key.'
          : status === 404
            ? `Check the endpoint URL (the server must serve /v1/chat/completions) and the model name ${excerpt(this.options.model)}.`
            : status === 413
              ? 'The prompt is too large for the server: use fewer examples or a shorter history.'
              : `Check the model name ${excerpt(this.options.model)} and the request options.`;
      return { error: new ChatTransportError('http', `${what}. ${advice}`, { status }), retryable: false };
    }
    const badBody = (kind: ChatFailureKind, problem: string): AttemptFailure => ({
      error: new ChatTransportError(kind, `${url} answered ${status} but ${problem}: ${excerpt(text.replace(/\s+/g, ' ').trim(), 120)}. Is this an OpenAI-compatible chat-completions server?`, { status }),
      retryable: true,
    });
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return badBody('bad-body', 'the body is not JSON');
    }
    const choice = (json as { choices?: unknown } | null)?.choices;
    const first = Array.isArray(choice) ? (choice[0] as { message?: { content?: unknown }; finish_reason?: unknown } | undefined) : undefined;
    const content = first?.message?.content;
    if (typeof content !== 'string') return badBody('bad-body', 'the body has no choices[0].message.content text');
    const result: ChatResponse = { content };
    if (typeof first?.finish_reason === 'string') result.finishReason = first.finish_reason;
    const usage = (json as { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } }).usage;
    const prompt = finiteCount(usage?.prompt_tokens);
    const completion = finiteCount(usage?.completion_tokens);
    if (prompt !== undefined && completion !== undefined) result.usage = { prompt_tokens: prompt, completion_tokens: completion } satisfies ChatUsage;
    return result;
  }
}

function sleep(ms: number, signal: AbortSignal | undefined, onAbort: () => Error): Promise<void> {
  if (ms <= 0 && !signal?.aborted) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(onAbort());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(onAbort());
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}
