/**
 * `npm run bench`'s arguments: each bench parses its own options strictly (benchOptions), and
 * bench/run.ts turns a bad one into the bench's name, the message and the usage, exit 2, before any
 * bench runs. Which bench refuses what is checked in-process (a process per bench spent seconds of
 * CPU loading tfjs or the room's server only to print one line); what the process prints and its
 * exit status stay real processes, on the benches that load least.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchOptions } from '../../../bench/options.ts';
import { envsBench } from '../../../bench/envs.ts';
import { neuralBench } from '../../../bench/neural.ts';
import { roomBench } from '../../../bench/room.ts';
import { isArgumentError, UsageError } from '../../../src/core/errors.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

describe('benchOptions', () => {
  it('gives the defaults typed as given, and numbers parsed', () => {
    expect(benchOptions([], { episodes: 200, backend: 'wasm' })).toEqual({ episodes: 200, backend: 'wasm' });
    expect(benchOptions(['--episodes', '7', '--backend', 'cpu'], { episodes: 200, backend: 'wasm' })).toEqual({ episodes: 7, backend: 'cpu' });
  });

  it('refuses an option the bench does not take instead of running on its defaults', () => {
    expect(() => benchOptions(['--episode', '7'], { episodes: 200 })).toThrow(/Unknown option '--episode'/);
  });

  it('refuses a number option whose value is not a number', () => {
    expect(() => benchOptions(['--episodes', 'many'], { episodes: 200 })).toThrow('--episodes must be a number, got "many"');
    expect(() => benchOptions(['--episodes', ''], { episodes: 200 })).toThrow('--episodes must be a number, got ""');
  });
});

describe('npm run bench', () => {
  it.each([
    ['neural', neuralBench, ['--help'], /^Unknown option '--help'/],
    ['envs', envsBench, ['--episodes'], /^Option '--episodes <value>' argument missing/],
    ['room', roomBench, ['--repeats', 'three'], /^--repeats must be a number, got "three"$/],
  ] as const)('%s refuses bad arguments as bench/run.ts answers with the usage (an argument error), before it runs: %j', async (_name, bench, args, message) => {
    const error = await bench([...args]).then(
      () => undefined,
      (e: unknown) => e,
    );
    // bench/run.ts's own test for "bad input: the message and the usage, exit 2" rather than a stack.
    expect(isArgumentError(error) || error instanceof UsageError).toBe(true);
    expect((error as Error).message).toMatch(message);
  });

  it.each([
    // A bench's bad argument, in a process: run.ts names the bench, gives the message and the usage.
    [['e2e', '--help'], /^e2e: Unknown option '--help'\nusage: npm run bench -- <browser\|/],
    [['e2e', '--work'], /^e2e: Option '--work <value>' argument missing\nusage:/],
    [['nonsense'], /^usage: npm run bench -- </],
  ])('bad arguments get their message and the usage, exit 2, before any bench runs: %j', (args, message) => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...args], { cwd: ROOT, encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).toBe('');
  });

  it('a reader that stops early (`bench envs | true`) ends it quietly with 0, as the CLI does', () => {
    // `true` closes the pipe before the bench prints its figures (it exits at once; the bench takes
    // seconds to load): the write fails with EPIPE. One episode a repeat: the figures are not the point.
    const result = spawnSync('bash', ['-c', `"${process.execPath}" --import tsx bench/run.ts envs --repeats 1 --episodes 1 | true; exit \${PIPESTATUS[0]}`], { cwd: ROOT, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    // Loading and playing the envs bench beside the whole suite on 2 cores has taken over a minute.
  }, 180_000);
});
