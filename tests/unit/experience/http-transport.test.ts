/**
 * The HTTP transport against real servers: the `serve` command as a child process (kNN over a
 * small seeded buffer, with injected faults), and `startChatServer` in-process where a test needs
 * to watch the server's side (concurrency, what arrived).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../../src/core/errors.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { ChatTransportError, type ChatRequest } from '../../../src/experience/llm/chat.ts';
import { originAllowed, parseFaults, startChatServer, type ChatServerOptions, type RunningChatServer } from '../../../src/experience/llm/chat-server.ts';
import { OpenAiHttpClient, classifyNetworkError, normaliseBaseUrl, retryAfterMs, type HttpClientOptions } from '../../../src/experience/llm/http-client.ts';
import { OUTPUT_SCHEMA, OUTPUT_SCHEMA_TEXT, parseOutput } from '../../../src/experience/output.ts';
import { runCliProcess, spawnCli } from '../../cli-process.ts';
import { singleStepMessages } from '../../../src/experience/prompt.ts';


// --- helpers -------------------------------------------------------------------------------------

async function runCli(args: string[]): Promise<string> {
  const { code, stdout, stderr } = await runCliProcess(args);
  if (code !== 0) throw new Error(`cli ${args.join(' ')} exited ${code}: ${stderr}`);
  return stdout;
}

interface ServeProcess {
  url: string;
  child: ChildProcess;
  stderr: () => string;
}

/** `serve` as a child process; resolves with its URL once it prints the first stdout line. */
function serve(buffer: string, faults?: string): Promise<ServeProcess> {
  const args = ['serve', '--experience', 'knn', '--buffer', buffer, '--port', '0', '--log-requests', '--json', ...(faults ? ['--faults', faults] : [])];
  const child = spawnCli(args);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      try {
        resolve({ url: (JSON.parse(line) as { url: string }).url, child, stderr: () => stderr });
      } catch (error) {
        reject(error);
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code} before printing its URL: ${stderr}`)));
    child.once('error', reject);
  });
}

function stop(server: ServeProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    server.child.once('exit', () => resolve());
    server.child.kill('SIGTERM');
  });
}

/** A fetch that counts its calls and keeps what was sent. */
function countingFetch(): { fetch: typeof fetch; calls: RequestInit[] } {
  const calls: RequestInit[] = [];
  return {
    calls,
    fetch: (input, init) => {
      calls.push(init ?? {});
      return fetch(input, init);
    },
  };
}

async function failure(promise: Promise<unknown>): Promise<ChatTransportError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ChatTransportError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

/** A real prompt of the project's protocol, which the kNN server reads back. */
async function shopRequest(): Promise<ChatRequest> {
  const spec = envSpec('shop');
  const task = spec.tasks('test')[0];
  if (!task) throw new Error('no shop test task');
  const state = await spec.createEnv().reset(task);
  const messages = singleStepMessages({ task, history: [], state, action: 'search[running shoes]', examples: [] });
  return { messages, temperature: 0, max_tokens: 512, seed: 7, response_format: { type: 'json_object', schema: OUTPUT_SCHEMA_TEXT } };
}

const TRIVIAL: ChatServerOptions['answer'] = async () => ({ content: '{"ok":true}', usage: { prompt_tokens: 3, completion_tokens: 2 } });
const ONE_MESSAGE: ChatRequest = { messages: [{ role: 'user', content: 'hi' }] };

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

// --- against the serve command -----------------------------------------------------------------

describe('OpenAiHttpClient against the serve command', () => {
  const servers: Record<string, ServeProcess> = {};
  let request: ChatRequest;
  const FAULTS = {
    normal: undefined,
    slow: 'slow:3000',
    rateLimited: '429',
    failing: '500,500,500,500',
    malformed: 'malformed,malformed,malformed,malformed',
    dropOnce: 'drop',
  } as const;

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dg-http-'));
    const buffer = path.join(dir, 'shop.jsonl');
    await runCli(['buffer', 'seed', '--env', 'shop', '--episodes', '20', '--seed', '1', '--out', buffer]);
    request = await shopRequest();
    // Started together: each is a separate process, so their start-up overlaps.
    await Promise.all(
      Object.entries(FAULTS).map(async ([name, faults]) => {
        servers[name] = await serve(buffer, faults);
      }),
    );
    // Seven CLI processes start here (tsx, tfjs): minutes on a busy 2-core machine beside other test files.
  }, 240_000);

  afterAll(async () => {
    await Promise.all(Object.values(servers).map(stop));
  });

  const client = (name: keyof typeof FAULTS, options: Partial<HttpClientOptions> = {}) =>
    new OpenAiHttpClient({ baseUrl: (servers[name] as ServeProcess).url, model: 'knn', backoffMs: 10, ...options });

  it('answers a real prompt with the protocol JSON, and maps usage and finish reason', async () => {
    const counting = countingFetch();
    const chat = client('normal', { fetch: counting.fetch });
    expect(chat.name).toBe(`http/knn@${new URL((servers.normal as ServeProcess).url).host}`);
    const response = await chat.complete(request);
    const parsed = parseOutput(response.content, 'web');
    expect(parsed.ok, parsed.ok ? '' : parsed.problem).toBe(true);
    expect(response.finishReason).toBe('stop');
    expect(response.usage?.prompt_tokens).toBeGreaterThan(100);
    expect(response.usage?.completion_tokens).toBeGreaterThan(5);
    // The request went out in the OpenAI shape, the schema as `json_schema`.
    const sent = JSON.parse(String(counting.calls[0]?.body));
    expect(sent).toMatchObject({ model: 'knn', temperature: 0, max_tokens: 512, seed: 7, stream: false });
    expect(sent.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'experience_step', schema: OUTPUT_SCHEMA } });
    // The server logs the request after it answered, so its line may come a moment later.
    await vi.waitFor(() => expect((servers.normal as ServeProcess).stderr()).toMatch(/POST \/v1\/chat\/completions 200/));
  });

  it('times out after timeoutMs with kind "timeout", without retrying', async () => {
    const counting = countingFetch();
    const started = Date.now();
    const error = await failure(client('slow', { timeoutMs: 300, fetch: counting.fetch }).complete(request));
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/did not answer within 0\.3 s/);
    expect(counting.calls).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(2_500); // long before the slow answer would have come
  });

  it('retries a 429 and then answers', async () => {
    const counting = countingFetch();
    const response = await client('rateLimited', { fetch: counting.fetch }).complete(request);
    expect(parseOutput(response.content, 'web').ok).toBe(true);
    expect(counting.calls).toHaveLength(2);
  });

  it('gives up on a server that keeps failing, naming the status and its message', async () => {
    const counting = countingFetch();
    const error = await failure(client('failing', { retries: 2, fetch: counting.fetch }).complete(request));
    expect(error.kind).toBe('http');
    expect(error.status).toBe(500);
    expect(error.message).toMatch(/answered 500.*injected fault.*gave up after 3 attempts/);
    expect(counting.calls).toHaveLength(3);
  });

  it('reports a body that is not JSON as kind "bad-body", quoting it', async () => {
    const counting = countingFetch();
    const error = await failure(client('malformed', { retries: 2, fetch: counting.fetch }).complete(request));
    expect(error.kind).toBe('bad-body');
    expect(error.message).toMatch(/not JSON: "this is not JSON: the server was told/);
    expect(counting.calls).toHaveLength(3);
  });

  it('retries a dropped connection', async () => {
    const counting = countingFetch();
    const response = await client('dropOnce', { fetch: counting.fetch }).complete(request);
    expect(parseOutput(response.content, 'web').ok).toBe(true);
    expect(counting.calls).toHaveLength(2);
  });
});

// --- in-process: behaviour the server side must observe ----------------------------------------

describe('OpenAiHttpClient in-process', () => {
  let server: RunningChatServer | undefined;
  afterAll(async () => server?.close());

  it('reports a port nothing listens on as kind "refused", naming the URL, without retrying', async () => {
    const port = await freePort();
    const counting = countingFetch();
    const chat = new OpenAiHttpClient({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', fetch: counting.fetch });
    const error = await failure(chat.complete(ONE_MESSAGE));
    expect(error.kind).toBe('refused');
    expect(error.message).toContain(`could not connect to http://127.0.0.1:${port}/v1/chat/completions: is the server running?`);
    expect(counting.calls).toHaveLength(1);
  });

  it('never has more requests in flight than its concurrency', async () => {
    let inFlight = 0;
    let peak = 0;
    server = await startChatServer({
      model: 'slow',
      async answer() {
        peak = Math.max(peak, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 40));
        inFlight--;
        return { content: 'done' };
      },
    });
    const chat = new OpenAiHttpClient({ baseUrl: server.url, model: 'slow', concurrency: 2 });
    expect(chat.maxConcurrency).toBe(2);
    const answers = await Promise.all(Array.from({ length: 8 }, () => chat.complete(ONE_MESSAGE)));
    expect(answers.map((a) => a.content)).toEqual(Array(8).fill('done'));
    expect(peak).toBe(2);
    await server.close();
    server = undefined;
  });

  it('stops on the caller\'s signal, in flight and while queued', async () => {
    server = await startChatServer({ model: 'm', answer: (_request, signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve({ content: 'late' }))) });
    const chat = new OpenAiHttpClient({ baseUrl: server.url, model: 'm', concurrency: 1 });
    const controller = new AbortController();
    const running = failure(chat.complete(ONE_MESSAGE, controller.signal));
    const queued = failure(chat.complete(ONE_MESSAGE, controller.signal));
    setTimeout(() => controller.abort(), 50);
    expect((await running).kind).toBe('aborted');
    expect((await queued).kind).toBe('aborted');
    await server.close();
    server = undefined;
  });

  it('sends the key, carries the schema through, and fails a 4xx at once with the server\'s words', async () => {
    const seen: ChatRequest[] = [];
    server = await startChatServer({ model: 'm', answer: async (request) => (seen.push(request), { content: 'x' }) });
    const counting = countingFetch();
    const chat = new OpenAiHttpClient({ baseUrl: `${server.url}/v1/`, model: 'm', apiKey: 'sk-test', fetch: counting.fetch });
    await chat.complete({ ...ONE_MESSAGE, response_format: { type: 'json_object', schema: OUTPUT_SCHEMA_TEXT } });
    expect((counting.calls[0]?.headers as Record<string, string>).Authorization).toBe('Bearer sk-test');
    expect(seen[0]?.response_format).toEqual({ type: 'json_object', schema: OUTPUT_SCHEMA_TEXT });

    const wrong = new OpenAiHttpClient({ baseUrl: `${server.url}/nowhere`, model: 'm', fetch: counting.fetch });
    const error = await failure(wrong.complete(ONE_MESSAGE));
    expect(error).toMatchObject({ kind: 'http', status: 404 });
    expect(error.message).toMatch(/answered 404.*no route POST \/nowhere\/v1\/chat\/completions.*Check the endpoint URL/);
    expect(counting.calls).toHaveLength(2);
    await server.close();
    server = undefined;
  });

  it('names a connection that keeps dropping once retries are spent', async () => {
    server = await startChatServer({ model: 'm', answer: TRIVIAL, faults: parseFaults('drop,drop') });
    const error = await failure(new OpenAiHttpClient({ baseUrl: server.url, model: 'm', retries: 1, backoffMs: 1 }).complete(ONE_MESSAGE));
    expect(error.kind).toBe('http');
    expect(error.message).toMatch(/closed the connection without answering.*gave up after 2 attempts/);
    await server.close();
    server = undefined;
  });

  it('rejects a base URL that is not an absolute http(s) URL with a UsageError', () => {
    for (const bad of ['localhost:8080', 'ftp://host/v1', 'not a url', '', 'http://host/v1?key=1']) {
      expect(() => new OpenAiHttpClient({ baseUrl: bad, model: 'm' }), bad).toThrow(UsageError);
    }
    expect(() => new OpenAiHttpClient({ baseUrl: 'localhost:8080', model: 'm' })).toThrow(/http:\/\/ or https:\/\//);
    expect(() => new OpenAiHttpClient({ baseUrl: 'http://h', model: 'm', concurrency: 0 })).toThrow(UsageError);
  });

  it('takes the base URL with or without /v1', () => {
    const endpoint = (base: string) => new OpenAiHttpClient({ baseUrl: base, model: 'm' }).endpoint;
    expect(endpoint('http://h:8080')).toBe('http://h:8080/v1/chat/completions');
    expect(endpoint('http://h:8080/v1/')).toBe('http://h:8080/v1/chat/completions');
    expect(endpoint('http://h:8080/v1/chat/completions')).toBe('http://h:8080/v1/chat/completions');
    expect(endpoint('https://h/proxy/llm/v1')).toBe('https://h/proxy/llm/v1/chat/completions');
    expect(normaliseBaseUrl(' http://h:11434/v1 ')).toBe('http://h:11434');
    expect(new OpenAiHttpClient({ baseUrl: 'http://h:11434/v1', model: 'qwen2.5:0.5b' }).name).toBe('http/qwen2.5:0.5b@h:11434');
  });

  it('tells CORS from a server that is down as well as a browser lets it', () => {
    const failed = new TypeError('Failed to fetch');
    const cors = classifyNetworkError(failed, 'http://10.0.0.5:11434/v1/chat/completions', 'https://room.example');
    expect(cors.kind).toBe('cors');
    expect(cors.message).toMatch(/Either the server is not running, or it does not allow/);
    expect(cors.message).toMatch(/Access-Control-Allow-Origin/);
    expect(cors.message).toMatch(/OLLAMA_ORIGINS=https:\/\/room\.example/);
    expect(cors.message).toMatch(/--allowed-origins/);
    expect(cors.message).toMatch(/https cannot call a plain http/);
    expect(classifyNetworkError(failed, 'http://localhost:5173/v1/chat/completions', 'http://localhost:5173').kind).toBe('refused');
  });

  it('reads Retry-After as seconds or a date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs('0')).toBe(0);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});

describe('a server for a room', () => {
  let server: RunningChatServer;
  beforeAll(async () => {
    server = await startChatServer({
      model: 'tiny',
      apiKey: 'room-secret-1',
      allowedOrigins: ['https://room.example'],
      allowPrivateNetwork: true,
      rateLimit: 5,
      answer: async () => ({ content: 'ok' }),
    });
  });
  afterAll(() => server.close());
  const chat = (headers: Record<string, string>) =>
    fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }) });

  it('needs the API key (401 without it or with a wrong one), and grants the origins and private network it was told to', async () => {
    const none = await chat({});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect((await none.json()).error).toMatchObject({ type: 'authentication_error', message: expect.stringMatching(/needs an API key/) });
    expect((await chat({ Authorization: 'Bearer wrong-key-1' })).status).toBe(401);
    const good = await chat({ Authorization: 'Bearer room-secret-1', Origin: 'https://room.example' });
    expect(good.status).toBe(200);
    expect(good.headers.get('access-control-allow-origin')).toBe('https://room.example');
    const preflight = await fetch(`${server.url}/v1/chat/completions`, { method: 'OPTIONS', headers: { Origin: 'https://room.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Private-Network': 'true' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-private-network')).toBe('true');
  });

  it('answers a garbled prompt with 400 (the client\'s fault, not retried), not 500', async () => {
    const { protocolAnswerer } = await import('../../../src/experience/serve-answer.ts');
    const { KnnExperienceModel } = await import('../../../src/experience/knn.ts');
    const { ReplayBuffer } = await import('../../../src/replay/retrieval.ts');
    const { MemoryReplayStore } = await import('../../../src/replay/memory-store.ts');
    const answer = protocolAnswerer(new KnnExperienceModel(), await ReplayBuffer.open(new MemoryReplayStore()), 3);
    const room = await startChatServer({ model: 'knn', answer });
    try {
      for (const messages of [[{ role: 'system', content: 'garbage' }, { role: 'user', content: '## Action\nclick[x]' }], [{ role: 'user', content: '\u0000'.repeat(100) }]]) {
        const response = await fetch(`${room.url}/v1/chat/completions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ messages }) });
        expect(response.status).toBe(400);
      }
    } finally {
      await room.close();
    }
  });

  it('limits each client\'s rate with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 15; i++) {
      const response = await chat({ Authorization: 'Bearer room-secret-1' });
      statuses.push(response.status);
      if (response.status === 429) retryAfter = response.headers.get('retry-after');
      await response.body?.cancel();
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.slice(0, 5).every((s) => s === 200)).toBe(true);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  });
});

// --- the server itself ---------------------------------------------------------------------------

describe('startChatServer', () => {
  let server: RunningChatServer;
  const logged: string[] = [];
  beforeAll(async () => {
    server = await startChatServer({
      model: 'tiny',
      maxBodyBytes: 1000,
      log: (line) => logged.push(line),
      async answer(request) {
        const text = request.messages.at(-1)?.content;
        if (text === 'usage') throw new UsageError('the prompt is not one of this project\'s');
        if (text === 'crash') throw new Error('boom');
        return { content: `echo ${text}` };
      },
    });
  });
  afterAll(() => server.close());

  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });
  const errorOf = async (response: Response) => ((await response.json()) as { error: { message: string; type: string; code: number } }).error;

  it('answers a chat completion in OpenAI\'s shape, and lists its model', async () => {
    const response = await post(JSON.stringify({ model: 'tiny', messages: [{ role: 'user', content: 'hi' }], top_p: 0.9 }), { Origin: 'http://localhost:5173' });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const body = await response.json();
    expect(body).toMatchObject({ object: 'chat.completion', model: 'tiny', choices: [{ index: 0, message: { role: 'assistant', content: 'echo hi' }, finish_reason: 'stop' }] });
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
    const models = await (await fetch(`${server.url}/v1/models`)).json();
    expect(models).toEqual({ object: 'list', data: [expect.objectContaining({ id: 'tiny', object: 'model' })] });
    expect(logged.some((line) => /^POST \/v1\/chat\/completions 200/.test(line))).toBe(true);
  });

  it.each([
    ['{"messages": [', /the body is not JSON/],
    [JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], stream: true }), /streaming is not supported/],
    [JSON.stringify({ messages: [] }), /messages is empty/],
    [JSON.stringify({ messages: [{ role: 'tool', content: 'x' }] }), /messages\.0\.role: role must be/],
    [JSON.stringify({ messages: [{ role: 'user', content: 'x' }], temperature: 'hot' }), /temperature must be a number/],
    [JSON.stringify({ messages: [{ role: 'user', content: 'usage' }] }), /not one of this project's/],
  ])('answers 400 with what is wrong for %s', async (body, message) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.message).toMatch(message);
    expect(error).toMatchObject({ type: 'invalid_request_error', code: 400 });
  });

  it('answers 500 when the model throws, 404 for an unknown route and 413 for a body too large', async () => {
    const crash = await post(JSON.stringify({ messages: [{ role: 'user', content: 'crash' }] }));
    expect(crash.status).toBe(500);
    expect((await errorOf(crash)).message).toMatch(/boom/);
    const missing = await fetch(`${server.url}/v1/completions`, { method: 'POST', body: '{}' });
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).message).toMatch(/no route POST \/v1\/completions/);
    const large = await post(JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(5000) }] }));
    expect(large.status).toBe(413);
    expect((await errorOf(large)).message).toMatch(/larger than 1000 bytes/);
  });

  it('answers a CORS preflight from a loopback page, without the private-network grant it was not given', async () => {
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://127.0.0.1:4173', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,authorization', 'Access-Control-Request-Private-Network': 'true' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:4173');
    expect(response.headers.get('access-control-allow-methods')).toMatch(/POST/);
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type,authorization');
    expect(response.headers.get('access-control-allow-private-network')).toBeNull();
  });

  it('refuses pages on other origins with 403 and no CORS grant, before reading what they send', async () => {
    const preflight = await fetch(`${server.url}/v1/chat/completions`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' } });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const simple = await post(JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }), { Origin: 'https://evil.example' });
    expect(simple.status).toBe(403);
    expect(simple.headers.get('access-control-allow-origin')).toBeNull();
    expect((await errorOf(simple)).message).toMatch(/pages on https:\/\/evil\.example may not call this server; .*--allow-origin https:\/\/evil\.example/);
  });

  it('takes chat requests as JSON only (415 for a text/plain body)', async () => {
    const plain = await post(JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }), { 'Content-Type': 'text/plain' });
    expect(plain.status).toBe(415);
    expect((await errorOf(plain)).message).toMatch(/application\/json, not text\/plain/);
  });

  it('parses fault lists and says what is wrong with a bad one', () => {
    expect(originAllowed('http://localhost:5173', [])).toBe(true);
    expect(originAllowed('http://[::1]:8080', [])).toBe(true);
    expect(originAllowed('https://room.example', [])).toBe(false);
    expect(originAllowed('https://room.example', ['https://room.example'])).toBe(true);
    expect(originAllowed('null', [])).toBe(false);
    expect(parseFaults('429, 500,malformed,slow:2000,drop')).toEqual([
      { kind: 'status', status: 429 },
      { kind: 'status', status: 500 },
      { kind: 'malformed' },
      { kind: 'slow', ms: 2000 },
      { kind: 'drop' },
    ]);
    expect(parseFaults('')).toEqual([]);
    for (const bad of ['200', 'slow', 'slow:-1', 'explode']) expect(() => parseFaults(bad), bad).toThrow(UsageError);
    expect(() => parseFaults('429,explode')).toThrow(/"explode" is not a fault/);
  });
});
