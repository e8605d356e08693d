/**
 * Files written whole or not at all, and file errors said in words (Node only: the CLI, the file
 * replay store, experiments). A full disk, a kill or a crash mid-write must leave the old file, or
 * none, never half of one that a later command reads as corrupt.
 */
import { open, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { DreamGymError } from '../core/errors.ts';

const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on the disk',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file is too large for its file system',
  EACCES: 'permission denied',
  EPERM: 'the operation is not permitted',
  EROFS: 'the file system is read-only',
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of its path is not a folder',
  EISDIR: 'it is a folder',
  EMFILE: 'too many files are open',
  EIO: 'an input/output error',
};

/** Why a file operation failed, in words, with the system's code: `no space left on the disk (ENOSPC)`. */
export function fileProblem(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return message;
  // Node's own text reads `ENOSPC: no space left on device, write`: keep its middle where we have no words.
  return `${REASONS[code] ?? message.replace(/^[A-Z]+: /, '').split(',')[0]} (${code})`;
}

/** A file could not be written; the file is as it was before (or absent). `note` says what became of its contents. */
export class FileWriteError extends DreamGymError {
  constructor(
    readonly path: string,
    readonly problem: string,
    what: string,
    options?: { cause?: unknown; note?: string },
  ) {
    super('file-write', `could not write ${what}: ${problem}; ${path} is left as it was${options?.note ? `. ${options.note}` : ''}`, options);
  }
}

/** Where bytes bound for `path` wait until they are whole: a hidden sibling, one per writing process. */
export const partialPath = (path: string, pid = process.pid): string => join(dirname(path), `.${basename(path)}.${pid}.partial`);

/**
 * Write `data` to `path` whole or not at all: into a hidden sibling, synced, then renamed over
 * `path`. `what` names the file in the error (`--out policy.dgp`).
 */
export function writeFileWhole(path: string, data: string | Uint8Array, what = path): Promise<void> {
  return writeWhole(path, (append) => append(data), what);
}

/**
 * `writeFileWhole` for contents made piece by piece (a store of a million transitions is never one
 * string): `write` hands each piece to `append`, in order.
 */
export async function writeWhole(path: string, write: (append: (piece: string | Uint8Array) => Promise<void>) => Promise<void>, what = path): Promise<void> {
  const target = await existingTarget(path);
  const partial = partialPath(target.path);
  try {
    const handle = await open(partial, 'w');
    try {
      // The new file keeps the old one's permissions: a private store (600) stays private.
      if (target.mode !== undefined) await handle.chmod(target.mode);
      // FileHandle.writeFile goes on after a short write (FileHandle.write would not: a full disk
      // writes part of a piece and says so only in its count) and throws when nothing more fits.
      await write((piece) => handle.writeFile(piece));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, target.path);
  } catch (error) {
    await rm(partial, { force: true }).catch(() => undefined);
    throw new FileWriteError(path, fileProblem(error), what, { cause: error });
  }
}

/**
 * Where a file at `path` really is (links followed, so that rewriting a linked file rewrites it and
 * leaves the link in place, rather than putting a detached copy where the link was) and its
 * permission bits; `path` itself, without them, when there is no file there yet.
 */
async function existingTarget(path: string): Promise<{ path: string; mode?: number }> {
  try {
    const real = await realpath(path);
    return { path: real, mode: (await stat(real)).mode & 0o7777 };
  } catch {
    return { path };
  }
}

/**
 * Whether a file can be made in `path`'s folder, by making (and removing) its partial sibling: what
 * `writeFileWhole` needs. Asked before long work, so that a run does not end unable to keep its
 * result; unlike `access`, it also says no for root in /proc and on a read-only file system.
 */
export async function canWriteBeside(path: string): Promise<string | null> {
  const partial = partialPath((await existingTarget(path)).path);
  try {
    await (await open(partial, 'w')).close();
    await rm(partial, { force: true });
    return null;
  } catch (error) {
    return fileProblem(error);
  }
}
