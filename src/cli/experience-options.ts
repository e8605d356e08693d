/**
 * The options that choose an experience model, shared by `serve`, `experience eval` and
 * `train --mode dream`: the backend (`neural`, `knn`, or `http`: an LLM over an OpenAI-compatible
 * endpoint; `llm` is its older name here) and the
 * replay buffer file its retrieval reads.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { errorMessage, UsageError } from '../core/errors.ts';
import { inspectNeuralModel } from '../experience/neural/model-io.ts';
import type { Framing } from '../experience/prompt.ts';
import { countTokens } from '../experience/tokens.ts';
import type { ExperienceModel } from '../experience/types.ts';
import { EXPERIENCE_ALIASES, EXPERIENCE_BACKENDS, FRAMINGS, type ExperienceBackend } from '../jobs/experience-spec.ts';
import { createExperienceModel as createModel } from '../jobs/experience-model.ts';
import type { OfflineDataSource } from '../jobs/offline-data.ts';
import { loadStoreFile } from '../replay/file-store.ts';
import { MemoryReplayStore } from '../replay/memory-store.ts';
import { ReplayBuffer } from '../replay/retrieval.ts';
import { numberFlags, requireOption, stringFlags } from './args.ts';

export { EXPERIENCE_BACKENDS, FRAMINGS, type ExperienceBackend };

/** parseArgs option specs, spread into a command's own. */
export const EXPERIENCE_OPTIONS = {
  experience: { type: 'string' },
  endpoint: { type: 'string' },
  model: { type: 'string' },
  'api-key': { type: 'string' },
  framing: { type: 'string' },
  concurrency: { type: 'string' },
  'timeout-ms': { type: 'string' },
  k: { type: 'string' },
} as const;

export const EXPERIENCE_USAGE = '--experience <neural|knn|http> [--model FILE.dgx (neural)] [--endpoint URL --model NAME [--api-key KEY] [--framing multi-round|single] [--concurrency N] [--timeout-ms MS]] [--k 3]';

/** What parseArgs gives for those options. */
export type ExperienceValues = { [K in keyof typeof EXPERIENCE_OPTIONS]?: string | undefined };

/**
 * The backend `--experience` names, after the checks whose words say what to add or drop. Nothing
 * is loaded yet: the job's spec then checks the settings (experienceFields) and refuses those the
 * backend does not read.
 */
export function experienceBackend(values: ExperienceValues): ExperienceBackend {
  const named = values.experience !== undefined ? (EXPERIENCE_ALIASES[values.experience] ?? values.experience) : undefined;
  const backend = requireOption(named, 'experience', EXPERIENCE_BACKENDS);
  if (backend === 'neural') {
    if (values.endpoint !== undefined) throw new UsageError('--endpoint goes with --experience http, not neural');
    if (values.model === undefined) throw new UsageError('--experience neural needs --model FILE.dgx (fit one with: experience fit --env E --buffer FILE.jsonl --out FILE.dgx)');
  } else if (backend === 'knn') {
    if (values.endpoint !== undefined) throw new UsageError('--endpoint goes with --experience http, not knn');
    if (values.model !== undefined) throw new UsageError('--model goes with --experience neural (a FILE.dgx) or http (the served model\'s NAME), not knn, which reads only the buffer');
  } else {
    if (values.endpoint === undefined) throw new UsageError('--experience http needs --endpoint URL (an OpenAI-compatible server, e.g. http://127.0.0.1:8080/v1)');
    if (values.model === undefined) throw new UsageError('--experience http needs --model NAME (the model the endpoint serves)');
  }
  return backend;
}

/** The experience flags given, as spec fields (jobs/experience-spec.ts). */
export function experienceFields(values: ExperienceValues): Record<string, unknown> {
  return {
    ...numberFlags(values, { k: 'k', concurrency: 'concurrency', timeoutMs: 'timeout-ms' }),
    ...stringFlags(values, { endpoint: 'endpoint', model: 'model', apiKey: 'api-key', framing: 'framing' }),
  };
}

/** An experience model's settings as a job's spec gives them, defaults filled in. */
export interface ExperienceSettings {
  k: number;
  model?: string | undefined;
  endpoint?: string | undefined;
  apiKey?: string | undefined;
  framing?: Framing | undefined;
  concurrency?: number | undefined;
  timeoutMs?: number | undefined;
}

/**
 * The experience model the settings choose. `env` is the environment it will simulate: a neural
 * model file fitted on another one is refused.
 */
export async function createExperienceModel(backend: ExperienceBackend, settings: ExperienceSettings, env?: string): Promise<ExperienceModel> {
  if (backend === 'knn') return createModel({ kind: 'knn' });
  if (backend === 'neural') {
    const path = required(settings.model, '--model');
    const bytes = await readModelFile(path);
    // The header alone first: a model of another env is refused before its weights are loaded.
    const header = inspectNeuralModel(bytes);
    if (env !== undefined && header.env !== env) throw new UsageError(`--model ${path} simulates ${header.env}, not ${env}; fit one on ${env} transitions`);
    // Runs on the tfjs backend the command chose (useBackend) before asking for the model.
    return createModel({ kind: 'neural', bytes, env: header.env });
  }
  return createModel({
    kind: 'http',
    endpoint: required(settings.endpoint, '--endpoint'),
    model: required(settings.model, '--model'),
    apiKey: settings.apiKey,
    framing: settings.framing,
    concurrency: settings.concurrency,
    timeoutMs: settings.timeoutMs,
    countTokens,
  });
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined) throw new UsageError(`${flag} is required`);
  return value;
}

async function readModelFile(path: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (error) {
    throw new UsageError(`--model ${path} cannot be read (${errorMessage(error)}); fit one with: experience fit --env E --buffer FILE.jsonl --out ${path}`);
  }
}

/**
 * How to add `env`'s episodes to the buffer file at `path`, which exists (it was read and lacked
 * them): `buffer seed` makes only new files, so seed one beside it and import that.
 */
export function seedIntoExisting(path: string, env: string, seedFlags = '--episodes 400'): string {
  const seeded = join(dirname(path), `${env}-seed.jsonl`);
  return `buffer seed --env ${env} ${seedFlags} --out ${seeded}, then buffer import ${seeded} --out ${path}`;
}

/** A buffer file as the offline data of a dream or a fidelity measurement, with how to seed it. */
export function bufferFileSource(path: string | undefined, env: string): OfflineDataSource {
  return { name: path ?? 'the buffer', howToSeed: path === undefined ? `seed one with: buffer seed --env ${env} --episodes 400 --out FILE.jsonl` : `seed some into a new file and import them: ${seedIntoExisting(path, env)}` };
}

/**
 * A replay buffer loaded from a store file into memory. Synthetic transitions written back during a
 * run stay in memory: the file is the offline data and is never changed by a run.
 */
export async function openBufferFile(path: string | undefined, flag = '--buffer'): Promise<ReplayBuffer> {
  if (path === undefined) throw new UsageError(`${flag} FILE.jsonl is required (make one with: buffer seed --env E --episodes N --out FILE.jsonl)`);
  const found = await stat(path).catch(() => null);
  if (!found) throw new UsageError(`${flag} ${path} does not exist (make one with: buffer seed --env E --episodes N --out ${path})`);
  if (!found.isFile()) throw new UsageError(`${flag} ${path} is ${found.isDirectory() ? 'a directory' : 'not a file'}; name a buffer file (FILE.jsonl)`);
  return ReplayBuffer.open(new MemoryReplayStore({}, await loadStoreFile(path)));
}
