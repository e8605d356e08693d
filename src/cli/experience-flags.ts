/**
 * The flags that choose an experience model (`--experience KIND` and each model's settings), for
 * `train --mode dream|s2r`, `experience eval` and `serve`: all derived from the experience-model
 * registry (jobs/experience-models/), so a model added there has its flags and usage here.
 */
import { UsageError } from '../core/errors.ts';
import { findExperienceModel, experienceKinds, experienceModel, settingsByField, settingsOf } from '../jobs/experience-models/registry.ts';
import type { ExperienceModelEntry } from '../jobs/experience-models/entry.ts';
import { DEFAULT_K } from '../jobs/experience-models/retrieval-k.ts';
import { numberFlags, stringFlags } from './args.ts';

/** parseArgs option specs for `--experience` and every setting of a model that runs under Node, spread into a command's own. */
export function experienceOptions(): Record<string, { type: 'string' }> {
  const options: Record<string, { type: 'string' }> = { experience: { type: 'string' } };
  for (const { setting } of settingsByField('node').values()) options[setting.flag] = { type: 'string' };
  return options;
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
      const parts = Object.values(e.settings).map((s) => (s.requiredHint !== undefined ? `--${s.flag} ${s.value}` : `[--${s.flag} ${s.value}]`));
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
  if (!kinds.includes(named)) throw new UsageError(`--experience must be one of: ${kinds.join(', ')}; got "${named}"`);
  const entry = experienceModel(named, 'node');
  const own = settingsOf(entry);
  // A flag that names what another model needs (--endpoint, --model) says which model reads it; any
  // other the spec refuses ("does not apply with --experience knn").
  for (const [field, { setting, kinds: readers }] of settingsByField('node')) {
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

/** The experience flags given, as spec fields (numbers read as numbers, so the spec refuses a bad one by name). */
export function experienceFields(values: ExperienceValues): Record<string, unknown> {
  const numbers: Record<string, string> = {};
  const strings: Record<string, string> = {};
  for (const [field, { setting }] of settingsByField('node')) (setting.input === 'number' ? numbers : strings)[field] = setting.flag;
  return { ...numberFlags(values as Record<string, unknown>, numbers), ...stringFlags(values as Record<string, unknown>, strings) };
}

/** The experience settings of a checked spec: the entry's own fields and `k`, nothing of the job's. */
export function experienceSettings(entry: ExperienceModelEntry, spec: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(settingsOf(entry)).filter((field) => spec[field] !== undefined).map((field) => [field, spec[field]]));
}
