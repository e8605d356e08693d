/**
 * Answering the prompt protocol with any `ExperienceModel`: read the step back from the chat,
 * retrieve its examples, predict, and reply with the protocol's JSON. `serve` puts this behind an
 * OpenAI-compatible endpoint; the experience bench drives it in-process.
 */
import { errorMessage, UsageError } from '../core/errors.ts';
import type { Task } from '../core/types.ts';
import type { ReplayBuffer } from '../replay/retrieval.ts';
import type { ChatRequest } from './llm/chat.ts';
import type { ChatAnswer } from './llm/chat-server.ts';
import { renderAnswer } from './output.ts';
import { readPrompt } from './prompt-reader.ts';
import { countChatTokens, countTokens } from './tokens.ts';
import type { ExperienceModel } from './types.ts';

export function protocolAnswerer(model: ExperienceModel, buffer: ReplayBuffer, k: number): (request: ChatRequest) => Promise<ChatAnswer> {
  return async (request) => {
    let step: ReturnType<typeof readPrompt>;
    try {
      step = readPrompt(request.messages);
    } catch (error) {
      // Whatever the prompt's fault, it is the client's (a 400 it should not retry), not the server's.
      throw error instanceof UsageError ? error : new UsageError(`the prompt could not be read: ${errorMessage(error)}`, { cause: error });
    }
    const [examples = []] = await buffer.nearest([{ instruction: step.instruction, state: step.state, action: step.action }], k, { env: step.env, source: 'real' });
    const task: Task = { id: 'served', env: step.env, instruction: step.instruction, difficulty: 0, origin: 'seed' };
    const [prediction] = await model.predict([{ task, history: step.history.map((action) => ({ state: step.state, action })), state: step.state, action: step.action, examples }]);
    if (!prediction) throw new Error('the model returned no prediction');
    const content = renderAnswer(prediction);
    return { content, usage: { prompt_tokens: countChatTokens(request.messages), completion_tokens: countTokens(content) } };
  };
}
