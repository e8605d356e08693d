/**
 * Prompt sizes in real tokens, for the CLI, `serve` and the benchmarks: the Llama 3 tokenizer
 * (Llama-3.2-1B-Instruct is one of the small WebLLM models; other models' tokenizers give other
 * counts). The app never imports this (its bundle with the vocabulary is 3.1 MB): there WebLLM's `usage` reports the
 * model's own counts.
 */
import { createRequire } from 'node:module';
import type { ChatMessage } from './llm/chat.ts';
import { chatTokens } from './llm/llm-model.ts';
import { singleStepMessages } from './prompt.ts';
import type { ExperienceInput } from './types.ts';

interface Tokenizer {
  encode(text: string, options: { bos: boolean; eos: boolean }): number[];
}

let tokenizer: Tokenizer | undefined;

/**
 * The tokenizer, built when first asked for: its ES module decodes its whole vocabulary on import
 * (about half a second of CPU), which every CLI command paid, `envs` and `rollout` included, though
 * only the HTTP experience model, `serve` and `experience eval` count tokens. Its CommonJS build can
 * be required synchronously at that moment.
 */
function llama3(): Tokenizer {
  tokenizer ??= (createRequire(import.meta.url)('llama3-tokenizer-js/bundle/commonjs-llama3-tokenizer-with-baked-data.cjs') as { llama3Tokenizer: Tokenizer }).llama3Tokenizer;
  return tokenizer;
}

/**
 * Build the tokenizer now. A server calls this before it listens: built at its first request, it
 * would hold the server's one thread for that half second while other requests wait.
 */
export function loadTokenizer(): void {
  llama3();
}

export function countTokens(text: string): number {
  return llama3().encode(text, { bos: false, eos: false }).length;
}

/** Tokens of a chat as a Llama 3 template lays it out (content plus each message's header and end). */
export function countChatTokens(messages: readonly ChatMessage[]): number {
  return chatTokens(messages, countTokens);
}

/** Tokens per step of these steps sent self-contained (single framing): mean, 95th percentile, max. */
export function promptTokenStats(inputs: readonly ExperienceInput[]): { mean: number; p95: number; max: number } {
  const sorted = inputs.map((input) => countChatTokens(singleStepMessages(input))).sort((a, b) => a - b);
  if (sorted.length === 0) return { mean: 0, p95: 0, max: 0 };
  return {
    mean: Math.round(sorted.reduce((a, b) => a + b, 0) / sorted.length),
    p95: sorted[Math.floor(0.95 * (sorted.length - 1))] as number,
    max: sorted[sorted.length - 1] as number,
  };
}
