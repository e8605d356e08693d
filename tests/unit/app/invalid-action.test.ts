/**
 * Why an action was not taken, as the Play view's status line and the Experience view's real panel
 * say it: the real environments' own words (the shop tells a malformed action from one that is not
 * on the page; the household says the command does not apply), never only "not valid".
 */
import { describe, expect, it } from 'vitest';
import type { StepResult, Task } from '../../../src/core/types.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { whyInvalid } from '../../../src/app/play/invalid-action.ts';

async function stepFromStart(envName: string, split: string, action: string): Promise<StepResult> {
  const spec = envSpec(envName);
  const env = spec.createEnv();
  await env.reset(spec.tasks(split)[0] as Task);
  return env.step(action);
}

describe('why an action was not taken', () => {
  it('says a shop action is malformed, in the shop\'s words', async () => {
    const result = await stepFromStart('shop', 'test', 'dance[wildly');
    expect(result.info.valid).toBe(false);
    expect(whyInvalid(result)).toBe('"dance[wildly" is not a well-formed action (search[...] or click[...]), so nothing changes and the reward is 0.');
  });

  it('tells a well-formed shop action that is not on this page from a malformed one', async () => {
    const result = await stepFromStart('shop', 'test', 'click[Buy Now]');
    expect(result.info.valid).toBe(false);
    expect(whyInvalid(result)).toMatch(/^"click\[Buy Now\]" is not an action on the search page, so nothing changes/);
  });

  it('says a household command does not apply here', async () => {
    const result = await stepFromStart('home', 'valid-seen', 'fly to the moon');
    expect(result.info.valid).toBe(false);
    expect(whyInvalid(result)).toMatch(/^Nothing happens: "fly to the moon" does not apply here, so the reward is 0\./);
  });

  it('says nothing for an action that was taken, and the bare fact where a result explains nothing', async () => {
    expect(whyInvalid(await stepFromStart('shop', 'test', 'search[red mug]'))).toBeNull();
    const silent: StepResult = { observation: { text: '', actions: [] }, reward: 0, done: false, info: { valid: false, won: false, truncated: false } };
    expect(whyInvalid(silent)).toBe('Nothing happened (reward 0).');
  });
});
