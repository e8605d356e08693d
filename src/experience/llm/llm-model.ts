/**
 * `LlmExperienceModel`: the reasoning experience model over one `ChatClient` (WebLLM in a worker,
 * or any OpenAI-compatible endpoint). It builds the prompt (`../prompt.ts`), asks for JSON with the
 * output schema, parses and repairs the reply (`../output.ts`), retries a bounded number of times
 * with the problem stated, and after that returns the failure state (reward 0) and counts it.
 *
 * Unusable output never throws. A transport that cannot answer at all (`ChatTransportError`:
 * endpoint down, model failed to load) does throw: training cannot go on without a model, and the
 * person must be told why.
 */
import { OUTPUT_SCHEMA_TEXT, parseOutput } from '../output.ts';
import { DEFAULT_LIMITS, assistantMessage, firstRoundMessages, nextRoundMessage, singleStepMessages, syntaxOf, type Framing, type PromptLimits } from '../prompt.ts';
import { emptyStats, failurePrediction, type ExperienceInput, type ExperienceModel, type ExperiencePrediction, type ExperienceStats, type PredictOptions } from '../types.ts';
import type { ChatClient, ChatMessage, ChatResponse } from './chat.ts';

export interface LlmModelOptions {
  client: ChatClient;
  /** Default multi-round: an episode is one chat, so a KV/prefix cache prefills only new tokens. */
  framing?: Framing;
  /** Extra attempts after an unusable reply (default 2). */
  maxRetries?: number;
  temperature?: number;
  maxTokens?: number;
  /** Send the output schema for constrained decoding (default true). */
  constrained?: boolean;
  limits?: PromptLimits;
  /**
   * A multi-round chat that would grow past this many prompt tokens starts over from the current
   * step (one full prefill), so it stays inside a small model's context window (default 3,072).
   */
  contextTokens?: number;
  /** Token counter for prompts without `usage`; default ≈ 1 token per 4 characters. */
  countTokens?: (text: string) => number;
  /** Conversations kept at once (one per live episode); the oldest is dropped past this. */
  maxConversations?: number;
}

interface Conversation {
  messages: ChatMessage[];
  /** History length the conversation has answered up to (a mismatch means start over). */
  steps: number;
  /** Tokens the model holds for it: the last prompt plus its answer. */
  tokens: number;
}

const ESTIMATE = (text: string): number => Math.ceil(text.length / 4);

export function chatTokens(messages: readonly ChatMessage[], count: (text: string) => number): number {
  // Each message costs a few template tokens (role header, end of turn) beside its content.
  return messages.reduce((sum, m) => sum + count(m.content) + 4, 1);
}

export class LlmExperienceModel implements ExperienceModel {
  readonly name: string;
  private readonly counters: ExperienceStats = emptyStats();
  private readonly conversations = new Map<string, Conversation>();
  private readonly options: Required<Omit<LlmModelOptions, 'client'>>;

  constructor(private readonly clientOptions: LlmModelOptions) {
    this.name = `llm:${clientOptions.client.name}`;
    this.options = {
      framing: clientOptions.framing ?? 'multi-round',
      maxRetries: clientOptions.maxRetries ?? 2,
      temperature: clientOptions.temperature ?? 0,
      maxTokens: clientOptions.maxTokens ?? 1024,
      constrained: clientOptions.constrained ?? true,
      limits: clientOptions.limits ?? DEFAULT_LIMITS,
      contextTokens: clientOptions.contextTokens ?? 3072,
      countTokens: clientOptions.countTokens ?? ESTIMATE,
      maxConversations: clientOptions.maxConversations ?? 256,
    };
  }
  /** The transport, shared with the curriculum's task-generation prompt. */
  get client(): ChatClient {
    return this.clientOptions.client;
  }


  stats(): ExperienceStats {
    return { ...this.counters };
  }

  endEpisode(episodeId: string): void {
    this.conversations.delete(episodeId);
  }

  async predict(batch: readonly ExperienceInput[], options: PredictOptions = {}): Promise<ExperiencePrediction[]> {
    const out: ExperiencePrediction[] = new Array(batch.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < batch.length) {
        const i = next++;
        out[i] = await this.predictOne(batch[i] as ExperienceInput, options.signal);
      }
    };
    const lanes = Math.max(1, Math.min(this.clientOptions.client.maxConcurrency, batch.length));
    await Promise.all(Array.from({ length: lanes }, worker));
    return out;
  }

  /** The request for this step, and the tokens of it that a cache already holds. */
  private openingMessages(input: ExperienceInput): { messages: ChatMessage[]; cached: number } {
    const { framing, limits, contextTokens, countTokens } = this.options;
    if (framing === 'single' || input.episodeId === undefined) return { messages: singleStepMessages(input, limits), cached: 0 };
    const conversation = this.conversations.get(input.episodeId);
    if (conversation && conversation.steps === input.history.length) {
      const messages = [...conversation.messages, nextRoundMessage(input, limits)];
      if (chatTokens(messages, countTokens) <= contextTokens) return { messages, cached: conversation.tokens };
    }
    return { messages: firstRoundMessages(input, limits), cached: 0 };
  }

  private async predictOne(input: ExperienceInput, signal: AbortSignal | undefined): Promise<ExperiencePrediction> {
    const { client } = this.clientOptions;
    const { maxRetries, temperature, maxTokens, constrained, countTokens } = this.options;
    const syntax = syntaxOf(input.task.env);
    let { messages, cached } = this.openingMessages(input);
    let problem = '';
    let reply = '';
    for (let attempt = 0; attempt <= maxRetries; attempt++) {
      if (attempt > 0) this.counters.retries++;
      const response: ChatResponse = await client.complete({
        messages,
        temperature,
        max_tokens: maxTokens,
        ...(constrained ? { response_format: { type: 'json_object', schema: OUTPUT_SCHEMA_TEXT } } : {}),
      }, signal);
      const usage = response.usage;
      // With a prefill-only count (WebLLM), the whole prompt is counted here and the cache's share is what it left out.
      const promptTokens = usage && !usage.promptIsPrefill ? usage.prompt_tokens : chatTokens(messages, countTokens);
      const prefillTokens = usage?.promptIsPrefill ? usage.prompt_tokens : Math.max(0, promptTokens - cached);
      const completionTokens = usage?.completion_tokens ?? countTokens(response.content ?? '');
      this.account(promptTokens, prefillTokens, completionTokens, response);
      const parsed = parseOutput(response.content, syntax);
      const answered = [...messages, assistantMessage(String(response.content ?? '').slice(0, 8000))];
      if (parsed.ok) {
        if (parsed.repairs.length > 0) this.counters.repaired++;
        this.counters.predictions++;
        this.remember(input, answered, promptTokens + completionTokens, parsed.prediction.done);
        return parsed.prediction;
      }
      problem = parsed.problem;
      reply = String(response.content ?? '');
      // Say what was wrong: with temperature 0 the same request would get the same reply.
      messages = [...answered, { role: 'user', content: `Your reply could not be used: ${problem}. Answer again with only the JSON object.` }];
      cached = promptTokens + completionTokens;
    }
    this.counters.predictions++;
    this.counters.invalidOutputs++;
    if (input.episodeId !== undefined) this.conversations.delete(input.episodeId);
    return failurePrediction(`the model's reply could not be used after ${maxRetries + 1} attempts: ${problem}`, reply);
  }

  private account(promptTokens: number, prefillTokens: number, completionTokens: number, response: ChatResponse): void {
    this.counters.promptTokens += promptTokens;
    this.counters.prefillTokens += prefillTokens;
    this.counters.completionTokens += completionTokens;
    const extra = response.usage?.extra;
    if (extra && Number.isFinite(extra.prefill_tokens_per_s) && Number.isFinite(extra.decode_tokens_per_s)) {
      this.counters.prefillTokensPerSecondSum += extra.prefill_tokens_per_s as number;
      this.counters.decodeTokensPerSecondSum += extra.decode_tokens_per_s as number;
      this.counters.rateReports++;
    }
  }

  private remember(input: ExperienceInput, messages: ChatMessage[], tokens: number, done: boolean): void {
    const id = input.episodeId;
    if (this.options.framing === 'single' || id === undefined) return;
    this.conversations.delete(id);
    if (done) return;
    this.conversations.set(id, { messages, steps: input.history.length + 1, tokens });
    if (this.conversations.size > this.options.maxConversations) {
      const oldest = this.conversations.keys().next().value as string;
      this.conversations.delete(oldest);
    }
  }
}

