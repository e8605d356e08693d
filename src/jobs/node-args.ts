/**
 * A flag's value read under Node, for every Node entry point (the CLI's commands and the
 * experiments): an integer with its floor, and the bytes of a file a flag names.
 */
import { UsageError } from '../core/errors.ts';
import { excerpt } from '../core/text.ts';
import { DGP_MAX_BYTES } from '../core/weight-file.ts';
import { FileReadError, fileProblem, readFileBounded } from '../platform/files.ts';

/** The integer `--name` holds (`fallback` when absent), refused below `min`. */
export function intOption(value: string | undefined, name: string, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  // Decimal digits only: Number() also reads "", 0x10 and 1e3, which is not what a person typed.
  const n = /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}, got ${excerpt(value, 60)}`);
  return n;
}

/**
 * A policy file a flag names, as bytes; a UsageError naming the flag when it cannot be read. Its
 * kind and size are checked before the first byte is read (files.ts: readFileBounded).
 */
export async function readInputBytes(path: string, flag: string, maxBytes = DGP_MAX_BYTES): Promise<Uint8Array> {
  try {
    return await readFileBounded(path, maxBytes);
  } catch (error) {
    throw new UsageError(`cannot read ${flag} ${path}: ${error instanceof FileReadError ? error.problem : fileProblem(error)}`);
  }
}

