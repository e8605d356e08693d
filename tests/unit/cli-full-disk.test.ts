/**
 * A full disk loses nothing. Files opened in one folder (`disk.full`) take only 4 KB each and
 * then fail as a full disk does: `write` writes part and says so only in its count, `writeFile`
 * throws ENOSPC; or, with `disk.room`, they share that many bytes, and a file removed or renamed
 * over gives its bytes back, as on a real disk. Every command then says which file and why in one line, leaves the file as it was
 * and no partial file beside it; a training run keeps its other outputs and puts the policy it could
 * not write in the system's temporary folder; a checkpoint that cannot be saved is a warning.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { readPolicyHeader } from '../../src/policy/dgp.ts';
import { loadStoreFile } from '../../src/replay/file-store.ts';
import { capture } from '../cli-io.ts';

const disk = vi.hoisted(() => ({ full: null as string | null, room: null as number | null, sizes: new Map<string, number>() }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
  const shared = (file: unknown): boolean => disk.room !== null && disk.full !== null && String(file).startsWith(disk.full);
  const giveBack = (file: unknown): void => {
    if (!shared(file)) return;
    disk.room = (disk.room as number) + (disk.sizes.get(String(file)) ?? 0);
    disk.sizes.delete(String(file));
  };
  const rename: typeof actual.rename = async (from, to) => {
    await actual.rename(from, to);
    if (!shared(to)) return;
    giveBack(to);
    disk.sizes.set(String(to), disk.sizes.get(String(from)) ?? 0);
    disk.sizes.delete(String(from));
  };
  const rm: typeof actual.rm = async (file, options) => {
    await actual.rm(file, options);
    giveBack(file);
  };
  const open: typeof actual.open = async (file, flags, mode) => {
    const handle = await actual.open(file, flags, mode);
    if (disk.full === null || !String(file).startsWith(disk.full)) return handle;
    let room = 4096; // more than a lock file, less than any store, policy or model
    const take = async (data: string | ArrayBufferView): Promise<{ fits: number; length: number }> => {
      const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      const fits = Math.min(disk.room ?? room, bytes.length);
      if (disk.room === null) room -= fits;
      else {
        disk.room -= fits;
        disk.sizes.set(String(file), (disk.sizes.get(String(file)) ?? 0) + fits);
      }
      if (fits > 0) await handle.write(bytes.subarray(0, fits));
      return { fits, length: bytes.length };
    };
    return new Proxy(handle, {
      get(target, prop) {
        if (prop === 'write') {
          return async (data: string | ArrayBufferView) => {
            const { fits, length } = await take(data);
            if (fits === 0 && length > 0) throw enospc();
            return { bytesWritten: fits, buffer: data };
          };
        }
        if (prop === 'writeFile') {
          return async (data: string | ArrayBufferView) => {
            const { fits, length } = await take(data);
            if (fits < length) throw enospc();
          };
        }
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
  return { ...actual, open, rename, rm, default: { ...actual, open, rename, rm } };
});

const root = mkdtempSync(path.join(tmpdir(), 'dreamgym-full-disk-'));
const BUFFER = path.join(root, 'seeded.jsonl');
const MORE = path.join(root, 'more.jsonl');
const TRAIN = ['train', '--env', 'shop', '--mode', 'real', '--algo', 'grpo', '--real-budget', '100', '--backend', 'cpu', '--seed', '1', '--set', 'tasksPerIteration=2,groupSize=4,parallelEnvs=8,epochs=1', '--final-eval-episodes', '5'];

/** A new folder on the full disk (empty) and one on the healthy disk. */
function folders(): { full: string; healthy: string } {
  const full = mkdtempSync(path.join(root, 'full-'));
  const healthy = mkdtempSync(path.join(root, 'healthy-'));
  return { full, healthy };
}

beforeAll(async () => {
  const io = capture();
  expect(await main(['buffer', 'seed', '--env', 'shop', '--episodes', '6', '--seed', '1', '--out', BUFFER], io)).toBe(0);
  expect(await main(['buffer', 'seed', '--env', 'shop', '--episodes', '4', '--seed', '2', '--out', MORE], io)).toBe(0);
});

afterEach(() => {
  disk.full = null;
  disk.room = null;
  disk.sizes.clear();
});

describe('a full disk', () => {
  it('keeps every whole episode `buffer seed` saved before the disk filled, says how many and where, and fails', async () => {
    const { full } = folders();
    const out = path.join(full, 'seeded.jsonl');
    disk.full = full;
    // Room for the store after the first batch of 16 shop episodes (~0.3 MB), not for all 64 (~1.2 MB).
    disk.room = 800_000;
    const io = capture();
    expect(await main(['buffer', 'seed', '--env', 'shop', '--episodes', '64', '--seed', '1', '--out', out], io)).toBe(1);
    const last = io.stderr.at(-1) ?? '';
    const said = /^error: could not write the buffer .*seeded\.jsonl: no space left on the disk \(ENOSPC\); .*seeded\.jsonl is left as it was; .*seeded\.jsonl holds the (\d+) whole episodes \((\d+) transitions\) saved before that, of the (\d+) played$/.exec(last);
    expect(said, io.stderr.join('\n')).not.toBeNull();
    const [episodes, transitions, played] = (said?.slice(1) ?? []).map(Number) as [number, number, number];
    expect(episodes).toBeGreaterThan(0);
    expect(episodes).toBeLessThan(played);
    const kept = await loadStoreFile(out);
    expect(kept.transitions).toHaveLength(transitions);
    // Whole episodes only: each ends with its last step, and the store counts as many as it says.
    const byEpisode = new Map<string, boolean[]>();
    for (const t of kept.transitions) byEpisode.set(t.episodeId as string, [...(byEpisode.get(t.episodeId as string) ?? []), t.done]);
    expect(byEpisode.size).toBe(episodes);
    for (const dones of byEpisode.values()) expect(dones.indexOf(true)).toBe(dones.length - 1);
    expect(readdirSync(full)).toEqual(['seeded.jsonl']);
  });

  it('leaves a buffer that an import could not grow as it was, and says so', async () => {
    const { full } = folders();
    const store = path.join(full, 'store.jsonl');
    expect(await main(['buffer', 'import', BUFFER, '--out', store], capture())).toBe(0);
    const before = readFileSync(store);
    disk.full = full;
    const io = capture();
    expect(await main(['buffer', 'import', MORE, '--out', store], io)).toBe(1);
    const last = io.stderr.at(-1) ?? '';
    expect(last).toMatch(/^error: could not write the buffer .*store\.jsonl: no space left on the disk \(ENOSPC\); .*store\.jsonl is left as it was$/);
    expect(io.stderr.join('\n')).not.toMatch(/^\s+at /m);
    expect(readFileSync(store).equals(before)).toBe(true);
    expect(readdirSync(full)).toEqual(['store.jsonl']);
  });

  it("keeps a trained policy that --out could not take in the temporary folder, and still writes the history", async () => {
    const { full, healthy } = folders();
    const out = path.join(full, 'policy.dgp');
    const history = path.join(healthy, 'history.json');
    disk.full = full;
    const io = capture();
    expect(await main([...TRAIN, '--out', out, '--history', history, '--json'], io)).toBe(1);
    const last = io.stderr.at(-1) ?? '';
    const kept = /^error: could not write --out .*policy\.dgp: no space left on the disk \(ENOSPC\); .*policy\.dgp is left as it was\. The trained policy is kept in (\S+) instead$/.exec(last);
    expect(kept, io.stderr.join('\n')).not.toBeNull();
    const rescued = kept?.[1] as string;
    expect(readPolicyHeader(new Uint8Array(readFileSync(rescued))).env).toBe('shop');
    expect(JSON.parse(readFileSync(history, 'utf8'))).toMatchObject({ env: 'shop', mode: 'real' });
    expect(JSON.parse(io.stdout.at(-1) as string)).toMatchObject({ env: 'shop', realTransitions: expect.any(Number) });
    expect(readdirSync(full)).toEqual([]);
    expect(existsSync(out)).toBe(false);
  });

  it('makes a checkpoint that cannot be saved a warning; the run trains on and writes its policy', async () => {
    const { full, healthy } = folders();
    const out = path.join(healthy, 'policy.dgp');
    disk.full = full;
    const io = capture();
    expect(await main([...TRAIN, '--checkpoint', path.join(full, 'run.dgc'), '--checkpoint-every', '0', '--out', out], io)).toBe(0);
    expect(io.stderr.some((line) => /^warning: could not write the checkpoint .*run\.dgc: no space left on the disk \(ENOSPC\); .*run\.dgc is left as it was; training goes on$/.test(line))).toBe(true);
    expect(readPolicyHeader(new Uint8Array(readFileSync(out))).env).toBe('shop');
    expect(readdirSync(full)).toEqual([]);
  });

  it('keeps a fitted model that --out could not take', async () => {
    const { full } = folders();
    disk.full = full;
    const io = capture();
    expect(await main(['experience', 'fit', '--env', 'shop', '--buffer', BUFFER, '--epochs', '1', '--backend', 'cpu', '--out', path.join(full, 'model.dgx')], io)).toBe(1);
    const kept = /^error: could not write --out .*model\.dgx: no space left on the disk \(ENOSPC\); .*model\.dgx is left as it was\. The fitted model is kept in (\S+) instead$/.exec(io.stderr.at(-1) ?? '');
    expect(kept, io.stderr.join('\n')).not.toBeNull();
    expect(readFileSync(kept?.[1] as string).length).toBeGreaterThan(1000);
    expect(readdirSync(full)).toEqual([]);
  });
});
