/** The line reader every JSONL file goes through: linear, capped, and honest about encodings. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importJsonl } from '../../../src/replay/jsonl.ts';
import { InputFormatError, readLines, type Line } from '../../../src/replay/lines.ts';
import { loadStoreFile, StoreFileError } from '../../../src/replay/file-store.ts';
import type { Transition } from '../../../src/core/types.ts';

async function collect(chunks: Iterable<string> | AsyncIterable<string>, maxLineChars?: number): Promise<Line[]> {
  const out: Line[] = [];
  for await (const line of readLines(chunks, maxLineChars === undefined ? {} : { maxLineChars })) out.push(line);
  return out;
}

function* repeated(chunk: string, times: number): Generator<string> {
  for (let i = 0; i < times; i++) yield chunk;
}

const good: Transition = {
  runId: 'r', taskId: 't', env: 'shop', instruction: 'buy', history: [], state: { text: 's', actions: ['a'] }, action: 'a',
  next: { text: 'n', actions: [] }, reward: 0, done: false, source: 'real', createdAt: 0,
};

describe('readLines', () => {
  it('reports a line over the cap by its length and keeps reading the lines after it', async () => {
    expect(await collect(['ab\n', 'cdefgh', 'ij\nk\n'], 5)).toEqual([{ text: 'ab' }, { tooLong: 8 }, { text: 'k' }]);
    expect(await collect(['abcdefgh'], 5)).toEqual([{ tooLong: 8 }]);
    expect(await collect(['abcde\r\n'], 5)).toEqual([{ tooLong: 6 }]);
  });

  it('reads a 64 MB line without a newline in linear time and bounded memory', async () => {
    const chunk = 'x'.repeat(64 * 1024);
    const before = process.memoryUsage().heapUsed;
    const lines = await collect(repeated(chunk, 1024));
    expect(lines).toEqual([{ tooLong: 64 * 1024 * 1024 }]);
    // The pieces of an over-long line are dropped as soon as it passes the cap.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(48 * 1024 * 1024);
  }, 15_000);

  it('drops a UTF-8 byte-order mark, so line 1 is read', async () => {
    expect(await collect(['\uFEFF{"a":1}\n', 'b'])).toEqual([{ text: '{"a":1}' }, { text: 'b' }]);
  });

  it('refuses UTF-16 and binary input by name', async () => {
    const utf16 = Buffer.from('\uFEFF{"a":1}\n', 'utf16le').toString('utf8');
    await expect(collect([utf16])).rejects.toThrow(/looks like UTF-16/);
    await expect(collect([Buffer.from('{"a":1}\n', 'utf16le').toString('utf8')])).rejects.toThrow(/UTF-16/);
    await expect(collect(['PK\u0003\u0004\u0000\u0001 some zip bytes and text that goes on for a while'])).rejects.toThrow(/binary/);
    const random = Buffer.from(Array.from({ length: 2000 }, (_, i) => (i * 137 + 200) % 256)).toString('utf8');
    await expect(collect([random])).rejects.toThrow(InputFormatError);
    // Random bytes that happen to start like a UTF-16 byte-order mark are still binary, not UTF-16 text.
    const bomLike = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(Array.from({ length: 4000 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 10_000) % 256))]).toString('utf8');
    await expect(collect([bomLike])).rejects.toThrow(/the file is binary/);
  });
});

describe('importJsonl on hostile files', () => {
  it('skips an over-long line as a bad line and lands the good ones', async () => {
    const landed: Transition[] = [];
    const huge = `{"runId":"${'x'.repeat(9 * 1024 * 1024)}"}\n`;
    const report = await importJsonl([JSON.stringify(good) + '\n', huge, JSON.stringify(good) + '\n'], async (batch) => void landed.push(...batch));
    expect(report).toMatchObject({ accepted: 2, rejectedCount: 1, lines: 3 });
    expect(report.rejected[0]).toMatchObject({ line: 2 });
    expect(report.rejected[0]?.problem).toMatch(/characters long, over the 8,388,608 a line may hold/);
    expect(landed).toHaveLength(2);
  });
});

describe('a store file whose first line is wrong', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-meta-'));
  const store = (name: string, first: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, `${first}\n${JSON.stringify({ ...good, id: 1 })}\n`);
    return file;
  };

  it.each([
    ['runs is a number', '{"$meta":{"version":1,"runs":5}}', /line 1: \$meta\.runs: Invalid type: Expected Array but received 5/],
    ['meta is null', '{"$meta":null}', /line 1: \$meta: Invalid type: Expected Object but received null/],
    ['a task lacks its env', '{"$meta":{"version":1,"tasks":[{"id":"t","instruction":"i","difficulty":1,"origin":"seed","createdAt":0}]}}', /\$meta\.tasks\.0\.env: Invalid key/],
    ['a statistic counts minus one attempt', '{"$meta":{"version":1,"stats":[{"taskId":"t","env":"shop","attempts":-1,"successes":0,"returnSum":0,"returnSquares":0,"updatedAt":0}]}}', /\$meta\.stats\.0\.attempts/],
    ['a newer format', '{"$meta":{"version":2}}', /store format version 2, this build reads 1/],
  ])('is refused with the field at fault (%s)', async (_, first, message) => {
    const file = store(`${first.length}.jsonl`, first);
    const loading = loadStoreFile(file);
    await expect(loading).rejects.toThrow(StoreFileError);
    await expect(loadStoreFile(file)).rejects.toThrow(message);
  });

  it('loads a store written with a byte-order mark', async () => {
    const file = store('bom.jsonl', '\uFEFF{"$meta":{"version":1,"runs":[{"id":"r","env":"shop","kind":"seed","createdAt":0}]}}');
    const contents = await loadStoreFile(file);
    expect(contents.runs).toHaveLength(1);
    expect(contents.transitions).toHaveLength(1);
  });
});
