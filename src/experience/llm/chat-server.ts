/**
 * A small OpenAI-compatible chat-completions server on node:http (Node only), behind the `serve`
 * command: `GET /v1/models` and non-streaming `POST /v1/chat/completions`, answered by a callback.
 * It lets the HTTP transport be tested against a real server, and a workshop host serve one
 * experience model to a room of browsers.
 *
 * It is a server on someone's machine, so it is closed by default: only pages on loopback origins
 * (and the origins the host names) get a CORS grant, a page on any other origin is refused with 403
 * before anything is read, Chrome's private-network grant is given only when asked for, an API key
 * (when set) is required on every request but the preflight, a chat request must be JSON (415
 * otherwise), and each client address gets a rate limit (429 with Retry-After past it).
 *
 * Faults can be injected for tests (`--faults 429,500,malformed,slow:2000,drop`): each chat request
 * takes the next fault in order, and once they are used up the server answers normally. Other
 * routes (models, preflight) never take a fault, so a client that probes first does not eat one.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import * as v from 'valibot';
import { UsageError, errorMessage } from '../../core/errors.ts';
import { ROOM_CLIENT_HEADER, type ChatRequest } from './chat.ts';
import { boundedText, excerpt, trimEndOf } from '../../core/text.ts';

export type Fault = { kind: 'status'; status: number } | { kind: 'slow'; ms: number } | { kind: 'malformed' } | { kind: 'drop' };

const FAULT_SYNTAX = 'a comma-separated list of: an HTTP status 400-599 (e.g. 429, 500), malformed, drop, slow:MS (e.g. slow:2000)';

/** "429,500,malformed,slow:2000,drop": one fault per request, in order, then normal answers. Throws UsageError on bad text. */
export function parseFaults(text: string): Fault[] {
  const faults: Fault[] = [];
  for (const raw of text.split(',')) {
    const token = raw.trim().toLowerCase();
    if (token === '') continue;
    if (token === 'malformed' || token === 'drop') {
      faults.push({ kind: token });
      continue;
    }
    const status = /^\d+$/.test(token) ? Number(token) : NaN;
    if (status >= 400 && status <= 599) {
      faults.push({ kind: 'status', status });
      continue;
    }
    const slow = /^slow:(\d+)$/.exec(token);
    if (slow && Number(slow[1]) <= 600_000) {
      faults.push({ kind: 'slow', ms: Number(slow[1]) });
      continue;
    }
    throw new UsageError(`--faults: ${excerpt(raw.trim())} is not a fault; use ${FAULT_SYNTAX} (slow at most 600000 ms)`);
  }
  return faults;
}

export interface ChatAnswer {
  content: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
}

export interface ChatServerOptions {
  /** Default 127.0.0.1: loopback only, unless the host asks to be reachable from the network. */
  host?: string;
  /** 0 = any free port. */
  port?: number;
  /** The id of the model a request gets when it names none; `/v1/models` lists it first. */
  model: string;
  /** Other models served beside it (a request's `model` picks one; an id not served is a 404). */
  otherModels?: readonly string[];
  /**
   * Answer with the model the request picked (`model`, one of the ids served). Throw `UsageError`
   * for a request that cannot be answered (→ 400 with its message); anything else → 500.
   */
  answer(request: ChatRequest, signal: AbortSignal, model: string): Promise<ChatAnswer>;
  faults?: Fault[];
  log?: (line: string) => void;
  /** Which requests `log` gets a line for: every one (default), or only those not answered 2xx (a busy room). */
  logRequests?: 'all' | 'failures';
  /**
   * Every `everySeconds` with traffic, a line on the room: clients seen (by the `X-DreamGym-Client`
   * id a page sends, else by address), requests per second and failures in that window.
   */
  roomReport?: { everySeconds: number; print: (line: string) => void };
  /** Largest request body accepted (default 4 MB); larger ones get 413. */
  maxBodyBytes?: number;
  /** Bytes of request bodies held at once, all requests together (default 16 bodies' worth); past it, 503 with Retry-After. */
  maxBytesInFlight?: number;
  /** Required as `Authorization: Bearer <key>` on every request but the preflight (401 otherwise). */
  apiKey?: string;
  /** Origins (e.g. `https://dreamgym.example`) whose pages may call the server besides loopback ones; `*`: any. */
  allowedOrigins?: readonly string[];
  /** Grant Chrome's Private Network Access preflight (a page on a public origin calling this machine). Default off. */
  allowPrivateNetwork?: boolean;
  /** Requests per second per client address, with bursts of twice that; 0: no limit. Default DEFAULT_RATE_LIMIT. */
  rateLimit?: number;
}

/** Per client address: a room's browsers each train at a few requests in flight, well under this. */
export const DEFAULT_RATE_LIMIT = 100;

export interface RunningChatServer {
  /** http://host:port */
  url: string;
  port: number;
  /** Requests answered so far (2xx) and not (every other status or none), and the clients seen. */
  counts(): { answered: number; failed: number; clients: number };
  close(): Promise<void>;
}

/** A client: its address, and its id there (the header when it is a short token, else the address). */
function clientOf(req: IncomingMessage): { address: string; id: string } {
  const sent = req.headers[ROOM_CLIENT_HEADER];
  const address = req.socket.remoteAddress ?? 'unknown';
  return { address, id: typeof sent === 'string' && /^[\w-]{1,64}$/.test(sent) ? `${address}/${sent}` : address };
}

/** What a room's host sees every few seconds: who is stepping and how fast. */
class RoomStats {
  private window = { requests: 0, failures: 0, clients: new Set<string>() };
  private readonly everSeen = new Set<string>();
  answered = 0;
  failed = 0;

  record(client: string, ok: boolean): void {
    this.window.requests++;
    this.window.clients.add(client);
    if (this.everSeen.size < 100_000) this.everSeen.add(client);
    if (ok) this.answered++;
    else {
      this.failed++;
      this.window.failures++;
    }
  }

  get clientsSeen(): number {
    return this.everSeen.size;
  }

  /** The window's line, or null when it had no request; starts the next window. */
  flush(seconds: number): string | null {
    const w = this.window;
    this.window = { requests: 0, failures: 0, clients: new Set() };
    if (w.requests === 0) return null;
    return `room: ${w.clients.size} client${w.clients.size === 1 ? '' : 's'} stepping, ${(w.requests / seconds).toFixed(1)} requests/s, ${w.failures} failed in the last ${seconds} s (${this.everSeen.size} clients since the start)`;
  }
}

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

// --- the request body --------------------------------------------------------------------------

/**
 * What a chat request's JSON may hold, checked on its text before it is parsed. Parsing is the one
 * step the server cannot interrupt, and what it costs grows with what a body holds, not with its
 * size alone: 2 MB of nested brackets took 1.7 s to parse (every other client waited), and a deeply
 * nested schema overflowed the stack when written back as text (a 500, which clients retry). A
 * chat request is a few messages and a small schema; these bounds are far past any.
 */
export const MAX_JSON_DEPTH = 64;
/** Values (objects, arrays, members and elements) a body may hold. */
export const MAX_JSON_VALUES = 50_000;
/** Messages a request may hold (a long multi-round episode is a few hundred). */
export const MAX_MESSAGES = 1_000;

/**
 * Why the body's JSON is past the bounds (its nesting or its number of values), or null: one pass
 * over the text, strings skipped, so that a hostile body costs no more to refuse than to read.
 */
export function jsonShapeProblem(text: string): string | null {
  let depth = 0;
  let values = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skip to its closing quote, past escaped characters.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) return `the body nests deeper than ${MAX_JSON_DEPTH} levels; a chat request (its schema included) needs a few`;
      values++;
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2c || c === 0x3a) values++;
    if (values > MAX_JSON_VALUES) return `the body holds more than ${MAX_JSON_VALUES.toLocaleString('en-US')} JSON values; a chat request holds a few messages and a schema`;
  }
  return null;
}

const Message = v.object(
  {
    role: v.picklist(['system', 'user', 'assistant'], 'role must be "system", "user" or "assistant"'),
    content: v.string('content must be a string'),
  },
  'each message must be an object {role, content}',
);

// Both the OpenAI shape (json_schema.schema) and the llama.cpp/WebLLM one (json_object + schema) are
// read, so any client's constrained-decoding request is understood.
const ResponseFormat = v.object(
  {
    type: v.picklist(['text', 'json_object', 'json_schema'], 'response_format.type must be "text", "json_object" or "json_schema"'),
    schema: v.optional(v.unknown()),
    json_schema: v.optional(
      v.object({ name: v.optional(v.string('response_format.json_schema.name must be a string')), schema: v.optional(v.unknown()) }, 'response_format.json_schema must be an object {name, schema}'),
    ),
  },
  'response_format must be an object {type, …}',
);

const finiteNumber = (what: string) => v.pipe(v.number(`${what} must be a number`), v.finite(`${what} must be finite`));

// `v.object` ignores keys it does not name, so the fields OpenAI clients add (top_p, n, stop…) pass.
// Every check has its own words: valibot's default ones quote the value received, unbounded.
const Body = v.object({
  model: v.optional(v.string('model must be a string')),
  messages: v.pipe(
    v.array(Message, 'messages must be an array of {role, content}'),
    v.minLength(1, 'messages is empty'),
    v.maxLength(MAX_MESSAGES, `messages holds more than ${MAX_MESSAGES.toLocaleString('en-US')}; send the episode's recent rounds`),
  ),
  temperature: v.optional(v.nullable(finiteNumber('temperature'))),
  max_tokens: v.optional(v.nullable(v.pipe(finiteNumber('max_tokens'), v.integer('max_tokens must be an integer'), v.minValue(1, 'max_tokens must be at least 1')))),
  seed: v.optional(v.nullable(v.pipe(finiteNumber('seed'), v.integer('seed must be an integer')))),
  stream: v.optional(v.nullable(v.boolean('stream must be a boolean'))),
  response_format: v.optional(v.nullable(ResponseFormat)),
});

type Body = v.InferOutput<typeof Body>;

function schemaText(schema: unknown): string | undefined {
  if (schema === undefined || schema === null) return undefined;
  // The body's depth is bounded (jsonShapeProblem), so writing the schema back cannot overflow.
  return typeof schema === 'string' ? schema : JSON.stringify(schema);
}

/** The request in this project's `ChatRequest` shape (the schema as text, as WebLLM takes it). */
function toChatRequest(body: Body): ChatRequest {
  const request: ChatRequest = { messages: body.messages.map((m) => ({ role: m.role, content: m.content })) };
  if (typeof body.temperature === 'number') request.temperature = body.temperature;
  if (typeof body.max_tokens === 'number') request.max_tokens = body.max_tokens;
  if (typeof body.seed === 'number') request.seed = body.seed;
  const format = body.response_format;
  if (format && format.type !== 'text') {
    const schema = schemaText(format.type === 'json_schema' ? format.json_schema?.schema : format.schema);
    request.response_format = schema === undefined ? { type: 'json_object' } : { type: 'json_object', schema };
  }
  return request;
}

function describeIssue(issues: readonly v.BaseIssue<unknown>[]): string {
  const issue = issues[0];
  if (!issue) return 'the body is not a chat-completions request';
  const path = issue.path?.map((p) => String(p.key)).join('.') ?? '';
  return `${path ? `${path}: ` : ''}${boundedText(issue.message)}`;
}

// --- replies -----------------------------------------------------------------------------------

/**
 * Whether a page on `origin` may call the server: loopback pages always (the app run locally, the
 * tests), others only when named. Requests without an Origin (curl, Node clients) are not pages.
 */
/** `https://host[:port]` and nothing more: what a browser sends as Origin, and what `--allow-origin` takes. */
export function isWebOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === text;
  } catch {
    return false;
  }
}

/**
 * What the host can do about a page refused: name its origin with `--allow-origin`, where that is
 * an origin the flag takes. A page opened from a file or a sandboxed frame sends `Origin: null`, and
 * an extension its own scheme; neither can be named, so the advice is what the flag does take.
 */
export function originAdvice(origin: string): string {
  if (isWebOrigin(origin)) return `its host can allow them with --allow-origin ${origin}`;
  const which = origin === 'null' ? 'a page opened from a file or a sandboxed frame (Origin: null)' : `a page on ${excerpt(origin)}`;
  return `${which} cannot be allowed by name: open the page over http(s) (e.g. http://localhost:PORT), or its host can allow every page with --allow-origin '*'`;
}

export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  if (allowed.includes('*') || allowed.includes(origin)) return true;
  try {
    return ['localhost', '127.0.0.1', '[::1]'].includes(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/** What every answer to an allowed page carries, errors included, or the page cannot read it. */
const corsHeaders = (origin: string): Record<string, string> => ({
  'Access-Control-Allow-Origin': origin,
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Expose-Headers': 'Retry-After',
  Vary: 'Origin',
});

/** Constant-time comparison of the key sent with the key set (hashes are equal in length). */
function keyMatches(sent: string, key: string): boolean {
  return timingSafeEqual(createHash('sha256').update(sent).digest(), createHash('sha256').update(key).digest());
}

/**
 * Browsers behind one address (a classroom's NAT, the tests' loopback) each get their own bucket,
 * told apart by the client header; the address as a whole gets this many clients' worth. Without the
 * cap, a new header on every request was a fresh bucket every time: no limit at all.
 */
export const CLIENTS_PER_ADDRESS = 64;

/** Buckets kept at most: beyond it, the least recently used go first (a full bucket is what a newcomer gets anyway). */
const MAX_BUCKETS = 10_000;

/** Token buckets by key: `rate` per second, `2 × rate` deep; the least recently used go when there are too many. */
class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(private readonly rate: number) {}

  get size(): number {
    return this.buckets.size;
  }

  /** Seconds until a bucket may give a token; 0 when it may now. */
  wait(bucket: { tokens: number }): number {
    return bucket.tokens >= 1 ? 0 : Math.ceil((1 - bucket.tokens) / this.rate);
  }

  /** `key`'s bucket, refilled to `now` and marked as the most recently used. */
  refilled(key: string, now: number): { tokens: number; at: number } {
    const depth = 2 * this.rate;
    const bucket = this.buckets.get(key) ?? { tokens: depth, at: now };
    bucket.tokens = Math.min(depth, bucket.tokens + ((now - bucket.at) / 1000) * this.rate);
    bucket.at = now;
    // Last used last: the oldest key is the first in the map's order.
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    for (const oldest of this.buckets.keys()) {
      if (this.buckets.size <= MAX_BUCKETS) break;
      this.buckets.delete(oldest);
    }
    return bucket;
  }
}

/** The rate limit: `rate` per second per client, and CLIENTS_PER_ADDRESS clients' worth per address. */
export class RateLimiter {
  private readonly clients: TokenBuckets;
  private readonly addresses: TokenBuckets;
  constructor(private readonly rate: number) {
    this.clients = new TokenBuckets(rate);
    this.addresses = new TokenBuckets(rate * CLIENTS_PER_ADDRESS);
  }

  /** Buckets held now (bounded, whatever the clients send). */
  get size(): number {
    return this.clients.size + this.addresses.size;
  }

  /** Seconds until the client may ask again; 0 when it may now (and a token is spent from both its buckets). */
  take(client: { address: string; id: string }, now = performance.now()): number {
    if (this.rate <= 0) return 0;
    const address = this.addresses.refilled(client.address, now);
    const own = this.clients.refilled(client.id, now);
    const wait = Math.max(this.addresses.wait(address), this.clients.wait(own));
    if (wait > 0) return wait;
    address.tokens -= 1;
    own.tokens -= 1;
    return 0;
  }
}

class HttpFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string = status >= 500 ? 'server_error' : 'invalid_request_error',
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** A request's path as a log line or a reply shows it: as sent when short and plain, quoted and cut otherwise (it is the client's text). */
function shownPath(path: string): string {
  return path.length <= 200 && /^[\x21-\x7e]*$/.test(path) ? path : excerpt(path);
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  send(res, status, JSON.stringify(value), headers);
}

/** OpenAI's error shape: `{error: {message, type, code}}`. */
function sendError(res: ServerResponse, failure: HttpFailure): void {
  sendJson(res, failure.status, { error: { message: failure.message, type: failure.type, code: failure.status } }, failure.headers);
}

// --- reading the body --------------------------------------------------------------------------

/**
 * The bytes of request bodies held at once: each body is bounded, and so are all of them together,
 * or a client with many requests in flight (the rate limit lets a burst through) holds gigabytes.
 */
class BodyBudget {
  private used = 0;
  constructor(private readonly limit: number) {}

  /** Takes `bytes` from the budget; false (and nothing taken) when they do not fit. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used -= bytes;
  }
}

/**
 * The body as text, or an `HttpFailure` 413 once it passes `limit` (503 when the server holds too
 * many bodies at once). After a refusal the rest is still drained (up to a bound), because a client
 * that is still sending cannot read a reply it did not wait for; a body far past the bound is cut
 * off by closing the connection. What the body took from `budget` is given back when `req` closes.
 */
function readBody(req: IncomingMessage, res: ServerResponse, limit: number, budget: BodyBudget): Promise<string> {
  return new Promise((resolve, reject) => {
    const tooLarge = () => new HttpFailure(413, `the request body is larger than ${limit} bytes; send a shorter prompt`);
    const busy = () => new HttpFailure(503, 'the server is reading too many large requests at once; try again in a few seconds', 'server_error', { 'Retry-After': '2' });
    const declared = Number(req.headers['content-length']);
    const chunks: Buffer[] = [];
    let size = 0;
    let held = 0;
    res.once('close', () => budget.give(held));
    let over = Number.isFinite(declared) && declared > limit;
    const refuse = (failure: HttpFailure) => {
      over = true;
      chunks.length = 0;
      budget.give(held);
      held = 0;
      res.setHeader('Connection', 'close');
      reject(failure);
    };
    if (over) refuse(tooLarge());
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (over) {
        if (size > limit * 16) req.socket.destroy();
        return;
      }
      if (size > limit) return refuse(tooLarge());
      if (!budget.take(chunk.length)) return refuse(busy());
      held += chunk.length;
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!over) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', (error) => reject(error));
  });
}

function parseBody(text: string): Body {
  const shape = jsonShapeProblem(text);
  if (shape !== null) throw new HttpFailure(400, shape);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new HttpFailure(400, `the body is not JSON (${boundedText(errorMessage(error))}); send a chat-completions request as application/json`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new HttpFailure(400, 'the body must be a JSON object with "messages"');
  if ((json as { stream?: unknown }).stream === true) throw new HttpFailure(400, 'streaming is not supported: send "stream": false or leave it out');
  const result = v.safeParse(Body, json);
  if (!result.success) throw new HttpFailure(400, describeIssue(result.issues));
  return result.output;
}

// --- the server --------------------------------------------------------------------------------

/** Resolves after `ms`, or at once when the signal aborts (the client went away). */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

export function startChatServer(options: ChatServerOptions): Promise<RunningChatServer> {
  const host = options.host ?? '127.0.0.1';
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const bodies = new BodyBudget(options.maxBytesInFlight ?? 16 * maxBodyBytes);
  const faults = [...(options.faults ?? [])];
  const allowedOrigins = options.allowedOrigins ?? [];
  const limiter = new RateLimiter(options.rateLimit ?? DEFAULT_RATE_LIMIT);
  const log = options.log ?? (() => {});
  const served = [options.model, ...(options.otherModels ?? [])];
  const room = new RoomStats();
  let completions = 0;

  /** `notes` collects what the log line should say beside the status (a fault, a client that left). */
  async function chat(req: IncomingMessage, res: ServerResponse, signal: AbortSignal, notes: string[]): Promise<void> {
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') {
      res.setHeader('Connection', 'close');
      throw new HttpFailure(415, `send the request as Content-Type: application/json${type ? `, not ${boundedText(type, 100)}` : ''}`);
    }
    const text = await readBody(req, res, maxBodyBytes, bodies);
    const fault = faults.shift();
    if (fault) {
      notes.push(`fault ${fault.kind === 'status' ? fault.status : fault.kind === 'slow' ? `slow:${fault.ms}` : fault.kind}`);
      switch (fault.kind) {
        case 'status':
          throw fault.status === 429
            ? new HttpFailure(429, 'injected fault: status 429 (rate limited)', 'rate_limit_error', { 'Retry-After': '0' })
            : new HttpFailure(fault.status, `injected fault: status ${fault.status}`);
        case 'malformed':
          send(res, 200, 'this is not JSON: the server was told to send a malformed body (--faults malformed)', { 'Content-Type': 'text/plain; charset=utf-8' });
          return;
        case 'drop':
          req.socket.destroy();
          return;
        case 'slow':
          await wait(fault.ms, signal);
          if (signal.aborted) return void notes.push('client went away');
          break;
      }
    }
    const body = parseBody(text);
    const model = body.model === undefined || body.model === '' ? options.model : body.model;
    if (!served.includes(model)) throw new HttpFailure(404, `this server does not serve the model ${excerpt(model)}; it serves: ${served.join(', ')} (GET /v1/models lists them)`, 'model_not_found');
    const request = toChatRequest(body);
    let answer: ChatAnswer;
    try {
      answer = await options.answer(request, signal, model);
    } catch (error) {
      if (error instanceof UsageError) throw new HttpFailure(400, error.message);
      throw new HttpFailure(500, `the model could not answer: ${boundedText(errorMessage(error))}`);
    }
    if (signal.aborted) return void notes.push('client went away');
    const usage = answer.usage ?? {
      // The callback did not count; a rough estimate keeps clients that expect `usage` working.
      prompt_tokens: request.messages.reduce((sum, m) => sum + estimateTokens(m.content), 0),
      completion_tokens: estimateTokens(answer.content),
    };
    sendJson(res, 200, {
      id: `chatcmpl-${Date.now().toString(36)}-${++completions}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: answer.content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    });
  }

  async function route(req: IncomingMessage, res: ServerResponse, signal: AbortSignal, notes: string[]): Promise<void> {
    const path = trimEndOf((req.url ?? '/').split('?')[0] ?? '', '/');
    const origin = req.headers.origin;
    if (origin !== undefined) {
      // A page on another origin gets no grant and no answer: nothing it sends is read.
      if (!originAllowed(origin, allowedOrigins)) {
        res.setHeader('Connection', 'close');
        throw new HttpFailure(403, `pages on ${isWebOrigin(origin) ? origin : excerpt(origin)} may not call this server; ${originAdvice(origin)}`, 'permission_error');
      }
      for (const [name, value] of Object.entries(corsHeaders(origin))) res.setHeader(name, value);
    }
    if (req.method === 'OPTIONS') {
      const headers: Record<string, string> = {
        'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? 'Content-Type, Authorization',
        'Access-Control-Max-Age': '86400',
      };
      // Chrome's Private Network Access: a page on a public origin may call a private server only if the preflight allows it, and only the host can say it may.
      if (req.headers['access-control-request-private-network'] === 'true' && options.allowPrivateNetwork) headers['Access-Control-Allow-Private-Network'] = 'true';
      res.writeHead(204, headers);
      res.end();
      return;
    }
    const retryAfter = limiter.take(clientOf(req));
    if (retryAfter > 0) throw new HttpFailure(429, `too many requests from this address; try again in ${retryAfter} s`, 'rate_limit_error', { 'Retry-After': String(retryAfter) });
    if (options.apiKey !== undefined) {
      const authorization = req.headers.authorization ?? '';
      const sent = /^bearer\s/i.test(authorization) ? authorization.slice(7).trim() || undefined : undefined;
      if (sent === undefined || !keyMatches(sent, options.apiKey)) {
        throw new HttpFailure(401, sent === undefined ? 'this server needs an API key: send Authorization: Bearer <key>' : 'the API key is wrong', 'authentication_error', { 'WWW-Authenticate': 'Bearer' });
      }
    }
    const routes: Record<string, string> = { '/v1/models': 'GET', '/v1/chat/completions': 'POST' };
    const method = routes[path];
    if (method === undefined) throw new HttpFailure(404, `no route ${req.method ?? ''} ${shownPath(path || '/')}; this server serves GET /v1/models and POST /v1/chat/completions`);
    if (req.method !== method) throw new HttpFailure(405, `${path} takes ${method}, not ${req.method ?? '?'}`, undefined, { Allow: `${method}, OPTIONS` });
    if (method === 'GET') {
      sendJson(res, 200, { object: 'list', data: served.map((id) => ({ id, object: 'model', created: 0, owned_by: 'dreamgym' })) });
      return;
    }
    return chat(req, res, signal, notes);
  }

  const server = createServer((req, res) => {
    const started = performance.now();
    const controller = new AbortController();
    // 'close' before the reply finished means the client disconnected (or the server is closing).
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    const notes: string[] = [];
    route(req, res, controller.signal, notes)
      .catch((error: unknown) => {
        const failure = error instanceof HttpFailure ? error : new HttpFailure(500, `the server failed: ${boundedText(errorMessage(error))}`);
        if (failure.status >= 500 && notes.length === 0) notes.push(failure.message); // a fault is already noted
        sendError(res, failure);
      })
      .then(() => {
        const ok = res.headersSent && res.statusCode < 300;
        if (req.method !== 'OPTIONS') room.record(clientOf(req).id, ok);
        if (ok && options.logRequests === 'failures') return;
        const status = res.headersSent ? String(res.statusCode) : 'no reply';
        log(`${req.method ?? '?'} ${shownPath(req.url ?? '/')} ${status}${notes.length ? ` (${notes.join('; ')})` : ''} ${Math.round(performance.now() - started)} ms`);
      });
  });
  const report = options.roomReport;
  const reporter = report
    ? setInterval(() => {
        const line = room.flush(report.everySeconds);
        if (line) report.print(line);
      }, report.everySeconds * 1000)
    : null;
  reporter?.unref();

  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new UsageError(`port ${options.port ?? 0} on ${host} is already in use; pick another --port (0 picks a free one)`, { cause: error }));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') reject(new UsageError(`cannot listen on host ${excerpt(host)}: it is not an address of this machine`, { cause: error }));
      else reject(error);
    });
    server.listen(options.port ?? 0, host, () => {
      const { port } = server.address() as AddressInfo;
      const urlHost = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${urlHost}:${port}`,
        port,
        counts: () => ({ answered: room.answered, failed: room.failed, clients: room.clientsSeen }),
        close: () =>
          new Promise<void>((done) => {
            if (reporter) clearInterval(reporter);
            server.close(() => done());
            // Idle keep-alive sockets would hold `close` open; in-flight answers are aborted with them.
            server.closeAllConnections();
          }),
      });
    });
  });
}
