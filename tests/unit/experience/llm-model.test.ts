import { describe, expect, it } from 'vitest';
import type { Observation, Task } from '../../../src/core/types.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import type { ChatClient, ChatRequest, ChatResponse } from '../../../src/experience/llm/chat.ts';
import { ChatTransportError } from '../../../src/experience/llm/chat.ts';
import { LlmExperienceModel } from '../../../src/experience/llm/llm-model.ts';
import { renderAnswer } from '../../../src/experience/output.ts';
import { readPrompt } from '../../../src/experience/prompt-reader.ts';

/** Answers with what the real shop does: a perfect model, so only the framing is under test. */
class RealShopClient implements ChatClient {
  readonly name = 'real-shop';
  readonly maxConcurrency = 1;
  readonly requests: ChatRequest[] = [];
  async complete(request: ChatRequest): Promise<ChatResponse> {
    this.requests.push(request);
    const step = readPrompt(request.messages);
    const spec = envSpec('shop');
    const env = spec.createEnv();
    const task = spec.tasks('test').find((t) => t.instruction === step.instruction) as Task;
    await env.reset(task);
    for (const action of step.history) await env.step(action);
    const result = await env.step(step.action);
    const content = renderAnswer({ reasoning: 'as the shop does', next: result.observation, reward: result.reward, done: result.done });
    const promptTokens = request.messages.reduce((a, m) => a + Math.ceil(m.content.length / 4) + 4, 1);
    return { content, usage: { prompt_tokens: promptTokens, completion_tokens: Math.ceil(content.length / 4), extra: { prefill_tokens_per_s: 500, decode_tokens_per_s: 40 } } };
  }
}

async function playEpisode(model: LlmExperienceModel, actions: (obs: Observation) => string, steps: number): Promise<Observation[]> {
  const spec = envSpec('shop');
  const task = spec.tasks('test')[4] as Task;
  let state = await spec.createEnv().reset(task);
  const history: { state: Observation; action: string }[] = [];
  const seen = [state];
  for (let i = 0; i < steps; i++) {
    const action = actions(state);
    const [p] = await model.predict([{ task, history: [...history], state, action, examples: [], episodeId: 'e1' }]);
    history.push({ state, action });
    state = (p as { next: Observation }).next;
    seen.push(state);
  }
  return seen;
}

const pick = (obs: Observation): string => (obs.actions[0] === 'search[...]' ? 'search[travel mug]' : (obs.actions.find((a) => /click\[b0/.test(a)) ?? (obs.actions[2] as string)));

describe('the LLM experience model', () => {
  it('frames an episode as one multi-round chat: each request extends the last, and only new tokens are prefilled', async () => {
    const client = new RealShopClient();
    const model = new LlmExperienceModel({ client, framing: 'multi-round', contextTokens: 100_000 });
    const states = await playEpisode(model, pick, 3);
    expect(states[1]?.text).toContain('page: results');
    expect(client.requests).toHaveLength(3);
    for (let i = 1; i < 3; i++) {
      const previous = client.requests[i - 1]?.messages as ChatRequest['messages'];
      const current = client.requests[i]?.messages as ChatRequest['messages'];
      expect(current.slice(0, previous.length)).toEqual(previous);
      expect(current[previous.length]?.role).toBe('assistant');
      expect(current.at(-1)?.content).not.toContain('## Current state');
    }
    const stats = model.stats();
    expect(stats.prefillTokens).toBeLessThan(stats.promptTokens);
    expect(stats.rateReports).toBe(3);
    expect(stats.decodeTokensPerSecondSum / stats.rateReports).toBe(40);
  });

  it('a multi-round chat tells a server the state each earlier step was taken in (readPrompt steps)', async () => {
    const client = new RealShopClient();
    const model = new LlmExperienceModel({ client, framing: 'multi-round', contextTokens: 100_000 });
    const states = await playEpisode(model, pick, 4);
    const last = readPrompt(client.requests.at(-1)?.messages as ChatRequest['messages']);
    // What an in-process synthetic env holds as its history: each action with the state before it.
    expect(last.steps.map((s) => s.state.text)).toEqual(states.slice(0, 3).map((s) => s.text));
    expect(last.steps.map((s) => s.state.actions)).toEqual(states.slice(0, 3).map((s) => s.actions));
    expect(last.steps.map((s) => s.action)).toEqual(last.history);
    expect(last.state.text).toBe(states[3]?.text);
    // A chat that started over knows only its opening state for the actions it lists as recent.
    const restarted = new RealShopClient();
    await playEpisode(new LlmExperienceModel({ client: restarted, framing: 'multi-round', contextTokens: 900 }), pick, 4);
    const fresh = readPrompt(restarted.requests.filter((r) => r.messages.length === 2).at(-1)?.messages as ChatRequest['messages']);
    expect(fresh.steps.length).toBeGreaterThan(0);
    expect(new Set(fresh.steps.map((s) => s.state.text)).size).toBe(1);
  });

  it("a server reads a repair request (after an unusable answer) as the same step again", async () => {
    const asked: ChatRequest[] = [];
    const client: ChatClient = {
      name: 'garbled-once',
      maxConcurrency: 1,
      async complete(request) {
        asked.push(request);
        if (asked.length === 1) return { content: 'not json at all' };
        return new RealShopClient().complete(request);
      },
    };
    const model = new LlmExperienceModel({ client, framing: 'multi-round' });
    const states = await playEpisode(model, pick, 1);
    expect(asked).toHaveLength(2);
    expect(asked[1]?.messages.at(-1)?.content).not.toContain('## Action');
    const first = readPrompt(asked[0]?.messages as ChatRequest['messages']);
    const repair = readPrompt(asked[1]?.messages as ChatRequest['messages']);
    expect(repair).toEqual(first);
    expect(states[1]?.text).toContain('page: results');
  });

  it('starts over from the current step when the chat would outgrow the context', async () => {
    const client = new RealShopClient();
    const model = new LlmExperienceModel({ client, framing: 'multi-round', contextTokens: 900 });
    await playEpisode(model, pick, 4);
    const fresh = client.requests.filter((r) => r.messages.length === 2);
    expect(fresh.length).toBeGreaterThan(1);
    expect(fresh.at(-1)?.messages[1]?.content).toContain('## Current state');
  });

  it('with single framing, sends every step self-contained and prefills all of it', async () => {
    const client = new RealShopClient();
    const model = new LlmExperienceModel({ client, framing: 'single' });
    await playEpisode(model, pick, 2);
    expect(client.requests.every((r) => r.messages.length === 2)).toBe(true);
    expect(model.stats().prefillTokens).toBe(model.stats().promptTokens);
  });

  it('lets a transport failure through as an error that says what happened', async () => {
    const failing: ChatClient = {
      name: 'down',
      maxConcurrency: 1,
      complete: () => Promise.reject(new ChatTransportError('refused', 'could not connect to http://127.0.0.1:9: is the server running?')),
    };
    const spec = envSpec('shop');
    const task = spec.tasks('test')[0] as Task;
    const state = await spec.createEnv().reset(task);
    await expect(new LlmExperienceModel({ client: failing }).predict([{ task, history: [], state, action: 'search[x]', examples: [] }])).rejects.toThrow(/is the server running/);
  });
});
