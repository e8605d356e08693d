/**
 * Generators of hostile inputs (fast-check arbitraries) for everything the project reads from
 * outside: JSONL text, store first lines, action strings, model replies, chat prompts, damaged
 * weight files and chat-server requests. The fuzz suite (tests/unit/fuzz) asserts properties over
 * them; `npm run bench -- robustness` counts how each class of input ends.
 */
import { request } from 'node:http';
import fc from 'fast-check';
import type { Transition } from '../src/core/types.ts';
import { envSpec } from '../src/envs/registry.ts';
import { MAX_PROMPT_CHARS } from '../src/experience/serve-answer.ts';
import { fitNeuralModel } from '../src/experience/neural/fit.ts';
import { exportNeuralModel } from '../src/experience/neural/model-io.ts';
import { exportTrainedPolicy } from '../src/jobs/policy-export.ts';
import { seedBuffer } from '../src/jobs/seed-buffer.ts';
import { createTrainer } from '../src/jobs/train.ts';
import { MemoryReplayStore } from '../src/replay/memory-store.ts';
import { ReplayBuffer } from '../src/replay/retrieval.ts';

export const GOOD_TRANSITION: Transition = {
  runId: 'r', taskId: 't', env: 'shop', instruction: 'buy a lamp', history: [], state: { text: 'page: search', actions: ['search[...]'] }, action: 'search[lamp]',
  next: { text: 'page: results', actions: ['click[Back to Search]'] }, reward: 0, done: false, source: 'real', createdAt: 1,
};

/** Text that looks like the inputs: JSON fragments, field names, unicode, control characters and broken UTF-16. */
export const texty = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.json({ maxDepth: 3 }),
  fc.constantFrom('{"$meta":', '{"runId":', '[', ']', '{', '}', '\n', '\r\n', '\uFEFF', '\u0000', '\ud800', '"', '\\', 'NaN', '1e300', '-0'),
);

/** Whole JSONL files of such text. */
export const jsonlText = fc.array(texty, { maxLength: 30 }).map((parts) => parts.join(''));

/** A good transition with one field replaced by anything JSON can hold (or an extra field). */
export const mutatedTransition = fc
  .record({ key: fc.constantFrom(...(Object.keys(GOOD_TRANSITION) as (keyof Transition)[]), 'extra' as keyof Transition), value: fc.jsonValue({ maxDepth: 2 }) })
  .map(({ key, value }) => JSON.stringify({ ...GOOD_TRANSITION, [key]: value }));

/** A store's first line: near misses of `{"$meta": {version, tasks, runs, stats}}` and anything else. */
export const metaLine = fc.oneof(
  texty,
  fc
    .record({ version: fc.oneof(fc.constant(1), fc.jsonValue()), tasks: fc.jsonValue({ maxDepth: 3 }), runs: fc.jsonValue({ maxDepth: 3 }), stats: fc.jsonValue({ maxDepth: 3 }) }, { requiredKeys: [] })
    .map((meta) => JSON.stringify({ $meta: meta })),
  fc.jsonValue().map((meta) => JSON.stringify({ $meta: meta })),
);

/** Action strings: anything, and the near misses of both environments' syntax. */
export const actionText = fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.constantFrom('click[', 'search[]', 'go to', 'take  from', 'click[Buy Now]]', 'search[' + 'x'.repeat(5000) + ']'));

/** A model's reply: prose around a JSON object whose fields hold anything. */
export const modelReply = fc.oneof(
  texty,
  fc
    .record({ reasoning: fc.jsonValue(), next_state: fc.jsonValue(), actions: fc.jsonValue(), reward: fc.jsonValue(), done: fc.jsonValue() }, { requiredKeys: [] })
    .map((o) => `Here you go: ${JSON.stringify(o)}`),
);

/** A chat conversation with the protocol's section headings among random text. */
export const chatMessages = fc.array(
  fc.record({
    role: fc.constantFrom('system', 'user', 'assistant') as fc.Arbitrary<'system' | 'user' | 'assistant'>,
    content: fc.oneof(texty, fc.constantFrom('## Task\nbuy', '## Action\nclick[x]', '## State\npage: search', '## History\n')),
  }),
  { maxLength: 6 },
);

/** A valid file with some bytes changed, cut short, or grown; `bytes` is read when the input is made. */
export const damaged = (bytes: () => Uint8Array) =>
  fc
    .record({ flips: fc.array(fc.record({ at: fc.nat(), to: fc.integer({ min: 0, max: 255 }) }), { maxLength: 8 }), cut: fc.option(fc.nat()), tail: fc.uint8Array({ maxLength: 16 }) })
    .map(({ flips, cut, tail }) => {
      const original = bytes();
      const copy = original.slice(0, cut === null ? original.length : cut % (original.length + 1));
      for (const { at, to } of flips) if (copy.length > 0) copy[at % copy.length] = to;
      return new Uint8Array([...copy, ...tail]);
    });

/** A request to the chat server: any method, path, content type, origin, key and body. */
export const chatRequest = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'OPTIONS', 'DELETE'),
  path: fc.constantFrom('/v1/chat/completions', '/v1/models', '/', '/v1/chat/completions/', '/nope'),
  contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', ''),
  origin: fc.constantFrom('', 'http://localhost:5173', 'https://evil.example', 'null'),
  key: fc.constantFrom('', 'Bearer room-secret-1', 'Bearer wrong', 'Basic abc'),
  body: fc.oneof(texty, chatMessages.map((messages) => JSON.stringify({ messages })), fc.jsonValue().map((value) => JSON.stringify(value))),
});

/**
 * Valid files to damage: an untrained shop policy's `.dgp`, and a `.dgx` fitted for one epoch on a
 * buffer of `episodes` seeded shop episodes (returned too). Needs the cpu backend started.
 */
export async function validWeightFiles(episodes: number): Promise<{ policyBytes: Uint8Array; modelBytes: Uint8Array; buffer: ReplayBuffer }> {
  const trainer = createTrainer({ env: 'shop', mode: 'real', algo: 'grpo', backend: 'cpu', run: { seed: 1, realBudget: 10, evalEvery: 0, lambda: 0.2, explorationFloor: 0.1 }, curriculum: false });
  const policyBytes = await exportTrainedPolicy(trainer, 'cpu');
  trainer.policy.dispose();
  const store = new MemoryReplayStore();
  const buffer = await ReplayBuffer.open(store);
  await seedBuffer(envSpec('shop'), { episodes, mix: 'oracle=0.5,random=0.5', seed: 1 }, { store, write: (t) => buffer.add(t) });
  const fit = await fitNeuralModel({ buffer, env: 'shop', epochs: 1, validationShare: 0 });
  const modelBytes = await exportNeuralModel(fit.model, { backend: 'cpu', training: {}, evaluation: null, createdAt: '2026-11-25T00:00:00Z' });
  fit.model.dispose();
  return { policyBytes, modelBytes, buffer };
}

/** Just under the room server's 4 MB body bound. */
export const FOUR_MB = 4 * 1024 * 1024 - 4096;
/** A body of about `size` bytes: `head`, then `unit` repeated, then `tail`. */
export const filled = (head: string, unit: string, tail: string, size = FOUR_MB): string => head + unit.repeat(Math.floor((size - head.length - tail.length) / unit.length)) + tail;
export const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

/**
 * 4 MB chat requests that each took from 0.3 s to seconds of the room server's one thread before
 * issue 60 (a 2 MB body of nested brackets 1.7 s to parse; a 10,000-letter word half a second to
 * count the tokens of). Each is made from a protocol prompt whose last message's text ends open.
 */
export const HOSTILE_ROOM_BODIES: readonly [string, (openPrompt: string) => string][] = [
  ['nested brackets', () => `{"messages":[{"role":"user","content":"x"}],"top_p":${nested(FOUR_MB / 2 - 100)}}`],
  ['two million numbers', () => filled('{"messages":[{"role":"user","content":"x"}],"n":[', '1,', '1]}')],
  ['a prompt of escaped line breaks', (open) => filled(open, '\\n', '"}]}')],
  ['a prompt of one long word, just under the bound', (open) => `${open}\\n${'a'.repeat(MAX_PROMPT_CHARS - 4_000)}"}]}`],
];

/** POSTs `body` to the chat route at `url`, 64 KB at a time, `pauseMs` apart (0: as fast as the socket takes it). */
export function postChat(url: string, body: Buffer, pauseMs: number): Promise<number> {
  const at = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: at.hostname, port: at.port, path: '/v1/chat/completions', method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': body.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    let offset = 0;
    const next = (): void => {
      if (offset >= body.length) return void req.end();
      req.write(body.subarray(offset, offset + 65_536));
      offset += 65_536;
      if (pauseMs > 0) setTimeout(next, pauseMs);
      else setImmediate(next);
    };
    next();
  });
}
