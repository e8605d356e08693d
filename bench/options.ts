/**
 * A bench's own options, parsed strictly: an option the bench does not take (a typo, `--help`) is
 * refused and bench/run.ts answers with the usage, instead of being ignored while a long bench runs
 * on its defaults. A number option's value must be a number.
 */
import { parseArgs } from 'node:util';
import { UsageError } from '../src/core/errors.ts';

type Values<T> = { [K in keyof T]: T[K] extends number ? number : string };

export function benchOptions<const T extends Record<string, string | number>>(args: string[], defaults: T): Values<T> {
  const options = Object.fromEntries(Object.entries(defaults).map(([name, value]) => [name, { type: 'string' as const, default: String(value) }]));
  const { values } = parseArgs({ args, options, strict: true, allowPositionals: false });
  const parsed: Record<string, string | number> = {};
  for (const [name, fallback] of Object.entries(defaults)) {
    const text = String(values[name]);
    if (typeof fallback === 'number') {
      const value = Number(text);
      if (text.trim() === '' || !Number.isFinite(value)) throw new UsageError(`--${name} must be a number, got "${text}"`);
      parsed[name] = value;
    } else parsed[name] = text;
  }
  return parsed as Values<T>;
}
