/**
 * One writer at a time for a store file (Node only). A writer creates `.<store>.lock` beside it exclusively
 * and writes who it is into it; a second writer is refused with the holder's process id, command
 * and start time. A lock whose process is gone (killed, crashed) is stale and taken over, so a
 * crash never locks a store for good. proper-lockfile judges staleness by a refreshed mtime and
 * cannot say who holds a lock; a process id on one machine answers both, so this stays small.
 */
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { open, readFile, rm, stat } from 'node:fs/promises';
import { DreamGymError } from '../core/errors.ts';
import { fileProblem, FileWriteError } from '../platform/files.ts';

export class StoreLockedError extends DreamGymError {
  constructor(message: string) {
    super('store-locked', message);
  }
}

interface LockHolder {
  pid: number;
  host: string;
  command: string;
  since: string;
}

/** A lock file that cannot be read this long after it was made is a writer that died mid-creation. */
const UNREADABLE_STALE_MS = 10_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as { code?: string }).code === 'EPERM';
  }
}

async function holderOf(lockPath: string): Promise<LockHolder | null> {
  try {
    const holder = JSON.parse(await readFile(lockPath, 'utf8')) as Partial<LockHolder>;
    return typeof holder.pid === 'number' && typeof holder.host === 'string' ? (holder as LockHolder) : null;
  } catch {
    return null;
  }
}

/** Whether the lock at `lockPath` may be taken over: its process is gone, or it was never written. */
async function isStale(lockPath: string, holder: LockHolder | null): Promise<boolean> {
  if (holder) return holder.host === hostname() && !alive(holder.pid);
  try {
    return Date.now() - (await stat(lockPath)).mtimeMs > UNREADABLE_STALE_MS;
  } catch {
    return true;
  }
}

/** Take the store's write lock; resolves with its release. Refuses, naming the holder, while another live process holds it. */
export async function lockStoreFile(path: string): Promise<() => Promise<void>> {
  const lockPath = join(dirname(path), `.${basename(path)}.lock`);
  const me: LockHolder = { pid: process.pid, host: hostname(), command: process.argv.slice(2).join(' '), since: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lockPath, 'wx');
      try {
        await handle.writeFile(JSON.stringify(me));
      } catch (error) {
        // A lock that could not be written whole (a full disk) is no lock: taken back, and said why.
        await handle.close().catch(() => undefined);
        await rm(lockPath, { force: true });
        throw new FileWriteError(path, fileProblem(error), `the lock of the buffer ${path}`, { cause: error });
      }
      await handle.close();
      return () => rm(lockPath, { force: true });
    } catch (error) {
      if (error instanceof FileWriteError) throw error;
      if ((error as { code?: string }).code !== 'EEXIST') throw new FileWriteError(path, fileProblem(error), `the lock of the buffer ${path}`, { cause: error });
      const holder = await holderOf(lockPath);
      if (attempt === 0 && (await isStale(lockPath, holder))) {
        await rm(lockPath, { force: true });
        continue;
      }
      const who = holder ? `process ${holder.pid}${holder.host !== me.host ? ` on ${holder.host}` : ''} (${holder.command || 'no command line'}, since ${holder.since})` : 'another process';
      throw new StoreLockedError(`${path} is being written by ${who}; wait for it to finish (its lock is ${lockPath}; remove it only if that process is gone)`);
    }
  }
  throw new StoreLockedError(`${path}: could not take its lock ${lockPath}; try again`);
}
