/**
 * Files written whole or not at all, and file errors said in words (Node only: the CLI, the file
 * replay store, experiments). A full disk, a kill or a crash mid-write must leave the old file, or
 * none, never half of one that a later command reads as corrupt.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
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

/** A file could not be read as the file it should be: not a regular file, or larger than its kind may be. */
export class FileReadError extends DreamGymError {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super('file-read', `${path} ${problem}`);
  }
}

const megabytes = (bytes: number): string => `${(bytes / (1024 * 1024)).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`;

/** Why a file that is not a regular one cannot be read whole (a FIFO never ends, a device may not); null for a regular file. */
export function notAFile(info: Stats): string | null {
  if (info.isFile()) return null;
  if (info.isDirectory()) return 'is a folder, not a file';
  if (info.isFIFO()) return 'is a named pipe (FIFO), not a file';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'is a device, not a file';
  if (info.isSocket()) return 'is a socket, not a file';
  return 'is not a regular file';
}

/**
 * Checks what `info` describes before a byte is read: a regular file of at most `maxBytes`. A 2 GB
 * sparse file, `/dev/zero` or a FIFO is refused here, where reading first grew until killed or hung.
 */
function checkReadable(path: string, info: Stats, maxBytes: number): void {
  const problem = notAFile(info);
  if (problem !== null) throw new FileReadError(path, problem);
  if (info.size > maxBytes) throw new FileReadError(path, `is ${megabytes(info.size)}, over the ${megabytes(maxBytes)} such a file may be`);
}

/**
 * A file's bytes, read whole only when it is a regular file of at most `maxBytes` (checked on the
 * open file, so what is checked is what is read). Opened without blocking: a FIFO with no writer
 * would otherwise hang the open itself. Throws FileReadError, or the system's error (ENOENT…).
 */
export async function readFileBounded(path: string, maxBytes: number): Promise<Uint8Array> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    checkReadable(path, info, maxBytes);
    const bytes = new Uint8Array(info.size);
    let read = 0;
    while (read < bytes.length) {
      const { bytesRead } = await handle.read(bytes, read, bytes.length - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return bytes.subarray(0, read);
  } finally {
    await handle.close();
  }
}

/** `readFileBounded` for callers that read synchronously (a site folder's site.json). */
export function readFileBoundedSync(path: string, maxBytes: number): Uint8Array {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = fstatSync(fd);
    checkReadable(path, info, maxBytes);
    const bytes = new Uint8Array(info.size);
    let read = 0;
    while (read < bytes.length) {
      const got = readSync(fd, bytes, read, bytes.length - read, read);
      if (got === 0) break;
      read += got;
    }
    return bytes.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

