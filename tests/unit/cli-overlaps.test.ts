/**
 * Outputs never overwrite inputs: a command whose output names one of its inputs (by the same path,
 * another spelling or a link) or another of its outputs is refused before any work, naming both;
 * `policy export` does not replace files it did not make.
 */
import { linkSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { capture } from '../cli-io.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-overlaps-'));
const buffer = path.join(dir, 'b.jsonl');
const policy = path.join(dir, 'p.dgp');

beforeAll(async () => {
  expect(await main(['buffer', 'seed', '--env', 'shop', '--episodes', '4', '--seed', '1', '--out', buffer, '--json'], capture())).toBe(0);
  expect(await main(['train', '--env', 'shop', '--mode', 'real', '--algo', 'grpo', '--real-budget', '64', '--iterations', '1', '--final-eval-episodes', '2', '--backend', 'cpu', '--set', 'tasksPerIteration=2,groupSize=2,parallelEnvs=4', '--out', policy, '--json'], capture())).toBe(0);
}, 120_000);

async function refused(argv: string[]): Promise<string> {
  const io = capture();
  expect(await main(argv, io)).toBe(2);
  return io.stderr.join('\n');
}

describe('an output that is an input', () => {
  it('train refuses --history over its --buffer (by path, another spelling, or a link), leaving the buffer as it was', async () => {
    const before = readFileSync(buffer, 'utf8');
    const bc = ['train', '--env', 'shop', '--mode', 'bc', '--buffer', buffer];
    expect(await refused([...bc, '--history', buffer])).toMatch(/--history .*b\.jsonl is the --buffer file itself; writing it would overwrite what this command reads/);
    expect(await refused([...bc, '--history', path.join(dir, '.', 'sub', '..', 'b.jsonl')])).toMatch(/is the --buffer file itself/);
    const link = path.join(dir, 'link.jsonl');
    symlinkSync(buffer, link);
    expect(await refused([...bc, '--history', link])).toMatch(/--history .*link\.jsonl is the --buffer file itself/);
    expect(readFileSync(buffer, 'utf8')).toBe(before);
  });

  it('buffer import refuses a store into itself by a hard link too, leaving it linked and as it was', async () => {
    const before = readFileSync(buffer, 'utf8');
    const hard = path.join(dir, 'hard.jsonl');
    linkSync(buffer, hard);
    expect(await refused(['buffer', 'import', buffer, '--out', hard])).toMatch(/buffer import: .*b\.jsonl is the --out store itself/);
    // Before, the import ran (adding nothing) and rewrote the store, breaking the link.
    expect(statSync(hard).ino).toBe(statSync(buffer).ino);
    expect(readFileSync(buffer, 'utf8')).toBe(before);
  });

  it('train refuses --out over its --init, leaving the policy as it was', async () => {
    const bytes = readFileSync(policy);
    expect(await refused(['train', '--env', 'shop', '--mode', 'real', '--algo', 'grpo', '--real-budget', '64', '--init', policy, '--out', policy])).toMatch(/--out .*p\.dgp is the --init file itself/);
    expect(readFileSync(policy)).toEqual(bytes);
  });

  it('policy export does not replace a config.json or weights it did not make', async () => {
    const out = path.join(dir, 'export');
    mkdirSync(out);
    writeFileSync(path.join(out, 'config.json'), '{"mine": true}\n');
    expect(await refused(['policy', 'export', policy, '--format', 'safetensors', '--out', out])).toMatch(/--out .*export already holds config\.json; name a new folder, or remove it first/);
    expect(readFileSync(path.join(out, 'config.json'), 'utf8')).toBe('{"mine": true}\n');
    // Into a new folder it writes both.
    expect(await main(['policy', 'export', policy, '--format', 'safetensors', '--out', path.join(dir, 'fresh')], capture())).toBe(0);
  });
});
