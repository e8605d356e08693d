/**
 * A browser-test command that runs on the Node side: the CLI evaluates a .dgp the page produced,
 * so a test can check that a policy exported in the browser acts the same under the CLI.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { BrowserCommand } from 'vitest/node';

const run = promisify(execFile);

export const cliRolloutPolicy: BrowserCommand<[dgpBase64: string, args: string[]]> = async (_context, dgpBase64, args) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'dreamgym-browser-dgp-'));
  const file = path.join(dir, 'from-browser.dgp');
  await writeFile(file, Buffer.from(dgpBase64, 'base64'));
  const tsx = path.resolve('node_modules/.bin/tsx');
  const { stdout } = await run(tsx, ['src/cli/main.ts', 'rollout', '--policy', file, ...args, '--json'], { maxBuffer: 1 << 24 });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as unknown;
};

declare module 'vitest/browser' {
  interface BrowserCommands {
    cliRolloutPolicy: (dgpBase64: string, args: string[]) => Promise<{ actionsDigest: string; successRate: number; episodes: number; backend: string }>;
  }
}
