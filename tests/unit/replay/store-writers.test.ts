/**
 * Store files under concurrent writers, crashed writers and hostile imports: nothing lost, nothing
 * doubled, every refusal specific.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import { FileReplayStore, loadStoreFile } from '../../../src/replay/file-store.ts';
import { StoreLockedError } from '../../../src/replay/file-lock.ts';
import { transitionLine } from '../../../src/replay/jsonl.ts';
import { transition } from './helpers.ts';
import { runCliProcess } from '../../cli-process.ts';
import { capture } from '../../cli-io.ts';

const tempDir = () => mkdtempSync(path.join(tmpdir(), 'dg-writers-'));
const shopLines = (from: number, n: number) => Array.from({ length: n }, (_, i) => transitionLine(transition(from + i, { env: 'shop', runId: `run-${from}` }))).join('');

describe('one writer at a time', () => {
  it('refuses a second writer, naming the holder, and lets a later one in once the first closes', async () => {
    const file = path.join(tempDir(), 'store.jsonl');
    const first = await FileReplayStore.open(file);
    const second = FileReplayStore.open(file);
    await expect(second).rejects.toThrow(StoreLockedError);
    await expect(FileReplayStore.open(file)).rejects.toThrow(new RegExp(`store.jsonl is being written by process ${process.pid} \\(`));
    await first.add([transition(1)]);
    await first.close();
    const third = await FileReplayStore.open(file);
    expect(await third.count()).toBe(1);
    await third.release();
  });

  it('takes over the lock and removes the temporary file a killed writer left', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'store.jsonl');
    // A writer that was killed: its process is gone, its lock and half-written save remain.
    const child = spawn(process.execPath, ['-e', '0']);
    const deadPid = await new Promise<number>((resolve) => child.on('exit', () => resolve(child.pid as number)));
    writeFileSync(path.join(dir, '.store.jsonl.lock'), JSON.stringify({ pid: deadPid, host: hostname(), command: 'buffer import', since: '2026-01-01' }));
    writeFileSync(path.join(dir, `.store.jsonl.${deadPid}.partial`), 'x'.repeat(1000));
    const store = await FileReplayStore.open(file);
    expect(readdirSync(dir).filter((f) => f.endsWith('.partial'))).toEqual([]);
    await store.add([transition(1)]);
    await store.close();
    expect(readdirSync(dir).sort()).toEqual(['store.jsonl']);
  });

  it('two concurrent imports into one store give the sum of both or a clear refusal, never less', async () => {
    const dir = tempDir();
    const out = path.join(dir, 'store.jsonl');
    const a = path.join(dir, 'a.jsonl');
    const b = path.join(dir, 'b.jsonl');
    writeFileSync(a, shopLines(1, 3000));
    writeFileSync(b, shopLines(10_001, 3000));
    const runs = await Promise.all([runCliProcess(['buffer', 'import', a, '--out', out, '--json']), runCliProcess(['buffer', 'import', b, '--out', out, '--json'])]);
    const succeeded = runs.filter((r) => r.code === 0).length;
    for (const refused of runs.filter((r) => r.code !== 0)) expect(refused.stderr).toMatch(/store\.jsonl is being written by process \d+ \(buffer import/);
    expect(succeeded).toBeGreaterThanOrEqual(1);
    expect((await loadStoreFile(out)).transitions).toHaveLength(3000 * succeeded);
    expect(existsSync(path.join(dir, '.store.jsonl.lock'))).toBe(false);
  }, 60_000);
});

describe('buffer import of hostile files', () => {
  it('keeps a seeded store\'s tasks and runs, and refuses to import a store into itself', async () => {
    const dir = tempDir();
    const seeded = path.join(dir, 'seeded.jsonl');
    expect(await main(['buffer', 'seed', '--env', 'home', '--episodes', '6', '--seed', '2', '--out', seeded], capture())).toBe(0);
    const out = path.join(dir, 'copy.jsonl');
    expect(await main(['buffer', 'import', seeded, '--out', out], capture())).toBe(0);
    const [source, copy] = [await loadStoreFile(seeded), await loadStoreFile(out)];
    expect(copy.transitions).toHaveLength(source.transitions.length);
    expect(copy.tasks.map((t) => t.id).sort()).toEqual(source.tasks.map((t) => t.id).sort());
    expect(copy.runs.map((r) => r.id)).toEqual(['seed-home-2']);
    const self = capture();
    expect(await main(['buffer', 'import', seeded, '--out', seeded], self)).toBe(2);
    expect(self.stderr.join('\n')).toMatch(/is the --out store itself/);
    expect((await loadStoreFile(seeded)).transitions).toHaveLength(source.transitions.length);
  });

  it.each([
    ['UTF-16', () => Buffer.from(`\uFEFF${shopLines(1, 2)}`, 'utf16le'), /looks like UTF-16/],
    ['binary', () => Buffer.from([0x50, 0x4b, 3, 4, 0, 0, 1, 2, 0, 9, 8, 7]), /binary/],
    ['nothing but bad lines', () => 'garbage\n{"x":1}\n', /holds no transition to import \(2 lines, 2 bad; line 1: not JSON/],
    ['empty', () => '', /holds no transition to import \(0 lines, 0 bad\)/],
  ])('exits non-zero on a file with no good line (%s) and leaves the store as it was', async (_, content, message) => {
    const dir = tempDir();
    const input = path.join(dir, 'in.jsonl');
    const out = path.join(dir, 'out.jsonl');
    writeFileSync(out, shopLines(1, 1).replace(/^/, '{"$meta":{"version":1}}\n').replace('"runId"', '"id":1,"runId"'));
    const before = readFileSync(out, 'utf8');
    writeFileSync(input, content());
    const io = capture();
    expect(await main(['buffer', 'import', input, '--out', out], io)).toBe(1);
    expect(io.stderr.join('\n')).toMatch(message);
    expect(readFileSync(out, 'utf8')).toBe(before);
  });

  it('reads line 1 of a file with a byte-order mark, and refuses unknown environments and absurd rewards by line', async () => {
    const dir = tempDir();
    const input = path.join(dir, 'in.jsonl');
    const out = path.join(dir, 'out.jsonl');
    writeFileSync(input, `\uFEFF${shopLines(1, 1)}${transitionLine(transition(2, { env: 'mars' }))}${transitionLine(transition(3, { env: 'shop', reward: 1e300 }))}`);
    const io = capture();
    expect(await main(['buffer', 'import', input, '--out', out, '--json'], io)).toBe(0);
    expect(JSON.parse(io.stdout.at(-1) as string)).toMatchObject({ accepted: 1, rejected: 2 });
    const problems = io.stderr.join('\n');
    expect(problems).toMatch(/in\.jsonl:2: skipped: env: "mars" is not an environment of this build \(shop, home/);
    expect(problems).toMatch(/in\.jsonl:3: skipped: reward: Invalid value: Expected <=1000 but received 1e\+300/);
  });
});

describe('reading a store that is not there', () => {
  it('is refused with the path, while a writer may create it', async () => {
    const file = path.join(tempDir(), 'typo.jsonl');
    await expect(loadStoreFile(file)).rejects.toThrow(/typo\.jsonl does not exist; make one with: buffer seed/);
    const store = await FileReplayStore.open(file);
    expect(await store.count()).toBe(0);
    await store.release();
  });
});
