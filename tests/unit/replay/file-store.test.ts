import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileReplayStore, loadStoreFile, StoreFileError } from '../../../src/replay/file-store.ts';
import { transition } from './helpers.ts';

const WRITER = path.join(import.meta.dirname, 'file-store-writer.ts');
const BATCH = 50;

describe('FileReplayStore', () => {
  it('saves and loads everything: transitions, tasks, runs, statistics', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'dg-store-')), 'store.jsonl');
    const store = await FileReplayStore.open(file);
    await store.add([transition(1), transition(2, { source: 'synthetic', reasoning: 'r' })]);
    await store.putTasks([{ id: 't', env: 'shop', instruction: 'i', difficulty: 1, origin: 'seed', createdAt: 0 }]);
    await store.putRun({ id: 'run-a', env: 'shop', kind: 'seed', createdAt: 5 });
    await store.recordOutcomes([{ taskId: 't', env: 'shop', won: true, return: 1 }]);
    await store.close();
    const again = await FileReplayStore.open(file);
    expect((await again.page({ limit: 10 })).items).toEqual((await store.page({ limit: 10 })).items);
    expect(await again.getTask('t')).toMatchObject({ instruction: 'i' });
    expect(await again.runs()).toHaveLength(1);
    expect(await again.taskStats()).toMatchObject([{ taskId: 't', successes: 1 }]);
    expect(await again.add([transition(3)])).toEqual([3]);
  });

  it('refuses a damaged file with the line at fault and leaves it untouched', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'dg-store-')), 'store.jsonl');
    const store = await FileReplayStore.open(file);
    await store.add([transition(1), transition(2)]);
    await store.save();
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, `${text}{"id": 3, "runId": "r"`);
    await expect(loadStoreFile(file)).rejects.toThrow(StoreFileError);
    await expect(loadStoreFile(file)).rejects.toThrow(/line 4: not JSON/);
    expect(readFileSync(file, 'utf8')).toBe(`${text}{"id": 3, "runId": "r"`);
  });

  it('survives a process killed mid-write: only whole saved states, never a torn file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dg-crash-'));
    const file = path.join(dir, 'store.jsonl');
    const seen = new Set<number>();
    let tornWrites = 0;
    for (let round = 0; round < 4; round++) {
      // The writer saves after every batch; kill it at a different moment each round.
      const child = spawn(process.execPath, ['--import', 'tsx', WRITER, file, String(BATCH)], { stdio: ['ignore', 'pipe', 'inherit'] });
      let saves = 0;
      await new Promise<void>((resolve) => {
        child.stdout.on('data', (chunk: Buffer) => {
          saves += chunk.toString().split('\n').filter((l) => l === 'saved').length;
          if (saves >= 2 + round) {
            setTimeout(() => child.kill('SIGKILL'), round * 7);
            resolve();
          }
        });
      });
      await new Promise((resolve) => child.on('exit', resolve));
      // A temporary file left behind means the kill landed in the middle of a save.
      if (readdirSync(dir).some((f) => f.endsWith('.partial'))) tornWrites++;
      const contents = await loadStoreFile(file);
      const n = contents.transitions.length;
      expect(n % BATCH).toBe(0);
      expect(n).toBeGreaterThan(0);
      expect(contents.transitions.map((t) => t.id)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      seen.add(n);
    }
    expect(seen.size).toBeGreaterThan(1);
    expect(tornWrites).toBeGreaterThan(0);
    // Any temporary file a kill left behind is a sibling, never the store itself.
    expect(readdirSync(dir).filter((f) => !f.startsWith('.'))).toEqual(['store.jsonl']);
  }, 120_000);
});
