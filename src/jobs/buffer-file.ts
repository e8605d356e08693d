/**
 * A replay buffer file (`.jsonl`, replay/file-store.ts) as the offline data of a dream, a fidelity
 * measurement or an offline run under Node: opened with words that say how to make one. The CLI
 * and the experiments open their `--buffer` here.
 */
import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { UsageError } from '../core/errors.ts';
import { loadStoreFile } from '../replay/file-store.ts';
import { MemoryReplayStore } from '../replay/memory-store.ts';
import { ReplayBuffer } from '../replay/retrieval.ts';
import type { OfflineDataSource } from './offline-data.ts';

/**
 * How to add `env`'s episodes to the buffer file at `path`, which exists (it was read and lacked
 * them): `buffer seed` makes only new files, so seed one beside it and import that.
 */
export function seedIntoExisting(path: string, env: string, seedFlags = '--episodes 400'): string {
  const seeded = join(dirname(path), `${env}-seed.jsonl`);
  return `buffer seed --env ${env} ${seedFlags} --out ${seeded}, then buffer import ${seeded} --out ${path}`;
}

/** A buffer file as the offline data of a dream or a fidelity measurement, with how to seed it. */
export function bufferFileSource(path: string | undefined, env: string): OfflineDataSource {
  return { name: path ?? 'the buffer', howToSeed: path === undefined ? `seed one with: buffer seed --env ${env} --episodes 400 --out FILE.jsonl` : `seed some into a new file and import them: ${seedIntoExisting(path, env)}` };
}

/**
 * A replay buffer loaded from a store file into memory. Synthetic transitions written back during a
 * run stay in memory: the file is the offline data and is never changed by a run.
 */
export async function openBufferFile(path: string | undefined, flag = '--buffer'): Promise<ReplayBuffer> {
  if (path === undefined) throw new UsageError(`${flag} FILE.jsonl is required (make one with: buffer seed --env E --episodes N --out FILE.jsonl)`);
  const found = await stat(path).catch(() => null);
  if (!found) throw new UsageError(`${flag} ${path} does not exist (make one with: buffer seed --env E --episodes N --out ${path})`);
  if (!found.isFile()) throw new UsageError(`${flag} ${path} is ${found.isDirectory() ? 'a directory' : 'not a file'}; name a buffer file (FILE.jsonl)`);
  return ReplayBuffer.open(new MemoryReplayStore({}, await loadStoreFile(path)));
}
