import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import { transitionLine } from '../../../src/replay/jsonl.ts';
import { transition } from './helpers.ts';
import { capture } from '../../cli-io.ts';

const lastJson = (lines: string[]) => JSON.parse(lines.at(-1) as string);

describe('buffer on the command line', () => {
  it('seed writes a JSONL store of oracle and random episodes in the asked mix, and stats counts it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dg-buffer-'));
    const out = path.join(dir, 'seed.jsonl');
    const io = capture();
    expect(await main(['buffer', 'seed', '--env', 'home', '--episodes', '10', '--mix', 'oracle=0.6,random=0.4', '--seed', '3', '--out', out, '--json'], io)).toBe(0);
    const summary = lastJson(io.stdout);
    expect(summary).toMatchObject({ env: 'home', episodes: 10, byAgent: { oracle: { episodes: 6, successRate: 1 }, random: { episodes: 4 } } });
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(summary.transitions + 1);
    expect(JSON.parse(lines[1] as string)).toMatchObject({ env: 'home', source: 'real', runId: 'seed-home-3', reasoning: expect.stringMatching(/\S/) });
    const stats = capture();
    expect(await main(['buffer', 'stats', out, '--json'], stats)).toBe(0);
    expect(lastJson(stats.stdout)).toMatchObject({ transitions: summary.transitions, byEnv: { home: { real: summary.transitions } }, tasks: 10 });
    const again = capture();
    expect(await main(['buffer', 'seed', '--env', 'home', '--episodes', '1', '--out', out], again)).toBe(2);
    expect(again.stderr.join('\n')).toMatch(/already holds transitions/);
  });

  it('import lands every good line and names each bad one by its line number', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dg-buffer-'));
    const input = path.join(dir, 'in.jsonl');
    writeFileSync(input, [transitionLine(transition(1)), 'garbage\n', transitionLine(transition(2)), `${JSON.stringify({ ...transition(3), done: 'yes' })}\n`].join(''));
    const io = capture();
    expect(await main(['buffer', 'import', input, '--out', path.join(dir, 'store.jsonl'), '--json'], io)).toBe(0);
    expect(lastJson(io.stdout)).toMatchObject({ lines: 4, accepted: 2, rejected: 2, stored: 2 });
    expect(io.stderr).toEqual([expect.stringMatching(/in\.jsonl:2: skipped: not JSON/), expect.stringMatching(/in\.jsonl:4: skipped: done: /)]);
  });

  it('import adds only what the store lacks: the same file twice stores nothing the second time, a longer file only its new lines', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dg-buffer-'));
    const store = path.join(dir, 'store.jsonl');
    const half = path.join(dir, 'half.jsonl');
    const whole = path.join(dir, 'whole.jsonl');
    writeFileSync(half, [1, 2, 3].map((n) => transitionLine(transition(n))).join(''));
    // The whole file repeats the half (an import stopped half-way, then run on the full file) and adds two, one of them a second run.
    writeFileSync(whole, [1, 2, 3, 4].map((n) => transitionLine(transition(n))).join('') + transitionLine(transition(1, { runId: 'run-b' })));
    const first = capture();
    expect(await main(['buffer', 'import', half, '--out', store, '--json'], first)).toBe(0);
    expect(lastJson(first.stdout)).toMatchObject({ accepted: 3, duplicates: 0, stored: 3 });
    const again = capture();
    expect(await main(['buffer', 'import', half, '--out', store], again)).toBe(0);
    expect(again.stdout.join('\n')).toMatch(/nothing new: .*store\.jsonl already holds all 3 transitions/);
    const rest = capture();
    expect(await main(['buffer', 'import', whole, '--out', store, '--json'], rest)).toBe(0);
    expect(lastJson(rest.stdout)).toMatchObject({ lines: 5, accepted: 2, duplicates: 3, stored: 5 });
    const stats = capture();
    expect(await main(['buffer', 'stats', store, '--json'], stats)).toBe(0);
    expect(lastJson(stats.stdout)).toMatchObject({ transitions: 5 });
  });

  it('says what is wrong with bad usage', async () => {
    const cases: [string[], RegExp][] = [
      [['buffer'], /needs a subcommand/],
      [['buffer', 'seed', '--env', 'shop', '--out', 'x.jsonl'], /--episodes is required/],
      [['buffer', 'seed', '--env', 'shop', '--episodes', '2', '--out', 'x.txt'], /must name a \.jsonl file/],
      [['buffer', 'seed', '--env', 'shop', '--episodes', '2', '--mix', 'expert=1', '--out', 'x.jsonl'], /seeding agents are/],
      [['buffer', 'seed', '--env', 'mars', '--episodes', '2', '--out', 'x.jsonl'], /--env must be one of/],
    ];
    for (const [argv, message] of cases) {
      const io = capture();
      expect(await main(argv, io)).toBe(2);
      expect(io.stderr.join('\n')).toMatch(message);
    }
  });
});
