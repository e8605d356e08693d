/**
 * The options that choose an experience model, shared by `serve`, `experience eval` and
 * `train --mode dream`: the backend (`knn` or `llm` over an OpenAI-compatible endpoint) and the
 * replay buffer file its retrieval reads.
 */
import { access, readFile } from 'node:fs/promises';
import { errorMessage, UsageError } from '../core/errors.ts';
import type { ChatClient } from '../experience/llm/chat.ts';
import { OpenAiHttpClient } from '../experience/llm/http-client.ts';
import { LlmExperienceModel } from '../experience/llm/llm-model.ts';
import { KnnExperienceModel } from '../experience/knn.ts';
import { importNeuralModel } from '../experience/neural/model-io.ts';
import type { Framing } from '../experience/prompt.ts';
import { countTokens } from '../experience/tokens.ts';
import type { ExperienceModel } from '../experience/types.ts';
import { loadStoreFile } from '../replay/file-store.ts';
import { MemoryReplayStore } from '../replay/memory-store.ts';
import { DEFAULT_K, ReplayBuffer } from '../replay/retrieval.ts';
import { intOption, requireOption } from './args.ts';

export const EXPERIENCE_BACKENDS = ['neural', 'knn', 'llm'] as const;
export type ExperienceBackend = (typeof EXPERIENCE_BACKENDS)[number];
export const FRAMINGS: readonly Framing[] = ['multi-round', 'single'];

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

export const EXPERIENCE_USAGE = '--experience <neural|knn|llm> [--model FILE.dgx (neural)] [--endpoint URL --model NAME [--api-key KEY] [--framing multi-round|single] [--concurrency N] [--timeout-ms MS]] [--k 3]';

/** What parseArgs gives for those options. */
export type ExperienceValues = { [K in keyof typeof EXPERIENCE_OPTIONS]?: string | undefined };

export function experienceK(values: ExperienceValues): number {
  return intOption(values.k, 'k', DEFAULT_K, 0);
}

/**
 * The experience model the options choose. `env` is the environment it will simulate: a neural
 * model file fitted on another one is refused.
 */
export async function createExperienceModel(values: ExperienceValues, env?: string): Promise<ExperienceModel> {
  const backend = requireOption(values.experience, 'experience', EXPERIENCE_BACKENDS);
  if (backend === 'neural') {
    if (values.endpoint !== undefined) throw new UsageError('--endpoint goes with --experience llm, not neural');
    if (values.model === undefined) throw new UsageError('--experience neural needs --model FILE.dgx (fit one with: experience fit --env E --buffer FILE.jsonl --out FILE.dgx)');
    return loadNeuralModel(values.model, env);
  }
  if (backend === 'knn') {
    if (values.endpoint !== undefined || values.model !== undefined) throw new UsageError('--endpoint and --model go with --experience llm, not knn');
    return new KnnExperienceModel();
  }
  if (values.endpoint === undefined) throw new UsageError('--experience llm needs --endpoint URL (an OpenAI-compatible server, e.g. http://127.0.0.1:8080/v1)');
  if (values.model === undefined) throw new UsageError('--experience llm needs --model NAME (the model the endpoint serves)');
  const framing = values.framing === undefined ? 'multi-round' : requireOption(values.framing, 'framing', FRAMINGS);
  const client: ChatClient = new OpenAiHttpClient({
    baseUrl: values.endpoint,
    model: values.model,
    ...(values['api-key'] !== undefined ? { apiKey: values['api-key'] } : {}),
    concurrency: intOption(values.concurrency, 'concurrency', 4, 1),
    timeoutMs: intOption(values['timeout-ms'], 'timeout-ms', 60_000, 1),
  });
  return new LlmExperienceModel({ client, framing, countTokens });
}

async function loadNeuralModel(path: string, env: string | undefined): Promise<ExperienceModel> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (error) {
    throw new UsageError(`--model ${path} cannot be read (${errorMessage(error)}); fit one with: experience fit --env E --buffer FILE.jsonl --out ${path}`);
  }
  // Runs on the tfjs backend the command chose (useBackend) before asking for the model.
  const { model, header } = importNeuralModel(bytes);
  if (env !== undefined && header.env !== env) {
    model.dispose();
    throw new UsageError(`--model ${path} simulates ${header.env}, not ${env}; fit one on ${env} transitions`);
  }
  return model;
}

/**
 * A replay buffer loaded from a store file into memory. Synthetic transitions written back during a
 * run stay in memory: the file is the offline data and is never changed by a run.
 */
export async function openBufferFile(path: string | undefined, flag = '--buffer'): Promise<ReplayBuffer> {
  if (path === undefined) throw new UsageError(`${flag} FILE.jsonl is required (make one with: buffer seed --env E --episodes N --out FILE.jsonl)`);
  try {
    await access(path);
  } catch {
    throw new UsageError(`${flag} ${path} does not exist (make one with: buffer seed --env E --episodes N --out ${path})`);
  }
  return ReplayBuffer.open(new MemoryReplayStore({}, await loadStoreFile(path)));
}
