/**
 * A command's result files (a trained policy, a fitted model, a run's history). Each is written
 * whole (platform/files.ts). Where it cannot be (a full disk, a folder gone meanwhile), the result
 * is kept in the system's temporary folder instead and the error says where: a run of hours is not
 * thrown away for want of space at its end.
 */
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { DreamGymError } from '../core/errors.ts';
import { FileWriteError, writeFileWhole } from '../platform/files.ts';

/**
 * Write `data` to `path`; null when it was written, else the error to report (after the command's
 * other outputs: one that fails does not keep the rest from being written). `what` names the file
 * (`--out policy.dgp`) and `result` what it holds (`the trained policy`).
 */
export async function keepResult(path: string, data: string | Uint8Array, what: string, result: string): Promise<FileWriteError | null> {
  try {
    await writeFileWhole(path, data, what);
    return null;
  } catch (error) {
    if (!(error instanceof FileWriteError)) throw error;
    const rescue = join(tmpdir(), `dreamgym-${process.pid}-${basename(path)}`);
    try {
      await writeFileWhole(rescue, data);
      return new FileWriteError(path, error.problem, what, { cause: error, note: `${capitalised(result)} is kept in ${rescue} instead` });
    } catch (rescueError) {
      const why = rescueError instanceof FileWriteError ? rescueError.problem : String(rescueError);
      return new FileWriteError(path, error.problem, what, { cause: error, note: `Keeping ${result} in ${rescue} failed too (${why})` });
    }
  }
}

/** Throw what `keepResult` reported, if anything (several failures in one message). */
export function throwUnwritten(failures: readonly (FileWriteError | null)[]): void {
  const failed = failures.filter((f): f is FileWriteError => f !== null);
  if (failed.length === 1) throw failed[0];
  if (failed.length > 1) throw new DreamGymError('file-write', failed.map((f) => f.message).join('\n'));
}

const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
