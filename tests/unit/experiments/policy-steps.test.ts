import { describe, expect, it } from 'vitest';
import { scoresByStep, stepKind } from '../../../experiments/policy-steps.ts';
import type { Task } from '../../../src/core/types.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import type { TransitionScore } from '../../../src/experience/fidelity.ts';

const homeSpec = envSpec('home');

const item = {
  text: ['page: item', 'instruction: find shoes with size: 12', '[1] button: < Prev', '[2] option: 12 | size', '[3] button: Buy Now'].join('\n'),
  actions: ['click[< Prev]', 'click[12]', 'click[Buy Now]'],
};
const score = (over: Partial<TransitionScore>): TransitionScore => ({ nextStateF1: 1, actionSetF1: 1, rewardError: 0, doneRight: true, sameNextState: true, valid: true, realDone: false, predictedDone: false, realSuccess: false, predictedSuccess: false, cutOff: false, revealedActions: 0, revealedActionsFound: 0, ...over });

describe('policy-steps', () => {
  it('names a step by its page and the kind of element it clicks, or the command verb', async () => {
    expect(stepKind(item, 'click[12]')).toBe('page item · click option');
    expect(stepKind(item, 'click[< Prev]')).toBe('page item · click button');
    const env = homeSpec.createEnv();
    const first = await env.reset(homeSpec.tasks('train')[0] as Task);
    expect(stepKind(first, first.actions.find((a) => a.startsWith('go to')) as string)).toBe('at middle of the room · go');
  });

  it('names a click on a product apart when the episode already opened one', () => {
    const results = {
      text: ['page: results', 'instruction: find shoes with size: 12', '[1] button: Back to Search', '[2] link: b01 | acme shoes | $20.00', '[3] link: b02 | zeta shoes | $25.00'].join('\n'),
      actions: ['click[Back to Search]', 'click[b01]', 'click[b02]'],
    };
    expect(stepKind(results, 'click[b01]')).toBe('page results · click link');
    const history = [
      { state: results, action: 'click[b01]' },
      { state: item, action: 'click[< Prev]' },
    ];
    expect(stepKind(results, 'click[b02]', history)).toBe('page results · click link (another)');
    expect(stepKind(results, 'click[Back to Search]', history)).toBe('page results · click button');
  });

  it('averages per kind of step, most frequent first, and over all steps', () => {
    const out = scoresByStep([
      { kind: 'page item · click option', score: score({ sameNextState: false, nextStateF1: 0.9 }) },
      { kind: 'page item · click option', score: score({}) },
      { kind: 'page results · click link', score: score({ rewardError: 0.2 }) },
    ]);
    expect(Object.keys(out.byStep)).toEqual(['page item · click option', 'page results · click link']);
    expect(out.byStep['page item · click option']).toMatchObject({ steps: 2, exactNextState: 0.5, nextStateF1: 0.95 });
    expect(out.byStep['page results · click link']).toMatchObject({ steps: 1, rewardAccuracy: 0, rewardMae: 0.2 });
    expect(out.all).toMatchObject({ steps: 3, exactNextState: 0.667 });
  });
});
