/**
 * One way to make an experience model from a choice, for the CLI (`--experience`), the Experience
 * view's worker and anything else that dreams: the kinds and their names are EXPERIENCE_KINDS.
 * WebLLM is the one kind made elsewhere: its engine must live on the page (app/experience/webllm.ts).
 */
import { UsageError } from '../core/errors.ts';
import { OpenAiHttpClient } from '../experience/llm/http-client.ts';
import { LlmExperienceModel } from '../experience/llm/llm-model.ts';
import { KnnExperienceModel } from '../experience/knn.ts';
import { importNeuralModelFor } from '../experience/neural/model-io.ts';
import type { Framing } from '../experience/prompt.ts';
import type { ExperienceModel } from '../experience/types.ts';
import { DEFAULT_FRAMING } from './experience-spec.ts';

export type ExperienceModelChoice =
  /** A fitted `.dgx` file for `env` (refused if fitted for another). */
  | { kind: 'neural'; bytes: Uint8Array; env: string }
  | { kind: 'knn' }
  /** An LLM behind an OpenAI-compatible endpoint; unset client settings keep the client's defaults. */
  | {
      kind: 'http';
      endpoint: string;
      model: string;
      apiKey?: string | undefined;
      framing?: Framing | undefined;
      concurrency?: number | undefined;
      timeoutMs?: number | undefined;
      retries?: number | undefined;
      fetch?: typeof fetch | undefined;
      /** Sent with every request (a room's participant id). */
      headers?: Readonly<Record<string, string>> | undefined;
      countTokens?: ((text: string) => number) | undefined;
    };

/** Needs the tfjs backend started first for a neural model (its tensors stay on it). */
export function createExperienceModel(choice: ExperienceModelChoice): ExperienceModel {
  switch (choice.kind) {
    case 'neural':
      return importNeuralModelFor(choice.bytes, choice.env).model;
    case 'knn':
      return new KnnExperienceModel();
    case 'http': {
      const client = new OpenAiHttpClient({
        baseUrl: choice.endpoint,
        model: choice.model,
        ...(choice.apiKey ? { apiKey: choice.apiKey } : {}),
        ...(choice.concurrency !== undefined ? { concurrency: choice.concurrency } : {}),
        ...(choice.timeoutMs !== undefined ? { timeoutMs: choice.timeoutMs } : {}),
        ...(choice.retries !== undefined ? { retries: choice.retries } : {}),
        ...(choice.fetch ? { fetch: choice.fetch } : {}),
        ...(choice.headers ? { headers: choice.headers } : {}),
      });
      return new LlmExperienceModel({ client, framing: choice.framing ?? DEFAULT_FRAMING, ...(choice.countTokens ? { countTokens: choice.countTokens } : {}) });
    }
    default:
      throw new UsageError(`unknown experience model ${JSON.stringify((choice as { kind?: unknown }).kind)}`);
  }
}
