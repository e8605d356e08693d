/**
 * A full disk loses nothing. Files opened in one folder (`disk.full`) take only 4 KB each and
 * then fail as a full disk does: `write` writes part and says so only in its count, `writeFile`
 * throws ENOSPC. Every command then says which file and why in one line, leaves the file as it was
 * and no partial file beside it; a training run keeps its other outputs and puts the policy it could
 * not write in the system's temporary folder; a checkpoint that cannot be saved is a warning.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { readPolicyHeader } from '../../src/policy/dgp.ts';
import { capture } from '../cli-io.ts';

const disk = vi.hoisted(() => ({ full: null as string | null }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
  const open: typeof actual.open = async (file, flags, mode) => {
    const handle = await actual.open(file, flags, mode);
    if (disk.full === null || !String(file).startsWith(disk.full)) return handle;
    let room = 4096; // more than a lock file, less than any store, policy or model
    const take = async (data: string | ArrayBufferView): Promise<{ fits: number; length: number }> => {
      const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      const fits = Math.min(room, bytes.length);
      room -= fits;
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
  return { ...actual, open, default: { ...actual, open } };
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
});

describe('a full disk', () => {
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
