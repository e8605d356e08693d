/**
 * How a Node caller (the CLI, the experiments) lends an experience model its file: the path a
 * setting names, read whole, with words that say how to make one. The word `pretrained` names the
 * shipped model (pretrained.ts).
 */
import { UsageError } from '../core/errors.ts';
import { DGX_MAX_BYTES } from '../experience/neural/model-file.ts';
import { FileReadError, fileProblem, readFileBounded } from '../platform/files.ts';
import { countTokens } from '../experience/tokens.ts';
import type { BuildContext, ExperienceModelEntry } from './experience-models/entry.ts';
import { nodePredictionWorkers, type NodeWorkerPlan } from './node-prediction-workers.ts';
import { pretrainedOr } from './pretrained.ts';

async function readModelFile(given: string | undefined, setting: string): Promise<Uint8Array> {
  const flag = `--${setting}`;
  if (given === undefined) throw new UsageError(`${flag} is required`);
  // `--model pretrained`: the shipped experience model (pretrained.ts says how to make one where there is none).
  const path = pretrainedOr(given, 'model');
  try {
    return await readFileBounded(path, DGX_MAX_BYTES);
  } catch (error) {
    // Advice to fit one only where there is none; a file that is there but unreadable says why.
    if ((error as { code?: unknown }).code === 'ENOENT') throw new UsageError(`${flag} ${path} does not exist; fit one with: experience fit --env E --buffer FILE.jsonl --out ${path}`);
    throw new UsageError(`${flag} ${path} cannot be read: ${error instanceof FileReadError ? error.problem : fileProblem(error)}`);
  }
}

/**
 * The build context of a model run under Node: files read from disk, prompts counted in llama-3
 * tokens, a neural model's batches predicted on worker threads too, as `workers` plans them
 * (node-prediction-workers.ts).
 */
export function nodeBuildContext(env?: string, workers: NodeWorkerPlan = {}): BuildContext {
  return { runtime: 'node', env, readFile: readModelFile, countTokens, predictionWorkers: nodePredictionWorkers(workers) };
}

/**
 * The same, with every file the model's settings name read now: a missing or unreadable model file
 * is refused before any other work (a buffer loaded, an index built).
 */
export async function nodeBuildContextFor(entry: ExperienceModelEntry, settings: Readonly<Record<string, unknown>>, env?: string, workers: NodeWorkerPlan = {}): Promise<BuildContext> {
  const files = new Map<string, Uint8Array>();
  for (const [field, setting] of Object.entries(entry.settings)) {
    const path = settings[field];
    if (setting.input === 'file' && typeof path === 'string') files.set(path, await readModelFile(path, setting.flag));
  }
  return { ...nodeBuildContext(env, workers), readFile: async (path, setting) => (path !== undefined ? files.get(path) : undefined) ?? readModelFile(path, setting) };
}
