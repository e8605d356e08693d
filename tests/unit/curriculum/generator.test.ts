import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/rng.ts';
import type { Task } from '../../../src/core/types.ts';
import { BufferTaskGenerator, directionFor, LlmTaskGenerator, parseTaskAnswer, taskPrompt } from '../../../src/curriculum/generator.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import type { ShopGoal } from '../../../src/envs/shop/goal.ts';
import type { ChatClient, ChatRequest, ChatResponse } from '../../../src/experience/llm/chat.ts';

/** A chat client that answers from a script (the stand-in for WebLLM or an endpoint). */
class ScriptedChat implements ChatClient {
  readonly name = 'scripted';
  readonly maxConcurrency = 1;
  readonly requests: ChatRequest[] = [];
  constructor(private readonly answer: (request: ChatRequest) => string) {}
  async complete(request: ChatRequest): Promise<ChatResponse> {
    this.requests.push(request);
    return { content: this.answer(request) };
  }
}

const spec = envSpec('shop');
const train = spec.tasks('train');
const parent = train[5] as Task;
const request = { parent, successRate: 0.75, variance: 0.1875 };

describe('the task-generation prompt', () => {
  it('states the original task, its context and the candidates, and asks for one useful variation', () => {
    const [system, user] = taskPrompt(spec, request, ['first candidate', 'second candidate']);
    expect(system?.content).toMatch(/challenging but feasible/);
    expect(system?.content).toMatch(/meaningfully different/);
    expect(system?.content).toMatch(/realistic/);
    expect(user?.content).toContain(`Original task: ${parent.instruction}`);
    expect(user?.content).toContain('succeeds on it 75% of the time');
    expect(user?.content).toContain('harder');
    expect(user?.content).toContain('1. first candidate\n2. second candidate');
  });

  it('varies the way the success rate says', () => {
    expect(directionFor(0.9)).toBe('harder');
    expect(directionFor(0.1)).toBe('easier');
    expect(directionFor(0.5)).toBe('sideways');
  });

  it('reads a reply: the text, a candidate number, or says what is wrong', () => {
    expect(parseTaskAnswer('{"task": "find me red shoes, and price lower than 50.00 dollars", "why": "x"}', [])).toEqual({ task: 'find me red shoes, and price lower than 50.00 dollars' });
    expect(parseTaskAnswer('Sure! {"task": 2}', ['a candidate one', 'b candidate two'])).toEqual({ task: 'b candidate two' });
    expect(parseTaskAnswer('no json here', [])).toEqual({ problem: 'no JSON object in the reply' });
    expect(parseTaskAnswer('{"why": "forgot"}', [])).toMatchObject({ problem: expect.stringMatching(/"task" is missing/) });
    expect(parseTaskAnswer('{"task": ""}', [])).toMatchObject({ problem: expect.stringMatching(/not a usable instruction/) });
  });
});

describe('LLM task generation', () => {
  it('takes the variation the model picks among the data-driven candidates', async () => {
    let offered: string[] = [];
    const chat = new ScriptedChat((r) => {
      offered = [...(r.messages[1]?.content ?? '').matchAll(/^\d+\. (.*)$/gm)].map((m) => m[1] as string);
      return JSON.stringify({ task: offered[offered.length - 1], why: 'harder but feasible' });
    });
    const generator = new LlmTaskGenerator(spec, train, chat);
    const [made] = await generator.generate([request], new Rng(1));
    expect(offered.length).toBeGreaterThan(0);
    expect(made?.instruction).toBe(offered[offered.length - 1]);
    expect(made).toMatchObject({ origin: 'generated', parentId: parent.id });
    expect(chat.requests[0]?.response_format?.type).toBe('json_object');
    expect(generator.stats()).toMatchObject({ requested: 1, made: 1, fallbacks: 0 });
  });

  it('grounds a variation the model writes itself: a real goal when the text states one', async () => {
    const goal = parent.goal as ShopGoal;
    const own = parent.instruction.replace(/price lower than (\d+)\.00/, (_, p) => `price lower than ${Number(p) + 20}.00`);
    const generator = new LlmTaskGenerator(spec, train, new ScriptedChat(() => JSON.stringify({ task: own })));
    const [made] = await generator.generate([request], new Rng(2));
    expect(made?.instruction).toBe(own);
    expect(made?.goal).toMatchObject({ attributes: goal.attributes, priceUpper: goal.priceUpper + 20 });
    const synthetic = await new LlmTaskGenerator(spec, train, new ScriptedChat(() => '{"task": "buy a moon rock for my cat"}')).generate([request], new Rng(2));
    expect(synthetic[0]).toMatchObject({ instruction: 'buy a moon rock for my cat', origin: 'generated' });
    expect(synthetic[0]?.goal).toBeUndefined();
  });

  it('falls back to a data-driven variation on an unusable reply, counts it and keeps the problem', async () => {
    for (const reply of ['I cannot help with that', '{"task": ""}', `{"task": ${JSON.stringify(parent.instruction)}}`]) {
      const generator = new LlmTaskGenerator(spec, train, new ScriptedChat(() => reply));
      const [made] = await generator.generate([request], new Rng(3));
      const expected = await new BufferTaskGenerator(spec, train).generate([request], new Rng(3).fork(0));
      expect(made?.id).toBe(expected[0]?.id);
      expect(generator.stats()).toMatchObject({ fallbacks: 1, made: 1 });
      expect(generator.problems).toHaveLength(1);
    }
  });
});
