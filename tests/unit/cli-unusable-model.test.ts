/**
 * A dream against an endpoint whose every answer is prose, not the state format: each prediction is
 * unusable and ends its episode as a failure, so the run would train on nothing. Its progress lines
 * say so, iteration by iteration, instead of looking like a run that merely does not learn.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { capture } from '../cli-io.ts';

const root = mkdtempSync(path.join(tmpdir(), 'dreamgym-prose-'));
const BUFFER = path.join(root, 'seeded.jsonl');
let server: Server;
let endpoint = '';

beforeAll(async () => {
  expect(await main(['buffer', 'seed', '--env', 'shop', '--episodes', '6', '--seed', '1', '--out', BUFFER], capture())).toBe(0);
  // An OpenAI-style chat endpoint that chats: a polite paragraph, never the next state.
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: 'Sure! Clicking that button would probably take you to another page.' }, finish_reason: 'stop' }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a dream whose model answers in prose', () => {
  it('warns in each iteration how many predictions could not be used', async () => {
    const io = capture();
    const code = await main(['train', '--env', 'shop', '--mode', 'dream', '--algo', 'grpo', '--synthetic-budget', '40', '--experience', 'http', '--endpoint', endpoint, '--model', 'chatty', '--buffer', BUFFER,
      '--backend', 'cpu', '--seed', '1', '--set', 'tasksPerIteration=2,groupSize=4,parallelEnvs=8,epochs=1', '--final-eval-episodes', '2', '--json'], io);
    expect(code, io.stderr.join('\n')).toBe(0);
    const iterations = io.stderr.filter((line) => /^iter \d+:/.test(line));
    expect(iterations.length).toBeGreaterThan(0);
    for (const line of iterations) expect(line).toMatch(/\| warning: the experience model's output could not be used in (\d+) of its \1 predictions \(each ends its episode as a failure\)$/);
    expect(JSON.parse(io.stdout.at(-1) as string).dream.model.invalidOutputs).toBeGreaterThan(0);
  }, 120_000);
});
