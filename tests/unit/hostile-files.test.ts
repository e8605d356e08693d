/**
 * Every kind of file the CLI reads whole (a policy, an experience model, a checkpoint, a site's
 * site.json, exported weights) and every store it streams is checked before its first byte is read
 * (issue 60): a 2 GB sparse file, /dev/zero and a FIFO are refused at once, by name, with memory to
 * spare. Before, a 700 MB policy peaked at 1.8 GB before it was refused, /dev/zero grew until killed
 * and a FIFO hung.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_READING_COMMANDS, HOSTILE_REFUSAL, hostileFiles, makeHostileFiles } from '../../bench/hostile-files.ts';
import { main } from '../../src/cli/main.ts';
import { FileReadError, readFileBounded, readFileBoundedSync } from '../../src/platform/files.ts';
import { capture } from '../cli-io.ts';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-hostile-'));
  makeHostileFiles(dir);
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
    for (const file of hostileFiles(dir, 'policy.dgp')) {
      await expect(readFileBounded(file.path, 64 * 2 ** 20), file.kind).rejects.toThrow(FileReadError);
      expect(() => readFileBoundedSync(file.path, 64 * 2 ** 20), file.kind).toThrow(file.said);
    }
    const small = path.join(dir, 'small.txt');
    writeFileSync(small, 'twelve bytes');
    expect(new TextDecoder().decode(await readFileBounded(small, 12))).toBe('twelve bytes');
    await expect(readFileBounded(small, 11)).rejects.toThrow(/over the/);
  });

  for (const command of FILE_READING_COMMANDS) {
    it(`${command.what}: refuses a 2 GB sparse file, /dev/zero and a FIFO in a clear sentence, quickly, with memory to spare`, async () => {
      for (const file of hostileFiles(dir, command.name)) {
        const { code, said, ms, rssGrowthMiB } = await run(command.args(file.path, dir));
        expect(code, `${file.kind}: ${said}`).toBeGreaterThan(0);
        expect(said, file.kind).toMatch(/(sparse|zero|fifo)\/[\w.]+/);
        expect(said, file.kind).toMatch(HOSTILE_REFUSAL);
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
