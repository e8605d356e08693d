/**
 * Every kind of file the CLI reads whole (a policy, an experience model, a checkpoint, a site's
 * site.json, exported weights) and every store it streams is checked before its first byte is read
 * (issue 60): a 2 GB sparse file, /dev/zero and a FIFO are refused at once, by name, with memory to
 * spare. Before, a 700 MB policy peaked at 1.8 GB before it was refused, /dev/zero grew until killed
 * and a FIFO hung.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { FileReadError, readFileBounded, readFileBoundedSync } from '../../src/platform/files.ts';
import { capture } from '../cli-io.ts';

let dir: string;
/** The three hostile files, each under the name a command expects. */
const hostile = (name: string): { kind: string; path: string; said: RegExp }[] => [
  { kind: 'a 2 GB sparse file', path: path.join(dir, 'sparse', name), said: /is 2,048 MB, over the [\d,.]+ MB such a file may be|is 2,048 MB/ },
  { kind: '/dev/zero', path: path.join(dir, 'zero', name), said: /is a device, not a file/ },
  { kind: 'a FIFO', path: path.join(dir, 'fifo', name), said: /is a named pipe \(FIFO\), not a file/ },
];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-hostile-'));
  for (const name of ['policy.dgp', 'model.dgx', 'run.dgc', 'site.json', 'model.safetensors', 'buffer.jsonl']) {
    for (const kind of ['sparse', 'zero', 'fifo']) mkdirSync(path.join(dir, kind), { recursive: true });
    const sparse = path.join(dir, 'sparse', name);
    writeFileSync(sparse, '');
    truncateSync(sparse, 2 * 1024 ** 3);
    symlinkSync('/dev/zero', path.join(dir, 'zero', name));
    execFileSync('mkfifo', [path.join(dir, 'fifo', name)]);
  }
  // The safetensors folder needs its config beside the weights.
  for (const kind of ['sparse', 'zero', 'fifo']) writeFileSync(path.join(dir, kind, 'config.json'), '{}');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the command in this process; what it said, its exit code, and what it cost. */
async function run(args: string[]): Promise<{ code: number; said: string; ms: number; rssGrowthMiB: number }> {
  const io = capture();
  const rss = process.memoryUsage().rss;
  const start = performance.now();
  const code = await main(args, io);
  return { code, said: io.stderr.join('\n'), ms: performance.now() - start, rssGrowthMiB: (process.memoryUsage().rss - rss) / 2 ** 20 };
}

describe('files read whole, checked first', () => {
  it('the bounded reader refuses each hostile file without reading it, and reads a small file whole', async () => {
    for (const file of hostile('policy.dgp')) {
      await expect(readFileBounded(file.path, 64 * 2 ** 20), file.kind).rejects.toThrow(FileReadError);
      expect(() => readFileBoundedSync(file.path, 64 * 2 ** 20), file.kind).toThrow(file.said);
    }
    const small = path.join(dir, 'small.txt');
    writeFileSync(small, 'twelve bytes');
    expect(new TextDecoder().decode(await readFileBounded(small, 12))).toBe('twelve bytes');
    await expect(readFileBounded(small, 11)).rejects.toThrow(/over the/);
  });

  const commands: { what: string; name: string; args: (file: string) => string[] }[] = [
    { what: 'rollout --policy', name: 'policy.dgp', args: (file) => ['rollout', '--env', 'shop', '--policy', file, '--episodes', '1'] },
    { what: 'train --init', name: 'policy.dgp', args: (file) => ['train', '--env', 'shop', '--mode', 'real', '--algo', 'grpo', '--real-budget', '10', '--init', file] },
    { what: 'policy export', name: 'policy.dgp', args: (file) => ['policy', 'export', file, '--format', 'safetensors', '--out', path.join(dir, `export-${path.basename(path.dirname(file))}`)] },
    { what: 'policy import', name: 'model.safetensors', args: (file) => ['policy', 'import', path.dirname(file), '--out', path.join(dir, `import-${path.basename(path.dirname(file))}.dgp`)] },
    { what: 'experience eval --model', name: 'model.dgx', args: (file) => ['experience', 'eval', '--env', 'shop', '--experience', 'neural', '--model', file, '--buffer', file, '--heldout', '10'] },
    { what: 'train --resume --checkpoint', name: 'run.dgc', args: (file) => ['train', '--env', 'shop', '--mode', 'real', '--algo', 'grpo', '--real-budget', '10', '--checkpoint', file, '--resume'] },
    { what: '--site DIR (its site.json)', name: 'site.json', args: (file) => ['rollout', '--site', path.dirname(file), '--policy', 'random', '--episodes', '1'] },
    { what: 'buffer import', name: 'buffer.jsonl', args: (file) => ['buffer', 'import', file, '--out', path.join(dir, `imported-${path.basename(path.dirname(file))}.jsonl`)] },
  ];
  for (const command of commands) {
    it(`${command.what}: refuses a 2 GB sparse file, /dev/zero and a FIFO in a clear sentence, quickly, with memory to spare`, async () => {
      for (const file of hostile(command.name)) {
        const { code, said, ms, rssGrowthMiB } = await run(command.args(file.path));
        expect(code, `${file.kind}: ${said}`).toBeGreaterThan(0);
        expect(said, file.kind).toMatch(/(sparse|zero|fifo)\/[\w.]+/);
        expect(said, file.kind).toMatch(/2,048 MB|not a file|is a device|named pipe|not valid|binary|NUL|cannot be read|does not look like/i);
        expect(ms, file.kind).toBeLessThan(5_000);
        expect(rssGrowthMiB, file.kind).toBeLessThan(500);
      }
    });
  }
});

describe('an output the system refuses', () => {
  it('is said in words, with the path, before any work, not as a stack trace', async () => {
    const policy = path.join(dir, 'any.dgp');
    writeFileSync(policy, 'not read: the folder comes first');
    // /sys refuses a new folder even to root (EPERM), as a read-only disk refuses one (EROFS).
    const { code, said } = await run(['policy', 'export', policy, '--format', 'safetensors', '--out', '/sys/dreamgym-export']);
    expect(code).toBe(2);
    expect(said).toMatch(/^error: --out \/sys\/dreamgym-export: the folder cannot be made: (the operation is not permitted \(EPERM\)|permission denied \(EACCES\)|the file system is read-only \(EROFS\))$/m);
    expect(said).not.toMatch(/^\s+at /m);
  });
});
