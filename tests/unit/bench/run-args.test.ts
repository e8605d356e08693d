import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchOptions } from '../../../bench/options.ts';

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
    [['neural', '--help'], /^neural: Unknown option '--help'\nusage: npm run bench -- <browser\|/],
    [['envs', '--episodes'], /^envs: Option '--episodes <value>' argument missing\nusage:/],
    [['room', '--repeats', 'three'], /^room: --repeats must be a number, got "three"\nusage:/],
    [['nonsense'], /^usage: npm run bench -- </],
  ])('bad arguments get their message and the usage, exit 2, before any bench runs: %j', (args, message) => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...args], { cwd: path.resolve(import.meta.dirname, '../../..'), encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).toBe('');
  });

  it('a reader that stops early (`bench envs | true`) ends it quietly with 0, as the CLI does', () => {
    // `true` closes the pipe before the bench prints its figures (it exits at once; the bench takes
    // seconds to load): the write fails with EPIPE. One episode a repeat: the figures are not the point.
    const result = spawnSync('bash', ['-c', `"${process.execPath}" --import tsx bench/run.ts envs --repeats 1 --episodes 1 | true; exit \${PIPESTATUS[0]}`], { cwd: path.resolve(import.meta.dirname, '../../..'), encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
