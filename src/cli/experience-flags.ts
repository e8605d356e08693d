/**
 * The flags that choose an experience model (`--experience KIND` and each model's settings), for
 * `train --mode dream|s2r`, `experience eval` and `serve`: all derived from the experience-model
 * registry (jobs/experience-models/), so a model added there has its flags and usage here.
 */
import { UsageError } from '../core/errors.ts';
import { excerpt } from '../core/text.ts';
import { apiKeyProblem } from '../experience/llm/api-key.ts';
import { fileProblem, FileReadError, readFileBoundedSync } from '../platform/files.ts';
import { findExperienceModel, experienceKinds, experienceModel, settingsByField, settingsOf } from '../jobs/experience-models/registry.ts';
import type { ExperienceModelEntry } from '../jobs/experience-models/entry.ts';
import { DEFAULT_K } from '../jobs/experience-models/retrieval-k.ts';
import { numberFlags, stringFlags } from './args.ts';

/** parseArgs option specs for `--experience` and every setting of a model that runs under Node, spread into a command's own. */
export function experienceOptions(): Record<string, { type: 'string' }> {
  const options: Record<string, { type: 'string' }> = { experience: { type: 'string' } };
  for (const { setting } of settingsByField('node').values()) {
    options[setting.flag] = { type: 'string' };
    if (setting.input === 'secret') options[fileFlag(setting.flag)] = { type: 'string' };
  }
  return options;
}

/** `--api-key-file FILE`: a secret's flag that names the file holding it. */
const fileFlag = (flag: string): string => `${flag}-file`;

/** A key file is a line of text; one far larger is not a key (and is not read: /dev/zero, a log). */
const MAX_SECRET_FILE_BYTES = 64 * 1024;

/** Where a secret may come from: `--FLAG VALUE`, `--FLAG-file FILE`, or (where set) an environment variable. */
export interface SecretSource {
  flag: string;
  env?: string | undefined;
  /** The bounds a key must keep (the room server's own: 8 – 512 characters). */
  bounds?: { min?: number; max?: number };
}

/**
 * A secret (an API key) from `--FLAG KEY`, else `--FLAG-file FILE` (its one trailing line break
 * dropped), else the environment variable: undefined when none gives it. The two flags together are
 * refused. Every refusal names where the key came from and what is wrong with it by its length and
 * kind, never by showing it (a key is checked here, before anything can connect with it).
 */
export function readSecret(values: ExperienceValues, source: SecretSource, environment: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  const { flag, env, bounds } = source;
  const given = values[flag];
  const file = values[fileFlag(flag)];
  if (given !== undefined && file !== undefined) throw new UsageError(`--${flag} and --${fileFlag(flag)} both give the key; give one (the file keeps it out of the process list)`);
  let key: string;
  let from: string;
  if (typeof given === 'string') {
    key = given;
    from = `--${flag}`;
  } else if (typeof file === 'string') {
    key = readSecretFile(file, fileFlag(flag));
    from = `--${fileFlag(flag)} ${file}: the key`;
  } else if (env !== undefined && environment[env] !== undefined && environment[env] !== '') {
    key = environment[env] as string;
    from = `the environment variable ${env}`;
  } else {
    return undefined;
  }
  const problem = apiKeyProblem(key, bounds);
  if (problem !== null) throw new UsageError(`${from} ${problem}`);
  return key;
}

/** The key a file holds: its text, one trailing line break dropped (an editor adds one); an empty file is refused. */
function readSecretFile(path: string, flag: string): string {
  let bytes: Uint8Array;
  try {
    bytes = readFileBoundedSync(path, MAX_SECRET_FILE_BYTES);
  } catch (error) {
    if (error instanceof FileReadError) throw new UsageError(`--${flag} ${error.message}; name the file that holds the key`, { cause: error });
    throw new UsageError(`--${flag} ${path}: ${fileProblem(error)}`, { cause: error });
  }
  const text = new TextDecoder().decode(bytes);
  const key = text.endsWith('\r\n') ? text.slice(0, -2) : text.endsWith('\n') ? text.slice(0, -1) : text;
  if (key === '') throw new UsageError(`--${flag} ${path} is empty; write the key in it`);
  return key;
}

/** Each experience setting's flag by its spec field, for a command's flagNamer (a setting's flag need not be its field's name). */
export function experienceFlagNames(): Record<string, string> {
  return Object.fromEntries([...settingsByField('node')].map(([field, { setting }]) => [field, `--${setting.flag}`]));
}

/** The flags experienceOptions names (without dashes). */
export const experienceFlags = (): string[] => Object.keys(experienceOptions());

/** What parseArgs gives for those options. */
export type ExperienceValues = Readonly<Record<string, unknown>>;

/** `--experience <neural|knn|http> [--model FILE.dgx (neural)] [--endpoint URL --model NAME … (http)] [--k 3]`, from the registry. */
export function experienceUsage(kinds: readonly string[] = experienceKinds('node')): string {
  const entries = kinds.map((kind) => experienceModel(kind));
  const own = entries
    .filter((e) => Object.keys(e.settings).length > 0)
    .map((e) => {
      const parts = Object.values(e.settings).map((s) =>
        s.requiredHint !== undefined
          ? `--${s.flag} ${s.value}`
          : s.input === 'secret'
            ? `[--${s.flag} ${s.value} | --${fileFlag(s.flag)} FILE${s.env ? ` (else $${s.env})` : ''}]`
            : `[--${s.flag} ${s.value}]`,
      );
      return `[${parts.join(' ')} (${e.kind})]`;
    });
  return `--experience <${kinds.join('|')}> ${own.join(' ')} [--k ${DEFAULT_K}]`;
}

/**
 * The model `--experience` names, after the checks whose words say what to add or drop. Nothing is
 * loaded yet: the job's spec then checks the settings (experienceFields) and refuses those the
 * model does not read. `kinds` narrows the choice (serve answers with some only).
 */
export function experienceEntry(values: ExperienceValues, kinds: readonly string[] = experienceKinds('node')): ExperienceModelEntry {
  const named = typeof values.experience === 'string' ? findExperienceModel(values.experience)?.kind ?? values.experience : undefined;
  if (named === undefined || named === '') throw new UsageError(`--experience is required (one of: ${kinds.join(', ')})`);
  if (!kinds.includes(named)) throw new UsageError(`--experience must be one of: ${kinds.join(', ')}; got ${excerpt(named)}`);
  const entry = experienceModel(named, 'node');
  const own = settingsOf(entry);
  // A flag that names what another model needs (--endpoint, --model) says which model reads it; any
  // other the spec refuses ("does not apply with --experience knn").
  for (const [field, { setting, kinds: readers }] of settingsByField('node')) {
    // A key file given to a model that sends no key: named as given, not as the key's own flag.
    if (!(field in own) && setting.input === 'secret' && values[fileFlag(setting.flag)] !== undefined) {
      throw new UsageError(`--${fileFlag(setting.flag)} goes with --experience ${readers.filter((k) => kinds.includes(k)).join(' or ')}, not ${entry.kind}; drop it`);
    }
    if (field in own || values[setting.flag] === undefined || setting.requiredHint === undefined) continue;
    throw new UsageError(`--${setting.flag} goes with --experience ${readers.filter((k) => kinds.includes(k)).map((k) => describeReader(k, field)).join(' or ')}, not ${entry.kind}${entry.kind === 'knn' ? ', which reads only the buffer' : ''}`);
  }
  for (const setting of Object.values(entry.settings)) {
    if (setting.requiredHint !== undefined && values[setting.flag] === undefined) {
      throw new UsageError(`--experience ${entry.kind} needs --${setting.flag} ${setting.value} ${setting.requiredHint}`);
    }
  }
  return entry;
}

/** `neural (a FILE.dgx)` where two models read one flag differently; the bare kind otherwise. */
function describeReader(kind: string, field: string): string {
  const readers = [...settingsByField('node').get(field)?.kinds ?? []];
  const setting = experienceModel(kind).settings[field];
  return readers.length > 1 && setting ? `${kind} (${setting.value === 'NAME' ? "the served model's NAME" : `a ${setting.value}`})` : kind;
}

/**
 * The experience flags given, as spec fields (numbers read as numbers, so the spec refuses a bad one
 * by name). A secret comes from its flag, its file or its environment variable (readSecret); the
 * variable only for the model `--experience` names, when that model reads it.
 */
export function experienceFields(values: ExperienceValues, environment: Readonly<Record<string, string | undefined>> = process.env): Record<string, unknown> {
  const numbers: Record<string, string> = {};
  const strings: Record<string, string> = {};
  const secrets: Record<string, unknown> = {};
  const chosen = typeof values.experience === 'string' ? findExperienceModel(values.experience) : undefined;
  for (const [field, { setting }] of settingsByField('node')) {
    if (setting.input === 'secret') {
      const reads = chosen !== undefined && field in chosen.settings;
      const secret = readSecret(values, { flag: setting.flag, env: reads ? setting.env : undefined }, environment);
      if (secret !== undefined) secrets[field] = secret;
    } else (setting.input === 'number' ? numbers : strings)[field] = setting.flag;
  }
  return { ...numberFlags(values as Record<string, unknown>, numbers), ...stringFlags(values as Record<string, unknown>, strings), ...secrets };
}

/** The experience settings of a checked spec: the entry's own fields and `k`, nothing of the job's. */
export function experienceSettings(entry: ExperienceModelEntry, spec: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(settingsOf(entry)).filter((field) => spec[field] !== undefined).map((field) => [field, spec[field]]));
}
