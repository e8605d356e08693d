import { describe, expect, it } from 'vitest';
import type { Task } from '../../../src/core/types.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { compactState, firstRoundMessages, nextRoundMessage, singleStepMessages, systemPrompt } from '../../../src/experience/prompt.ts';
import { readPrompt } from '../../../src/experience/prompt-reader.ts';
import { renderAnswer } from '../../../src/experience/output.ts';
import { countChatTokens } from '../../../src/experience/tokens.ts';
import { seededTransitions } from './fixtures.ts';

describe('the prompt protocol', () => {
  it('keeps the system prompts of both environments as reviewed', async () => {
    await expect(systemPrompt('web')).toMatchFileSnapshot('./__snapshots__/system-web.txt');
    await expect(systemPrompt('household')).toMatchFileSnapshot('./__snapshots__/system-household.txt');
  });

  it('lays out a shop step with three retrieved examples as reviewed, within 1,500 tokens', async () => {
    const train = await seededTransitions('shop', 12, 2);
    const step = train.find((t) => t.state.text.startsWith('page: results')) as (typeof train)[number];
    const examples = train.filter((t) => t !== step && t.state.text.startsWith('page: results')).slice(0, 3);
    const task: Task = { id: step.taskId, env: 'shop', instruction: step.instruction, difficulty: 1, origin: 'seed' };
    const messages = singleStepMessages({ task, history: step.history.map((action) => ({ state: step.state, action })), state: step.state, action: step.action, examples });
    await expect(messages.map((m) => `### ${m.role}\n${m.content}`).join('\n\n')).toMatchFileSnapshot('./__snapshots__/shop-step.txt');
    expect(countChatTokens(messages)).toBeLessThanOrEqual(1500);
  });

  it('lays out a household step as reviewed', async () => {
    const train = await seededTransitions('home', 3, 2);
    const step = train[2] as (typeof train)[number];
    const task: Task = { id: step.taskId, env: 'home', instruction: step.instruction, difficulty: 1, origin: 'seed' };
    const messages = singleStepMessages({ task, history: step.history.map((action) => ({ state: step.state, action })), state: step.state, action: step.action, examples: train.slice(5, 7) });
    await expect(messages.map((m) => `### ${m.role}\n${m.content}`).join('\n\n')).toMatchFileSnapshot('./__snapshots__/home-step.txt');
  });

  it('shortens an example state to its first elements and says how many are left out', () => {
    const text = ['page: results', 'instruction: buy shoes', ...Array.from({ length: 9 }, (_, i) => `[${i + 1}] link: item ${i}`)].join('\n');
    const compact = compactState(text, { exampleElements: 3, exampleElementChars: 40, historyActions: 4 });
    expect(compact).toBe('page: results\n[1] link: item 0\n[2] link: item 1\n[3] link: item 2\n… 6 more elements');
  });

  it('in a multi-round chat, a later round carries only the examples and the action', async () => {
    const spec = envSpec('shop');
    const task = spec.tasks('test')[1] as Task;
    const first = await spec.createEnv().reset(task);
    const opening = firstRoundMessages({ task, history: [], state: first, action: 'search[red mug]', examples: [] });
    const later = nextRoundMessage({ task, history: [{ state: first, action: 'search[red mug]' }], state: first, action: 'click[Back to Search]', examples: [] });
    expect(opening[1]?.content).toContain('## Current state');
    expect(later.content).toBe('## Action\nclick[Back to Search]');
  });

  it('reads its own prompts back, in both framings', async () => {
    const spec = envSpec('shop');
    const task = spec.tasks('test')[2] as Task;
    const env = spec.createEnv();
    const first = await env.reset(task);
    const single = readPrompt(singleStepMessages({ task, history: [], state: first, action: 'search[desk lamp]', examples: [] }));
    expect(single).toMatchObject({ env: 'shop', syntax: 'web', instruction: task.instruction, action: 'search[desk lamp]', history: [] });
    expect(single.state.text).toBe(first.text);
    const searched = await env.step('search[desk lamp]');
    const conversation = [
      ...firstRoundMessages({ task, history: [], state: first, action: 'search[desk lamp]', examples: [] }),
      { role: 'assistant' as const, content: renderAnswer({ reasoning: 'results', next: searched.observation, reward: 0, done: false }) },
      nextRoundMessage({ task, history: [{ state: first, action: 'search[desk lamp]' }], state: searched.observation, action: 'click[Next >]', examples: [] }),
    ];
    const later = readPrompt(conversation);
    expect(later.action).toBe('click[Next >]');
    expect(later.history).toEqual(['search[desk lamp]']);
    expect(later.state.text).toBe(searched.observation.text);
    expect(later.state.actions).toEqual(searched.observation.actions);
  });

  it('refuses prompts that are not of this protocol, saying why', () => {
    expect(() => readPrompt([])).toThrow(/no messages/);
    expect(() => readPrompt([{ role: 'system', content: 'You are a pirate.' }, { role: 'user', content: 'hi' }])).toThrow(/not one of this project's experience-model prompts/);
    expect(() => readPrompt([{ role: 'system', content: systemPrompt('web') }, { role: 'user', content: '## Task\nbuy' }])).toThrow(/no user message has an "## Action" section/);
  });
});
