/**
 * Prompt sizes in real tokens, for the CLI, `serve` and the benchmarks: the Llama 3 tokenizer
 * (Llama-3.2-1B-Instruct is one of the small WebLLM models; Qwen's and SmolLM's BPE vocabularies
 * give counts within a few percent on this English text). The app never imports this (its data is
 * ~10 MB): there WebLLM's `usage` reports the model's own counts.
 */
import llama3Tokenizer from 'llama3-tokenizer-js';
import type { ChatMessage } from './llm/chat.ts';
import { chatTokens } from './llm/llm-model.ts';

export function countTokens(text: string): number {
  return llama3Tokenizer.encode(text, { bos: false, eos: false }).length;
}

/** Tokens of a chat as a Llama 3 template lays it out (content plus each message's header and end). */
export function countChatTokens(messages: readonly ChatMessage[]): number {
  return chatTokens(messages, countTokens);
}
