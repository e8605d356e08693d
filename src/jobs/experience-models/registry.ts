/**
 * The experience models by kind. Adding one means writing its entry (entry.ts says what an entry
 * holds) in a file of this folder and adding it to the list below, and nowhere else: the CLI's
 * flags and usage, the job specs (train, experience eval, serve), the app's model picker and the
 * workers' choices are all derived from this list. tfjs only through the entries' `build`.
 */
import * as v from 'valibot';
import { UsageError } from '../../core/errors.ts';
import { parseSpec } from '../spec.ts';
import type { ExperienceModelEntry, ExperienceRuntime, ExperienceSetting } from './entry.ts';
import { httpExperience } from './http.ts';
import { knnExperience } from './knn.ts';
import { neuralExperience } from './neural.ts';
import { K_SETTING } from './retrieval-k.ts';
import { webllmExperience } from './webllm.ts';

const registry: ExperienceModelEntry[] = [neuralExperience, knnExperience, httpExperience, webllmExperience];

/** Every experience model this build knows, in registration order (a live view: see registerExperienceModel). */
export const EXPERIENCE_MODELS: readonly ExperienceModelEntry[] = registry;

/**
 * Adds an experience model at run time, for an embedder or a test (the built-in ones are the list
 * above). Returns a function that takes it out again. A kind (or alias) already taken is refused.
 */
export function registerExperienceModel(entry: ExperienceModelEntry): () => void {
  const names = [entry.kind, ...(entry.aliases ?? [])];
  const taken = names.find((name) => findExperienceModel(name));
  if (taken !== undefined) throw new UsageError(`an experience model named "${taken}" is registered already`);
  if ('k' in entry.settings) throw new UsageError(`experience model "${entry.kind}": k is every model's setting; do not list it`);
  registry.push(entry);
  return () => {
    const at = registry.indexOf(entry);
    if (at >= 0) registry.splice(at, 1);
  };
}

/** The entry a name (or an older alias) stands for, if any. */
export function findExperienceModel(name: string): ExperienceModelEntry | undefined {
  return registry.find((e) => e.kind === name || (e.aliases ?? []).includes(name));
}

/** The kinds that can run in `runtime`, in registration order. */
export function experienceKinds(runtime?: ExperienceRuntime): string[] {
  return registry.filter((e) => runtime === undefined || e.runsIn.includes(runtime)).map((e) => e.kind);
}

/** The entry for `name` where it can run in `runtime`; a UsageError that lists the ones that can otherwise. */
export function experienceModel(name: string, runtime?: ExperienceRuntime, flag = '--experience'): ExperienceModelEntry {
  const entry = findExperienceModel(name);
  const usable = experienceKinds(runtime);
  if (!entry) throw new UsageError(`${flag} must be one of: ${usable.join(', ')}; got "${name}"`);
  if (runtime !== undefined && !entry.runsIn.includes(runtime)) {
    throw new UsageError(`the ${entry.kind} experience model runs ${where(entry.runsIn)}, not ${WHERE[runtime]}; use one of: ${usable.join(', ')}`);
  }
  return entry;
}

const WHERE: Record<ExperienceRuntime, string> = { node: 'under Node (the CLI)', worker: 'in a worker of the app', page: 'on the app\'s page' };
const where = (runtimes: readonly ExperienceRuntime[]): string => runtimes.map((r) => WHERE[r]).join(' or ');

/** An entry's settings with `k`, the one every model reads: field name → setting. */
export function settingsOf(entry: ExperienceModelEntry): Record<string, ExperienceSetting> {
  return { ...entry.settings, k: K_SETTING };
}

/** An entry's settings as valibot entries, to spread into a job's spec (each with its default and bounds). */
export function settingsEntries(entry: ExperienceModelEntry): Record<string, v.GenericSchema> {
  return Object.fromEntries(Object.entries(settingsOf(entry)).map(([field, setting]) => [field, setting.schema]));
}

/** The settings of `entry` alone, checked: a strict object, so a setting the model does not read is refused. */
export function settingsSpec(entry: ExperienceModelEntry) {
  return v.strictObject(settingsEntries(entry));
}

/**
 * A model's settings as an app form gives them, with the `k` the app chose, checked by its entry:
 * defaults filled in, and a refusal that names the field by its form label (the workers' check).
 */
export function checkFormSettings(entry: ExperienceModelEntry, settings: Readonly<Record<string, unknown>> | undefined, k: number): Record<string, unknown> {
  return parseSpec(settingsSpec(entry), { ...(settings ?? {}), k }, (field) => settingsOf(entry)[field]?.label ?? field);
}

/**
 * Every setting any model that runs in `runtime` reads, by field, with the kinds that read it: the
 * CLI's flags are these, and a flag given to a model that does not read it is refused by name.
 */
export function settingsByField(runtime: ExperienceRuntime): Map<string, { setting: ExperienceSetting; kinds: string[] }> {
  const fields = new Map<string, { setting: ExperienceSetting; kinds: string[] }>();
  for (const entry of registry.filter((e) => e.runsIn.includes(runtime))) {
    for (const [field, setting] of Object.entries(settingsOf(entry))) {
      const known = fields.get(field);
      if (known) known.kinds.push(entry.kind);
      else fields.set(field, { setting, kinds: [entry.kind] });
    }
  }
  return fields;
}

/** What the app's model picker shows of a model: plain, cloneable data (a worker sends it to the page). */
export interface ExperienceModelSummary {
  kind: string;
  label: string;
  help: string;
  runsIn: ExperienceRuntime[];
  settings: { field: string; label: string; help: string; input: ExperienceSetting['input'] }[];
}

/** The models the app offers (those that run in a worker or on the page), for its picker. */
export function experienceModelSummaries(): ExperienceModelSummary[] {
  return registry
    .filter((e) => e.runsIn.includes('worker') || e.runsIn.includes('page'))
    .map((e) => ({
      kind: e.kind,
      label: e.label,
      help: e.help,
      runsIn: [...e.runsIn],
      settings: Object.entries(e.settings).map(([field, s]) => ({ field, label: s.label, help: s.help, input: s.input })),
    }));
}
