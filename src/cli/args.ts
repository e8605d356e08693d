/** Small helpers over node:util.parseArgs so each command reads like its usage line (jobs/node-args.ts has those the experiments share). */
import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { canWriteBeside, notAFile } from '../platform/files.ts';
import { UsageError } from '../core/errors.ts';
import { excerpt } from '../core/text.ts';
import type * as v from 'valibot';
import { flagName, parseSpec, type FieldNamer } from '../jobs/spec.ts';

/**
 * node:util parseArgs, refusing a flag given twice with a value each time: parseArgs keeps the last
 * silently, so `--seed 1 … --seed 2` would run seed 2 while the person read seed 1 on the line.
 * A repeated switch (`--json --json`) says the same thing twice and passes.
 */
export function parseCommandArgs<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  const parsed = parseArgs({ ...config, tokens: true });
  const given = new Map<string, string>();
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option' || token.value === undefined) continue;
    const before = given.get(token.name);
    if (before !== undefined) {
      // A key's flag never shows its values: the message would print the secret the person meant to hide.
      const values = SECRET_FLAG.test(token.name) ? '' : ` (${quoted(before)}, then ${quoted(token.value)})`;
      throw new UsageError(`--${token.name} is given twice${values}; give it once`);
    }
    given.set(token.name, token.value);
  }
  return parsed as ReturnType<typeof parseArgs<T>>;
}

/** Flags whose values are secrets (`--api-key`, `--api-key-file` names where one is kept). */
const SECRET_FLAG = /(?:^|-)(?:key|token|secret|password)(?:-|$)/;

/** A flag's value for a message: quoted, cut where it is long (a value can be a whole file's worth), control characters escaped. */
export function quoted(value: string): string {
  return excerpt(value, 60);
}

/** The option's value, refused when missing or (given `choices`) not one of them; typed as the choice. */
export function requireOption<T extends string>(value: string | undefined, name: string, choices: readonly T[]): T;
export function requireOption(value: string | undefined, name: string): string;
export function requireOption(value: string | undefined, name: string, choices?: readonly string[]): string {
  if (value === undefined || value === '') {
    throw new UsageError(`--${name} is required${choices ? ` (one of: ${choices.join(', ')})` : ''}`);
  }
  if (choices && !choices.includes(value)) throw new UsageError(`--${name} must be one of: ${choices.join(', ')}; got ${quoted(value)}`);
  return value;
}

/**
 * Number flags as a spec's fields: `{ maxTransitions: 'max-transitions' }` reads `--max-transitions`.
 * A flag that is not a number stays a string, so the spec refuses it by name; absent flags are
 * left out, so the spec's own default applies.
 */
/** A decimal number as people type one: 12, -0.5, .25, 1e-4. */
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

/** A decimal number as typed, else NaN: Number() would also read 0x10, 0b11, 1_000 or "" (as 0). */
export function decimalNumber(text: string): number {
  return DECIMAL.test(text.trim()) ? Number(text) : Number.NaN;
}

export function numberFlags(values: Record<string, unknown>, fields: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, flag] of Object.entries(fields)) {
    const raw = values[flag];
    if (raw === undefined) continue;
    const n = typeof raw === 'string' ? decimalNumber(raw) : Number.NaN;
    // An integer past 2^53 reads as a neighbour (9007199254740993 as …992): keep the text, so a refusal quotes what was typed.
    const inexact = Number.isInteger(n) && !Number.isSafeInteger(n);
    out[field] = Number.isNaN(n) || inexact ? raw : n;
  }
  return out;
}

/** Text flags as a spec's fields, the absent ones left out: `{ apiKey: 'api-key' }` reads `--api-key`. */
export function stringFlags(values: Record<string, unknown>, fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, flag] of Object.entries(fields)) {
    const raw = values[flag];
    if (typeof raw === 'string') out[field] = raw;
  }
  return out;
}

/**
 * `parseSpec` for a command's flags: first refuses, by its flag, each field the spec does not take
 * (a flag that does not apply `where` it was given: `with --mode real`), then checks the rest.
 */
export function parseFlags<S extends v.GenericSchema & { entries: Record<string, unknown> }>(
  schema: S,
  input: Record<string, unknown>,
  name: FieldNamer,
  where: string,
): v.InferOutput<S> {
  for (const field of Object.keys(input)) {
    if (!Object.hasOwn(schema.entries, field)) throw new UsageError(`${name(field)} does not apply ${where}; drop it`);
  }
  return parseSpec(schema, input, name);
}

/** Names spec fields as flags (`maxTransitions` → `--max-transitions`), with exceptions where a flag is spelled otherwise. */
export function flagNamer(exceptions: Record<string, string> = {}): FieldNamer {
  return (field) => exceptions[field] ?? flagName(field);
}

/**
 * Refuses, before any work starts, an output path that cannot be written: a missing directory, a
 * directory, or a folder where this process cannot make a file (outputs are written beside and
 * renamed, so that is what counts; tried for real, since root passes every permission check even
 * in /proc). The file itself need not exist.
 */
export async function checkOutputPath(path: string, flag: string): Promise<void> {
  const where = `--${flag} ${path}`;
  const existing = await stat(path).catch(() => null);
  if (existing?.isDirectory()) throw new UsageError(`${where} is a directory; name a file in it`);
  const dir = dirname(path);
  const parent = await stat(dir).catch(() => null);
  if (!parent) throw new UsageError(`${where}: the directory ${dir} does not exist`);
  if (!parent.isDirectory()) throw new UsageError(`${where}: ${dir} is not a directory`);
  const problem = await canWriteBeside(path);
  if (problem !== null) throw new UsageError(`${where} cannot be written: making a file in ${dir} failed with ${problem}`);
}

/** A file a command reads or writes, by the flag that names it. */
export interface CommandFile {
  flag: string;
  path: string;
}

/** Where a path leads: the file itself where it exists (links followed), else its folder's real path and its name. */
async function identity(path: string): Promise<string> {
  const existing = await stat(path).catch(() => null);
  if (existing) return `inode:${existing.dev}:${existing.ino}`;
  const folder = await realpath(dirname(resolve(path))).catch(() => resolve(dirname(path)));
  return `path:${join(folder, basename(path))}`;
}

/** Whether two paths lead to one file (the same inode, by any link), or to one new file's place. */
export async function sameFile(a: string, b: string): Promise<boolean> {
  return (await identity(a)) === (await identity(b));
}

/**
 * Refuses, before any work starts, an output that is one of the command's inputs (`--history
 * b.jsonl` over `--buffer b.jsonl`, by any path or link to the same file) or another of its outputs:
 * a command never overwrites what it reads, nor writes two results into one file.
 */
export async function refuseOverlaps(inputs: readonly CommandFile[], outputs: readonly CommandFile[]): Promise<void> {
  const seen = new Map<string, { file: CommandFile; output: boolean }>();
  for (const file of inputs) seen.set(await identity(file.path), { file, output: false });
  for (const file of outputs) {
    const key = await identity(file.path);
    const before = seen.get(key);
    if (before) {
      throw new UsageError(before.output
        ? `${file.flag} ${file.path} and ${before.file.flag} ${before.file.path} are the same file; each result needs a file of its own`
        : `${file.flag} ${file.path} is the ${before.file.flag} file itself; writing it would overwrite what this command reads: name another file`);
    }
    seen.set(key, { file, output: true });
  }
}

/**
 * Refuses, before any work starts, an input file that cannot be read: missing, a directory, or a
 * file this process may not read. `what` names it in the message (`buffer import`, `--buffer`).
 */
export async function checkInputFile(path: string, what: string): Promise<void> {
  const existing = await stat(path).catch(() => null);
  if (!existing) throw new UsageError(`${what} ${path} does not exist`);
  if (existing.isDirectory()) throw new UsageError(`${what} ${path} is a directory; name a file in it`);
  // A FIFO or a device (/dev/zero) is never read: one hangs, the other grows until killed.
  const kind = notAFile(existing);
  if (kind !== null) throw new UsageError(`${what} ${path} ${kind}`);
  try {
    await access(path, constants.R_OK);
  } catch {
    throw new UsageError(`${what} ${path} cannot be read (no permission)`);
  }
}
