/** Small helpers over node:util.parseArgs so each command reads like its usage line. */
import { UsageError } from '../core/errors.ts';

export function intOption(value: string | undefined, name: string, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}, got "${value}"`);
  return n;
}

/** The option's value, refused when missing or (given `choices`) not one of them; typed as the choice. */
export function requireOption<T extends string>(value: string | undefined, name: string, choices: readonly T[]): T;
export function requireOption(value: string | undefined, name: string): string;
export function requireOption(value: string | undefined, name: string, choices?: readonly string[]): string {
  if (value === undefined || value === '') {
    throw new UsageError(`--${name} is required${choices ? ` (one of: ${choices.join(', ')})` : ''}`);
  }
  if (choices && !choices.includes(value)) throw new UsageError(`--${name} must be one of: ${choices.join(', ')}; got "${value}"`);
  return value;
}

export function numberOption(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max) throw new UsageError(`--${name} must be a number in [${min}, ${max}], got "${value}"`);
  return n;
}
