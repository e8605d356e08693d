/**
 * The room server under hostile requests (issue 60): every malformed or hostile shape is a 400 that
 * says what is wrong (a 500 is retried by clients), nothing a client sent comes back whole or with
 * its control characters, a refused page gets advice the CLI takes, and `GET /v1/models` is answered
 * within 100 ms while a 4 MB hostile chat request is read, parsed and refused.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KnnExperienceModel } from '../../../src/experience/knn.ts';
import { MAX_JSON_DEPTH, MAX_MESSAGES, originAdvice, startChatServer, type RunningChatServer } from '../../../src/experience/llm/chat-server.ts';
import { singleStepMessages } from '../../../src/experience/prompt.ts';
import { MAX_PROMPT_LINES, protocolAnswerer } from '../../../src/experience/serve-answer.ts';
import { parseSpec } from '../../../src/jobs/spec.ts';
import { serveSpec } from '../../../src/jobs/serve-spec.ts';
import { seededBuffer, shopSearchStep } from './fixtures.ts';
import { HOSTILE_ROOM_BODIES, filled, nested, postChat } from '../../../bench/hostile-inputs.ts';


let server: RunningChatServer;
let step: Awaited<ReturnType<typeof shopSearchStep>>;
const logged: string[] = [];

beforeAll(async () => {
  const buffer = await seededBuffer('shop', 6);
  step = await shopSearchStep();
  server = await startChatServer({ model: 'knn', rateLimit: 0, log: (line) => logged.push(line), answer: protocolAnswerer(new KnnExperienceModel(), buffer, 3) });
}, 60_000);
afterAll(() => server?.close());

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });
const errorOf = async (response: Response) => ((await response.json()) as { error: { message: string } }).error.message;

/** A protocol prompt whose last message's text ends open, for `filled` to continue. */
const openPrompt = (): string => JSON.stringify({ messages: singleStepMessages(step.input) }).slice(0, -'"}]}'.length);

describe('hostile chat requests are refused with 400 and their reason', () => {
  it.each([
    ['a response schema nested 100,000 deep', () => `{"messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema","json_schema":{"schema":${nested(100_000)}}}}`, /nests deeper than 64 levels/],
    ['a schema nested just past the bound (it overflowed the stack when written back)', () => `{"messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_object","schema":${'{"a":'.repeat(MAX_JSON_DEPTH)}1${'}'.repeat(MAX_JSON_DEPTH)}}}`, /nests deeper than 64 levels/],
    ['an unknown field of a million nested arrays', () => `{"messages":[{"role":"user","content":"x"}],"top_p":${nested(1_000_000)}}`, /nests deeper than 64 levels/],
    ['an unknown field of two million numbers', () => filled('{"messages":[{"role":"user","content":"x"}],"n":[', '1,', '1]}'), /more than 50,000 JSON values/],
    ['a hundred thousand keys', () => filled('{"messages":[{"role":"user","content":"x"}],"x":{', '"k":1,', '"k":1}}'), /more than 50,000 JSON values/],
    ['more messages than any episode', () => JSON.stringify({ messages: Array.from({ length: MAX_MESSAGES + 1 }, () => ({ role: 'user', content: '' })) }), /messages holds more than 1,000/],
    ['a prompt of 4 MB in one line', () => filled(openPrompt(), 'a', '"}]}'), /prompt is over 262,144 characters/],
    ['a prompt of line breaks', () => openPrompt() + '\\n'.repeat(MAX_PROMPT_LINES + 1) + '"}]}', /prompt is over 20,000 lines/],
    ['response_format as a string', () => JSON.stringify({ messages: [{ role: 'user', content: 'x' }], response_format: 'x'.repeat(100_000) }), /^response_format: response_format must be an object/],
    ['json_schema as a number', () => JSON.stringify({ messages: [{ role: 'user', content: 'x' }], response_format: { type: 'json_schema', json_schema: 7 } }), /json_schema must be an object/],
    ['a message as a string', () => JSON.stringify({ messages: ['x'.repeat(100_000)] }), /each message must be an object/],
  ])('%s', async (_label, body, reason) => {
    const response = await post(body());
    const message = await errorOf(response);
    expect(response.status, message).toBe(400);
    expect(message).toMatch(reason);
    expect(message.length).toBeLessThan(400);
  }, 30_000);

  it('quotes nothing a client sent whole, nor its control characters', async () => {
    const model = `evil\u001b[31m\n${'m'.repeat(100_000)}`;
    const unknown = await post(JSON.stringify({ model, messages: [{ role: 'user', content: 'x' }] }));
    expect(unknown.status).toBe(404);
    const said = await errorOf(unknown);
    expect(said).toMatch(/does not serve the model "evil\\u001b\[31m\\nm+…" \(100,\d+ characters\)/);
    expect(said.length).toBeLessThan(300);

    // A parse error that quotes the state line back: bounded, its NUL escaped.
    const badState = singleStepMessages(step.input).map((m, i) => (i === 1 ? { ...m, content: m.content.replace('[1] searchbox: Search', `[1] searchbox\u0000${'s'.repeat(50_000)}`) } : m));
    const unread = await post(JSON.stringify({ messages: badState }));
    const problem = await errorOf(unread);
    expect(unread.status).toBe(400);
    expect(problem.length).toBeLessThan(600);
    expect(problem).not.toContain('\u0000');

    const plain = await post('{}', { 'Content-Type': `text/${'x'.repeat(10_000)}` });
    expect(plain.status).toBe(415);
    expect((await errorOf(plain)).length).toBeLessThan(300);

    const path = `/v1/${'p'.repeat(5_000)}`;
    const missing = await fetch(`${server.url}${path}`);
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).length).toBeLessThan(300);
    expect(logged.at(-1)?.length).toBeLessThan(300);
  });
});

describe('a page refused with 403', () => {
  it.each([
    ['a page opened from a file (Origin: null)', 'null'],
    ['a page on another site', 'https://workshop.example'],
    ['an extension', 'chrome-extension://abcdefghijklmnop'],
  ])('%s is told an --allow-origin the CLI takes, and that value admits it', async (_label, origin) => {
    const refused = await post(JSON.stringify({ messages: [{ role: 'user', content: 'x' }] }), { Origin: origin });
    expect(refused.status).toBe(403);
    const message = await errorOf(refused);
    expect(message).toContain(originAdvice(origin));
    const advised = /--allow-origin ('\*'|\S+)/.exec(message)?.[1]?.replace(/^'(.*)'$/, '$1');
    expect(advised).toBeDefined();
    // What serve's flags accept (the old advice, `--allow-origin null`, was refused here).
    expect(parseSpec(serveSpec('knn'), { allowOrigin: advised })).toMatchObject({ allowOrigin: advised });
    const allowing = await startChatServer({ model: 'm', allowedOrigins: [advised as string], answer: async () => ({ content: 'ok' }) });
    try {
      const models = await fetch(`${allowing.url}/v1/models`, { headers: { Origin: origin } });
      expect(models.status).toBe(200);
      expect(models.headers.get('access-control-allow-origin')).toBe(origin);
    } finally {
      await allowing.close();
    }
  });
});

/** Process CPU time in ms: unlike the wall clock, it does not grow while the machine runs others' work. */
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

describe('the server stays responsive', () => {
  const HOSTILE = HOSTILE_ROOM_BODIES.map(([label, make]) => [label, () => make(openPrompt())] as const);

  it.each(HOSTILE)('answers GET /v1/models within 100 ms while a 4 MB request of %s is in flight', async (_label, make) => {
    const body = Buffer.from(make());
    for (const pauseMs of [0, 10]) {
      let finished = false;
      const hostile = postChat(server.url, body, pauseMs).finally(() => (finished = true));
      const pings: { cpu: number; wall: number }[] = [];
      while (!finished) {
        const cpu = cpuMs();
        const wall = performance.now();
        const response = await fetch(`${server.url}/v1/models`);
        expect(response.status).toBe(200);
        await response.text();
        pings.push({ cpu: cpuMs() - cpu, wall: performance.now() - wall });
      }
      expect(await hostile).toBeGreaterThanOrEqual(200);
      expect(pings.length).toBeGreaterThan(0);
      // The CPU this process spent while a ping waited is the work that held its answer up; the
      // wall clock adds whatever else the machine ran meanwhile (shared CI), so it is reported, not asserted.
      const worst = pings.reduce((a, b) => (b.cpu > a.cpu ? b : a));
      expect(worst.cpu, `worst ping: ${worst.cpu.toFixed(0)} ms of CPU, ${worst.wall.toFixed(0)} ms wall, of ${pings.length}`).toBeLessThan(100);
    }
  }, 60_000);

  it('answers 503 with Retry-After, not memory, while it holds too many bodies at once', async () => {
    const small = await startChatServer({ model: 'm', maxBodyBytes: 100_000, maxBytesInFlight: 150_000, rateLimit: 0, answer: async () => ({ content: 'ok' }) });
    const url = new URL(small.url);
    try {
      // Two slow clients: the first holds 90 KB and waits; the second's body does not fit beside it.
      const open = (bytes: number) => {
        const req = request({ host: url.hostname, port: url.port, path: '/v1/chat/completions', method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': bytes + 10 } });
        req.on('error', () => undefined);
        return req;
      };
      const first = open(90_000);
      first.write('x'.repeat(90_000));
      await new Promise((resolve) => setTimeout(resolve, 200));
      const second = open(90_000);
      const answered = new Promise<{ status: number; retryAfter: string | undefined }>((resolve) => second.on('response', (res) => (res.resume(), resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined }))));
      second.write('y'.repeat(90_000));
      expect(await answered).toEqual({ status: 503, retryAfter: '2' });
      first.destroy();
      second.destroy();
      await new Promise((resolve) => setTimeout(resolve, 200));
      // Once the first is gone, its bytes are free again.
      const after = await fetch(`${small.url}/v1/chat/completions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(80_000) }] }) });
      expect(after.status).toBe(200);
    } finally {
      await small.close();
    }
  });
});
