/**
 * How a Node caller (the CLI, the experiments) lends an experience model its file: the path a
 * setting names, read whole, with words that say how to make one.
 */
import { readFile } from 'node:fs/promises';
import { errorMessage, UsageError } from '../core/errors.ts';
import { countTokens } from '../experience/tokens.ts';
import type { BuildContext, ExperienceModelEntry } from './experience-models/entry.ts';

async function readModelFile(path: string | undefined, setting: string): Promise<Uint8Array> {
  const flag = `--${setting}`;
  if (path === undefined) throw new UsageError(`${flag} is required`);
  try {
    return new Uint8Array(await readFile(path));
  } catch (error) {
    throw new UsageError(`${flag} ${path} cannot be read (${errorMessage(error)}); fit one with: experience fit --env E --buffer FILE.jsonl --out ${path}`);
  }
}

/** The build context of a model run under Node: files read from disk, prompts counted in llama-3 tokens. */
export function nodeBuildContext(env?: string): BuildContext {
  return { runtime: 'node', env, readFile: readModelFile, countTokens };
}

/**
 * The same, with every file the model's settings name read now: a missing or unreadable model file
 * is refused before any other work (a buffer loaded, an index built).
 */
export async function nodeBuildContextFor(entry: ExperienceModelEntry, settings: Readonly<Record<string, unknown>>, env?: string): Promise<BuildContext> {
  const files = new Map<string, Uint8Array>();
  for (const [field, setting] of Object.entries(entry.settings)) {
    const path = settings[field];
    if (setting.input === 'file' && typeof path === 'string') files.set(path, await readModelFile(path, setting.flag));
  }
  return { ...nodeBuildContext(env), readFile: async (path, setting) => (path !== undefined ? files.get(path) : undefined) ?? readModelFile(path, setting) };
}
