/** Small helpers over node:util.parseArgs so each command reads like its usage line. */
import { UsageError } from '../core/errors.ts';

export function intOption(value: string | undefined, name: string, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}, got "${value}"`);
  return n;
}

export function requireOption(value: string | undefined, name: string, choices?: readonly string[]): string {
  if (value === undefined || value === '') {
    throw new UsageError(`--${name} is required${choices ? ` (one of: ${choices.join(', ')})` : ''}`);
  }
  if (choices && !choices.includes(value)) throw new UsageError(`--${name} must be one of: ${choices.join(', ')}; got "${value}"`);
  return value;
}
