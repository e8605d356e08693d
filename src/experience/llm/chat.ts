/**
 * One chat client shape for every LLM transport: the OpenAI chat-completions request and response,
 * reduced to what the experience model uses. WebLLM's engine and any OpenAI-compatible server
 * (llama.cpp, Ollama, vLLM, SGLang, this project's own `serve`) sit behind it.
 */
import { DreamGymError } from '../../core/errors.ts';

/**
 * The header a page sends to a room server (`serve`) to say which participant it is (a random id
 * per tab), so the host counts browsers behind one address (a classroom's NAT) apart and gives each
 * its own rate limit. Sent only to a room joined from its link: other servers' CORS may not allow it.
 */
export const ROOM_CLIENT_HEADER = 'x-dreamgym-client';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  messages: ChatMessage[];
  temperature?: number;
  max_tokens?: number;
  seed?: number;
  /** Constrained decoding: WebLLM takes `{type: 'json_object', schema: JSON.stringify(s)}`. */
  response_format?: { type: 'json_object'; schema?: string };
}

export interface ChatUsage {
  /**
   * The prompt's tokens as the backend counts them. WebLLM counts only what it prefilled (the
   * part of a conversation already in its KV cache is left out), so it sets `promptIsPrefill`.
   */
  prompt_tokens: number;
  completion_tokens: number;
  promptIsPrefill?: boolean;
  /** WebLLM reports its speeds here (`usage.extra`); HTTP servers usually do not. */
  extra?: { prefill_tokens_per_s?: number; decode_tokens_per_s?: number };
}

export interface ChatResponse {
  content: string;
  usage?: ChatUsage;
  finishReason?: string;
}

export interface ChatClient {
  /** `webllm/<model id>` or `http/<model>@<host>`: shown to the user and recorded in results. */
  readonly name: string;
  /** Requests the transport serves at once; WebLLM serves one at a time. */
  readonly maxConcurrency: number;
  complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse>;
}

export type ChatFailureKind =
  | 'timeout'
  | 'refused'
  | 'cors'
  | 'http'
  | 'rate-limited'
  | 'bad-body'
  | 'aborted'
  | 'no-webgpu'
  | 'model-load'
  | 'worker-crashed';

/**
 * The transport could not get an answer at all (as opposed to an answer that is not usable, which
 * the experience model turns into the failure state). The message says what to do about it.
 */
export class ChatTransportError extends DreamGymError {
  constructor(
    readonly kind: ChatFailureKind,
    message: string,
    options?: { cause?: unknown; status?: number },
  ) {
    super(`chat-${kind}`, message, options);
    this.status = options?.status;
  }
  readonly status: number | undefined;
}
