/**
 * API keys (issue 60): a key that cannot be sent (a line break, a control character) is refused by
 * its flag and its length before anything connects, and is never shown (it was reported as "could
 * not connect" with the key printed whole); a key may come from a file or the environment instead
 * of the command line, where `ps` shows it; and a refused key never reaches a message.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import { apiKeyProblem } from '../../../src/experience/llm/api-key.ts';
import { startChatServer, type RunningChatServer } from '../../../src/experience/llm/chat-server.ts';
import { OpenAiHttpClient } from '../../../src/experience/llm/http-client.ts';
import { checkFormSettings, experienceModel } from '../../../src/jobs/experience-models/registry.ts';
import { capture } from '../../cli-io.ts';

const SECRET = 'sk-SECRET-4f9a2c';
const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-api-key-'));
const BUFFER = path.join(dir, 'shop.jsonl');
const keyFile = (name: string, text: string): string => {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
};

/** The keys the test endpoint was sent, in order. */
const sent: (string | undefined)[] = [];
let server: RunningChatServer;

beforeAll(async () => {
  expect(await main(['buffer', 'seed', '--env', 'shop', '--episodes', '3', '--seed', '1', '--out', BUFFER], capture())).toBe(0);
  // An endpoint that records the key and answers nothing usable: eval counts that and ends 0.
  server = await startChatServer({ model: 'm', answer: async () => ({ content: 'no json here' }), rateLimit: 0 });
  const fetchWithKey = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    const authorization = new Headers(init?.headers).get('authorization');
    if (String(input).startsWith(server.url)) sent.push(authorization?.replace(/^Bearer /, ''));
    return fetchWithKey(input, init);
  });
}, 120_000);
afterAll(async () => {
  vi.restoreAllMocks();
  await server?.close();
});
afterEach(() => {
  vi.unstubAllEnvs();
  sent.length = 0;
});

const EVAL = () => ['experience', 'eval', '--env', 'shop', '--heldout', '2', '--experience', 'http', '--endpoint', server.url, '--model', 'm', '--buffer', BUFFER];

async function run(argv: string[]): Promise<{ code: number; stderr: string; stdout: string }> {
  const io = capture();
  const code = await main(argv, io);
  return { code, stderr: io.stderr.join('\n'), stdout: io.stdout.join('\n') };
}

describe('an API key that cannot be sent', () => {
  it.each([
    ['a line break', `${SECRET}\nmore`, /line break \(character 17 of 21\)/],
    ['a NUL', `${SECRET}\u0000`, /control character \(character 17 of 17\)/],
    ['an escape sequence', `\u001b[31m${SECRET}`, /control character \(character 1 of 21\)/],
    ['a character outside Latin-1', `${SECRET}→`, /outside Latin-1/],
    ['a leading space', ` ${SECRET}`, /begins or ends with a space/],
  ])('holding %s is refused by its flag before anything connects, and never shown', async (_label, key, problem) => {
    const { code, stderr, stdout } = await run([...EVAL(), '--api-key', key]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--api-key /);
    expect(stderr).toMatch(problem);
    expect(stderr).not.toMatch(/could not connect/);
    expect(`${stderr}${stdout}`).not.toContain('SECRET');
    expect(sent).toEqual([]);
  }, 60_000);

  it('is refused by the HTTP client itself (the app, the workers), without the key in the words', () => {
    let message = '';
    try {
      new OpenAiHttpClient({ baseUrl: 'http://127.0.0.1:9', model: 'm', apiKey: `${SECRET}\r\n` });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^The API key holds a line break \(character 17 of 18\)/);
    expect(message).not.toContain('SECRET');
    // The app's form: the field's label, no key, and none of jobs/spec.ts's "got …".
    expect(() => checkFormSettings(experienceModel('http'), { endpoint: 'http://x', model: 'm', apiKey: `${SECRET}\n` }, 3)).toThrow(/^API key holds a line break[^"]*$/);
  });

  it('says what is wrong by kind and length only', () => {
    expect(apiKeyProblem(SECRET)).toBeNull();
    expect(apiKeyProblem('')).toBe('is empty');
    expect(apiKeyProblem('x'.repeat(5000))).toBe('is 5,000 characters, over the 4,096 an API key may be');
    expect(apiKeyProblem('short', { min: 8 })).toBe('must be at least 8 characters (it is 5 characters)');
  });
});

describe('an API key kept off the command line', () => {
  it('is read from --api-key-file, its one trailing line break dropped, and sent', async () => {
    const { code, stderr } = await run([...EVAL(), '--api-key-file', keyFile('key.txt', `${SECRET}\n`)]);
    expect(code, stderr).toBe(0);
    expect(sent.length).toBeGreaterThan(0);
    expect(new Set(sent)).toEqual(new Set([SECRET]));
    expect(stderr).not.toContain('SECRET');
  }, 60_000);

  it('is read from DREAMGYM_API_KEY when no flag gives it, and a flag wins over it', async () => {
    vi.stubEnv('DREAMGYM_API_KEY', SECRET);
    expect((await run(EVAL())).code).toBe(0);
    expect(new Set(sent)).toEqual(new Set([SECRET]));
    sent.length = 0;
    expect((await run([...EVAL(), '--api-key', 'sk-from-the-flag'])).code).toBe(0);
    expect(new Set(sent)).toEqual(new Set(['sk-from-the-flag']));
  }, 60_000);

  it('in the environment, is refused by the variable\'s name when it cannot be sent, and ignored by models that send none', async () => {
    vi.stubEnv('DREAMGYM_API_KEY', `${SECRET}\n`);
    const refused = await run(EVAL());
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/the environment variable DREAMGYM_API_KEY holds a line break/);
    expect(refused.stderr).not.toContain('SECRET');
    const knn = await run(['experience', 'eval', '--env', 'shop', '--heldout', '2', '--experience', 'knn', '--buffer', BUFFER]);
    expect(knn.code, knn.stderr).toBe(0);
  }, 60_000);

  it.each([
    ['both flags', () => ['--api-key', SECRET, '--api-key-file', keyFile('both.txt', SECRET)], /--api-key and --api-key-file both give the key; give one/],
    ['an empty file', () => ['--api-key-file', keyFile('empty.txt', '\n')], /--api-key-file .*empty\.txt is empty; write the key in it/],
    ['a file of two lines', () => ['--api-key-file', keyFile('two.txt', `${SECRET}\nsecond line\n`)], /--api-key-file .*two\.txt: the key holds a line break \(character 17 of 28\)/],
    ['a missing file', () => ['--api-key-file', path.join(dir, 'none.txt')], /--api-key-file .*none\.txt: no such file or folder \(ENOENT\)/],
    ['a folder', () => ['--api-key-file', (mkdirSync(path.join(dir, 'folder'), { recursive: true }), path.join(dir, 'folder'))], /--api-key-file .*folder is a folder, not a file/],
    ['/dev/zero', () => ['--api-key-file', '/dev/zero'], /--api-key-file \/dev\/zero is a device, not a file/],
    ['a named pipe', () => ['--api-key-file', (execFileSync('mkfifo', [path.join(dir, 'fifo')]), path.join(dir, 'fifo'))], /--api-key-file .*fifo is a named pipe \(FIFO\), not a file/],
    ['a file far larger than a key', () => ['--api-key-file', keyFile('large.txt', 'k'.repeat(200_000))], /--api-key-file .*large\.txt is 0\.2 MB, over the 0\.1 MB/],
  ])('is refused by its flag for %s, before anything connects', async (_label, extra, message) => {
    const { code, stderr } = await run([...EVAL(), ...extra()]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).not.toContain('SECRET');
    expect(sent).toEqual([]);
  }, 60_000);

  it('--api-key-file is refused with a model that sends no key, by its own name', async () => {
    const { code, stderr } = await run(['experience', 'eval', '--env', 'shop', '--heldout', '2', '--experience', 'knn', '--buffer', BUFFER, '--api-key-file', keyFile('knn.txt', SECRET)]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--api-key-file goes with --experience http, not knn/);
  });
});
