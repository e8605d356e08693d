import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { CommandIO } from '../../src/cli/io.ts';

function capture(): CommandIO & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout, stderr,
    out: (t) => stdout.push(t),
    result: (v) => stdout.push(JSON.stringify(v)),
    progress: (t) => stderr.push(t),
  };
}

const lastJson = (lines: string[]) => JSON.parse(lines.at(-1)!);

describe('the CLI', () => {
  it('envs --json lists each environment with its split sizes', async () => {
    const io = capture();
    expect(await main(['envs', '--json'], io)).toBe(0);
    const { envs } = lastJson(io.stdout);
    expect(envs.map((e: { name: string }) => e.name)).toEqual(['shop', 'home']);
    expect(envs[0].splits).toEqual({ train: 1500, test: 500 });
    expect(envs[1].splits).toHaveProperty('valid-unseen');
  });

  it('rollout --json prints the summary as the last stdout line and progress on stderr', async () => {
    const io = capture();
    const code = await main(['rollout', '--env', 'shop', '--policy', 'oracle', '--split', 'test', '--episodes', '10', '--seed', '3', '--json'], io);
    expect(code).toBe(0);
    const summary = lastJson(io.stdout);
    expect(Object.keys(summary).sort()).toEqual(
      ['digest', 'env', 'episodes', 'invalidActionRate', 'meanScore', 'meanSteps', 'policy', 'split', 'stepsPerSec', 'successRate'].sort(),
    );
    expect(summary).toMatchObject({ env: 'shop', policy: 'oracle', split: 'test', episodes: 10, successRate: 1 });
    expect(io.stderr.at(-1)).toMatch(/10\/10 episodes/);
  });

  it('defaults the split to the held-out one', async () => {
    const io = capture();
    await main(['rollout', '--env', 'home', '--policy', 'random', '--episodes', '2', '--json'], io);
    expect(lastJson(io.stdout).split).toBe('valid-unseen');
  });

  it.each([
    [['rollout', '--env', 'moon', '--policy', 'oracle'], /--env must be one of: shop, home/],
    [['rollout', '--env', 'shop'], /--policy is required/],
    [['rollout', '--env', 'shop', '--policy', 'oracle', '--split', 'valid-seen'], /--split must be one of: train, test/],
    [['rollout', '--env', 'shop', '--policy', 'oracle', '--episodes', '0'], /--episodes must be an integer ≥ 1/],
    [['rollout', '--env', 'shop', '--policy', 'oracle', '--frobnicate'], /Unknown option '--frobnicate'/],
    [['launch'], /unknown command "launch"/],
  ])('exits 2 with a specific message for %j', async (argv, message) => {
    const io = capture();
    expect(await main(argv, io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(message);
    expect(io.stdout).toEqual([]);
  });
});
