/**
 * An LLM behind any OpenAI-compatible endpoint (llama.cpp, Ollama, vLLM, SGLang, a room's `serve`):
 * the paper's experience model, reached over HTTP. Unset client settings keep the client's defaults.
 */
import * as v from 'valibot';
import { apiKeySchema } from '../../experience/llm/api-key.ts';
import { OpenAiHttpClient } from '../../experience/llm/http-client.ts';
import { LlmExperienceModel } from '../../experience/llm/llm-model.ts';
import type { Framing } from '../../experience/prompt.ts';
import { integerIn, oneOf } from '../bounds-spec.ts';
import type { ExperienceModelEntry } from './entry.ts';

/** Where the CLI finds the endpoint's key when no flag gives it (kept off the command line). */
export const API_KEY_ENV = 'DREAMGYM_API_KEY';

export const FRAMINGS: readonly Framing[] = ['multi-round', 'single'];
export const DEFAULT_FRAMING: Framing = 'multi-round';
/** Requests to an LLM endpoint in flight at once, at most. */
export const MAX_CONCURRENCY = 256;
/** An LLM request's timeout at most: a day (a timer cannot wait past 2^31 − 1 ms, about 24.8 days). */
export const MAX_TIMEOUT_MS = 86_400_000;

export const httpExperience: ExperienceModelEntry = {
  kind: 'http',
  label: 'HTTP endpoint',
  help: 'any OpenAI-compatible server: llama.cpp, Ollama, vLLM, SGLang',
  aliases: ['llm'],
  runsIn: ['node', 'worker'],
  settings: {
    endpoint: {
      flag: 'endpoint',
      label: 'Endpoint',
      help: 'the server\'s OpenAI-compatible address',
      value: 'URL',
      input: 'text',
      schema: v.string(),
      requiredHint: '(an OpenAI-compatible server, e.g. http://127.0.0.1:8080/v1)',
    },
    model: { flag: 'model', label: 'Model', help: 'the model the endpoint serves', value: 'NAME', input: 'text', schema: v.string(), requiredHint: '(the model the endpoint serves)' },
    apiKey: { flag: 'api-key', label: 'API key', help: 'sent as a bearer token', value: 'KEY', input: 'secret', schema: v.optional(apiKeySchema()), env: API_KEY_ENV },
    framing: {
      flag: 'framing',
      label: 'Framing',
      help: `an episode as one multi-round chat (reuses the server's cache) or each step alone (default ${DEFAULT_FRAMING})`,
      value: FRAMINGS.join('|'),
      input: 'text',
      schema: v.optional(oneOf(FRAMINGS), DEFAULT_FRAMING),
    },
    concurrency: { flag: 'concurrency', label: 'Requests at once', help: `requests in flight at once (1–${MAX_CONCURRENCY})`, value: 'N', input: 'number', schema: v.optional(integerIn(1, MAX_CONCURRENCY)) },
    timeoutMs: { flag: 'timeout-ms', label: 'Timeout (ms)', help: 'a request\'s time to answer before it is given up', value: 'MS', input: 'number', schema: v.optional(integerIn(1, MAX_TIMEOUT_MS)) },
  },
  async build(settings, context) {
    const s = settings as { endpoint: string; model: string; apiKey?: string; framing?: Framing; concurrency?: number; timeoutMs?: number };
    const client = new OpenAiHttpClient({
      baseUrl: s.endpoint,
      model: s.model,
      ...(s.apiKey ? { apiKey: s.apiKey } : {}),
      // A person waiting on each step: one request at a time, no long retry ladder.
      ...(context.interactive ? { concurrency: 1, retries: 1 } : {}),
      ...(s.concurrency !== undefined ? { concurrency: s.concurrency } : {}),
      ...(s.timeoutMs !== undefined ? { timeoutMs: s.timeoutMs } : {}),
      ...(context.fetch ? { fetch: context.fetch } : {}),
      ...(context.headers ? { headers: context.headers } : {}),
    });
    const framing = context.interactive ? 'single' : (s.framing ?? DEFAULT_FRAMING);
    return new LlmExperienceModel({ client, framing, ...(context.countTokens ? { countTokens: context.countTokens } : {}) });
  },
};
