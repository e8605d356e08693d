/**
 * Answering the prompt protocol with any `ExperienceModel`: read the step back from the chat,
 * retrieve its examples, predict, and reply with the protocol's JSON. `serve` puts this behind an
 * OpenAI-compatible endpoint; the experience bench drives it in-process.
 *
 * Requests that arrive together (a room of browsers stepping at once) are answered together: one
 * retrieval and one `predict` for all of them, as a synthetic world batches its lanes, so the
 * neural model runs one batch instead of fifty.
 */
import { errorMessage, UsageError } from '../core/errors.ts';
import { boundedText } from '../core/text.ts';
import type { Task } from '../core/types.ts';
import type { ReplayBuffer } from '../replay/retrieval.ts';
import type { ChatRequest } from './llm/chat.ts';
import type { ChatAnswer } from './llm/chat-server.ts';
import { renderAnswer } from './output.ts';
import { readPrompt, type ReadStep } from './prompt-reader.ts';
import { chatTokens } from './llm/llm-model.ts';
import { countTokens, loadTokenizer } from './tokens.ts';
import type { ExperienceModel, ExperiencePrediction } from './types.ts';

export interface AnswererOptions {
  /** The environment the model was made for (a neural model's); a step of another is refused. */
  env?: string;
  /** Answer the requests that arrive together in one batch (default true; false: one predict per request, to measure what batching buys). */
  batch?: boolean;
}

interface Pending {
  step: ReadStep;
  resolve: (prediction: ExperiencePrediction) => void;
  reject: (error: unknown) => void;
}

/**
 * The most of a prompt the answerer reads: its characters and its lines, all messages together. A
 * step of the protocol is a few thousand characters, and a long multi-round episode some tens of
 * thousands; reading a prompt costs per line and per character, on the server's one thread, so a
 * 4 MB body of line breaks took 2 s to read while every other client waited.
 */
export const MAX_PROMPT_CHARS = 262_144;
export const MAX_PROMPT_LINES = 20_000;

/** Why the messages are past what the answerer reads, or null; counts only up to the bound. */
export function promptSizeProblem(messages: readonly { content: string }[]): string | null {
  let chars = 0;
  let lines = 0;
  for (const { content } of messages) {
    chars += content.length;
    if (chars > MAX_PROMPT_CHARS) return `the prompt is over ${MAX_PROMPT_CHARS.toLocaleString('en-US')} characters; a step of the protocol is a few thousand: send the episode's recent rounds`;
    for (let at = content.indexOf('\n'); at >= 0; at = content.indexOf('\n', at + 1)) {
      if (++lines > MAX_PROMPT_LINES) return `the prompt is over ${MAX_PROMPT_LINES.toLocaleString('en-US')} lines; a step of the protocol is a few dozen: send the episode's recent rounds`;
    }
  }
  return null;
}

/**
 * Characters of one reply's prompt and answer that the tokenizer counts; past them, and for text
 * with a word longer than LONG_WORD, the reply's usage is an estimate (a token per 4 characters).
 * The tokenizer runs on the server's one thread and costs per token and, within a word, with the
 * square of its length: a 10,000-letter word took half a second, a 250,000-character prompt one.
 */
const TOKENIZED_CHARS = 8_192;
const LONG_WORD = /[\p{L}\p{N}]{65}/u;

/** A token counter for one reply's usage: the tokenizer's count within TOKENIZED_CHARS, the estimate past them. */
function usageCounter(): (text: string) => number {
  let left = TOKENIZED_CHARS;
  return (text) => {
    if (text.length > left || LONG_WORD.test(text)) return Math.ceil(text.length / 4);
    left -= text.length;
    return countTokens(text);
  };
}

const afterIo: (callback: () => void) => void = typeof setImmediate === 'function' ? (callback) => void setImmediate(callback) : (callback) => void setTimeout(callback, 0);

export function protocolAnswerer(model: ExperienceModel, buffer: ReplayBuffer, k: number, options: AnswererOptions = {}): (request: ChatRequest) => Promise<ChatAnswer> {
  // The usage counts need the tokenizer: built here, before the server listens, not in a request.
  loadTokenizer();
  let queue: Pending[] = [];

  async function flush(): Promise<void> {
    const batch = queue;
    queue = [];
    try {
      const found = await Promise.all(
        // Retrieval filters by env, so a batch mixing environments is asked one env at a time.
        [...new Set(batch.map((p) => p.step.env))].map(async (env) => {
          const members = batch.filter((p) => p.step.env === env);
          const hits = await buffer.nearest(members.map(({ step }) => ({ instruction: step.instruction, state: step.state, action: step.action })), k, { env, source: 'real' });
          return members.map((p, i) => [p, hits[i] ?? []] as const);
        }),
      );
      const inputs = found.flat().map(([p, examples]) => {
        const task: Task = { id: 'served', env: p.step.env, instruction: p.step.instruction, difficulty: 0, origin: 'seed' };
        return { pending: p, input: { task, history: p.step.steps, state: p.step.state, action: p.step.action, examples } };
      });
      const predictions = await model.predict(inputs.map((x) => x.input));
      inputs.forEach(({ pending }, i) => {
        const prediction = predictions[i];
        if (prediction) pending.resolve(prediction);
        else pending.reject(new Error('the model returned fewer predictions than asked'));
      });
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  }

  return async (request) => {
    const tooLarge = promptSizeProblem(request.messages);
    if (tooLarge !== null) throw new UsageError(tooLarge);
    let step: ReadStep;
    try {
      step = readPrompt(request.messages);
    } catch (error) {
      // Whatever the prompt's fault, it is the client's (a 400 it should not retry), not the server's;
      // its words may quote the prompt, so a bounded part of them is what the client reads.
      const said = boundedText(errorMessage(error));
      throw new UsageError(error instanceof UsageError ? said : `the prompt could not be read: ${said}`, { cause: error });
    }
    if (options.env !== undefined && step.env !== options.env) {
      throw new UsageError(`this ${model.name} model was made for ${options.env}, and the prompt is a step of ${step.env}; ask the server's knn model, or serve a model of ${step.env}`);
    }
    const prediction = await new Promise<ExperiencePrediction>((resolve, reject) => {
      queue.push({ step, resolve, reject });
      // After the event loop's I/O callbacks, not in a microtask: requests whose bodies land in the
      // same turn are parsed in separate callbacks, and all of them join the batch (setImmediate
      // runs right after them, without setTimeout's minimum delay).
      if (options.batch === false) void flush();
      else if (queue.length === 1) afterIo(() => void flush());
    });
    // As a synthetic world ends it (synthetic-env.ts endDeadEnd): a state that goes on with no
    // admissible action is a dead end, and a client's parser would refuse it as unusable.
    const answered = prediction.valid && !prediction.done && prediction.next.actions.length === 0 ? { ...prediction, done: true } : prediction;
    const content = renderAnswer(answered);
    const count = usageCounter();
    const completionTokens = count(content);
    return { content, usage: { prompt_tokens: chatTokens(request.messages, count), completion_tokens: completionTokens } };
  };
}
