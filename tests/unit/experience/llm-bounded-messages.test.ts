/**
 * Messages that quote what an endpoint, a model or a person sent (issue 60): a bounded part, with
 * control characters escaped, never the whole of it; and the words name the real cause (a port past
 * 65535 was "not an absolute URL").
 */
import { describe, expect, it } from 'vitest';
import { isShowable } from '../../../src/core/text.ts';
import { OpenAiHttpClient, normaliseBaseUrl } from '../../../src/experience/llm/http-client.ts';
import { classifyWebLlmError } from '../../../src/experience/llm/webllm-client.ts';
import { customModel } from '../../../src/experience/llm/webllm-models.ts';
import { parseOutput } from '../../../src/experience/output.ts';

const HUGE = `start\u0000\u001b[2J${'z'.repeat(1_000_000)}`;

/** A client whose endpoint answers `status` with `body`, once. */
const clientAnswering = (status: number, body: string) =>
  new OpenAiHttpClient({ baseUrl: 'http://127.0.0.1:9', model: 'm', retries: 0, fetch: async () => new Response(body, { status }) });

async function failureOf(client: OpenAiHttpClient): Promise<string> {
  try {
    await client.complete({ messages: [{ role: 'user', content: 'x' }] });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the request did not fail');
}

function expectBounded(message: string): void {
  expect(message.length).toBeLessThan(700);
  expect(isShowable(message)).toBe(true);
}

describe('the HTTP client quotes what an endpoint sent, bounded', () => {
  it.each([
    ['an error message of a megabyte in OpenAI\'s shape', 400, JSON.stringify({ error: { message: HUGE } }), /start\\0\\u001b\[2Jz+/],
    ['a plain-text error page of a megabyte', 502, HUGE, /start\\0\\u001b\[2Jz+/],
    ['a 200 whose body is not JSON', 200, HUGE, /start\\0\\u001b\[2Jz+/],
    ['a 200 without choices', 200, JSON.stringify({ junk: HUGE }), /has no choices\[0\]\.message\.content text: "\{\\"junk/],
  ])('%s', async (_label, status, body, quoted) => {
    const message = await failureOf(clientAnswering(status, body));
    expect(message).toMatch(quoted);
    expectBounded(message);
  });

  it('names a port past 65535 as the problem, not the form of the address', () => {
    expect(() => normaliseBaseUrl('http://127.0.0.1:99999/v1')).toThrow(/"http:\/\/127\.0\.0\.1:99999\/v1" has the port 99999, past the last one \(65535\)/);
    expect(() => normaliseBaseUrl('127.0.0.1:8080')).toThrow(/is not an absolute URL; write it with its scheme/);
    expectBounded(((): string => {
      try {
        normaliseBaseUrl(HUGE);
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    })());
  });

  it('refuses a key in the address, and a model name of more than one line', () => {
    expect(() => normaliseBaseUrl('https://user:sk-hidden@api.example/v1')).toThrow(/must not carry a user name or password/);
    expect(() => normaliseBaseUrl('https://user:sk-hidden@api.example/v1')).not.toThrow(/sk-hidden/);
    expect(() => new OpenAiHttpClient({ baseUrl: 'http://127.0.0.1:9', model: 'qwen\nINJECTED' })).toThrow(/^The model name "qwen\\nINJECTED" must be one line/);
  });
});

describe('a model\'s unusable reply is described, bounded', () => {
  it.each([
    ['a reward of a megabyte of text', JSON.stringify({ reasoning: '', next_state: 'page: x', actions: [], reward: HUGE, done: false })],
    ['a next state whose bad line is a megabyte', JSON.stringify({ reasoning: '', next_state: `page: x\n[1] ${HUGE}`, actions: [], reward: 0, done: false })],
  ])('%s', (_label, reply) => {
    const parsed = parseOutput(reply, 'web');
    expect(parsed.ok).toBe(false);
    expectBounded(parsed.ok ? '' : parsed.problem);
  });
});

describe('WebLLM\'s messages quote a bounded part', () => {
  it('of a custom model\'s address and of the engine\'s error', () => {
    expect(() => customModel(HUGE, 'https://example.org/lib.wasm')).toThrow(/^The model URL "start\\0\\u001b\[2Jz+…" \(1,000,\d+ characters\) is not an absolute URL/);
    const failure = classifyWebLlmError(new Error(`ModelNotLoadedError: ${HUGE}`), 'request', 'Qwen');
    expect(failure.kind).toBe('model-load');
    expectBounded(failure.message);
  });
});
