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
import type { Task } from '../core/types.ts';
import type { ReplayBuffer } from '../replay/retrieval.ts';
import type { ChatRequest } from './llm/chat.ts';
import type { ChatAnswer } from './llm/chat-server.ts';
import { renderAnswer } from './output.ts';
import { readPrompt, type ReadStep } from './prompt-reader.ts';
import { countChatTokens, countTokens } from './tokens.ts';
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

const afterIo: (callback: () => void) => void = typeof setImmediate === 'function' ? (callback) => void setImmediate(callback) : (callback) => void setTimeout(callback, 0);

export function protocolAnswerer(model: ExperienceModel, buffer: ReplayBuffer, k: number, options: AnswererOptions = {}): (request: ChatRequest) => Promise<ChatAnswer> {
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
    let step: ReadStep;
    try {
      step = readPrompt(request.messages);
    } catch (error) {
      // Whatever the prompt's fault, it is the client's (a 400 it should not retry), not the server's.
      throw error instanceof UsageError ? error : new UsageError(`the prompt could not be read: ${errorMessage(error)}`, { cause: error });
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
    return { content, usage: { prompt_tokens: countChatTokens(request.messages), completion_tokens: countTokens(content) } };
  };
}
