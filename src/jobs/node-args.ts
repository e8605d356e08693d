/**
 * A flag's value read under Node, for every Node entry point (the CLI's commands and the
 * experiments): an integer with its floor, and the bytes of a file a flag names.
 */
import { readFile } from 'node:fs/promises';
import { errorMessage, UsageError } from '../core/errors.ts';

/** The integer `--name` holds (`fallback` when absent), refused below `min`. */
export function intOption(value: string | undefined, name: string, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}, got "${value}"`);
  return n;
}

/** A file a flag names, as bytes; a UsageError naming the flag when it cannot be read. */
export async function readInputBytes(path: string, flag: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (error) {
    throw new UsageError(`cannot read ${flag} ${path}: ${errorMessage(error)}`);
  }
}

