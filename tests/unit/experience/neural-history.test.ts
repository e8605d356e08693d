import { describe, expect, it } from 'vitest';
import type { Transition } from '../../../src/core/types.ts';
import { episodeHistories } from '../../../src/experience/history.ts';
import { actionCandidates } from '../../../src/experience/neural/action-candidates.ts';
import { HISTORY_STATES } from '../../../src/experience/neural/history-sources.ts';
import { transitionCandidates } from '../../../src/experience/neural/transition-candidates.ts';
import { featureText } from '../../../src/experience/neural/features.ts';
import { stateLines } from '../../../src/experience/neural/lines.ts';
import type { ExperienceInput } from '../../../src/experience/types.ts';

const instruction = 'find me cushioned running shoes with size: 12, and price lower than 110.00 dollars';
const search = { text: ['page: search', `instruction: ${instruction}`, '[1] searchbox: Search'].join('\n'), actions: ['search[...]'] };
const results = {
  text: ['page: results', `instruction: ${instruction}`, 'query: cushioned running shoes', '[1] button: Back to Search', '[2] link: b0aaa | terrafit cushioned running shoes | $76.99', '[3] link: b0bbb | velotrek trail shoes | $44.99'].join('\n'),
  actions: ['click[Back to Search]', 'click[b0aaa]', 'click[b0bbb]'],
};
const item = {
  text: ['page: item', `instruction: ${instruction}`, '[1] button: Back to Search', '[2] button: < Prev', '[3] text: terrafit cushioned running shoes', '[4] option: 12 | size', '[5] button: Buy Now'].join('\n'),
  actions: ['click[Back to Search]', 'click[< Prev]', 'click[12]', 'click[Buy Now]'],
};

function transition(id: number, history: string[], state: Transition['state'], action: string, next: Transition['next']): Transition {
  return { id, runId: 'r', taskId: 't', episodeId: 'r/0', env: 'shop', instruction, history, state, action, next, reward: 0, done: false, source: 'real', createdAt: 0 };
}

describe('episodeHistories', () => {
  const episode = [
    transition(1, [], search, 'search[cushioned running shoes]', results),
    transition(2, ['search[cushioned running shoes]'], results, 'click[b0aaa]', item),
    transition(3, ['search[cushioned running shoes]', 'click[b0aaa]'], item, 'click[< Prev]', results),
  ];

  it('pairs each history action with the state it was taken in, whatever order the episode comes in', () => {
    const histories = episodeHistories([...episode].reverse());
    expect(histories[0]?.map((h) => h.state.text)).toEqual([search.text, results.text]);
    expect(histories[0]?.map((h) => h.action)).toEqual(['search[cushioned running shoes]', 'click[b0aaa]']);
    expect(histories[2]).toEqual([]);
  });

  it("keeps the transition's own state where the episode lacks the step or took another action there", () => {
    const gap = episodeHistories([episode[0] as Transition, episode[2] as Transition]);
    expect(gap[1]?.map((h) => h.state.text)).toEqual([search.text, item.text]);
    const other = episodeHistories([{ ...(episode[0] as Transition), action: 'search[boots]' }, episode[2] as Transition]);
    expect(other[1]?.[0]?.state.text).toBe(item.text);
  });
});

describe('history states as candidates', () => {
  const back: ExperienceInput = {
    task: { id: 't', env: 'shop', instruction, difficulty: 0, origin: 'seed' },
    history: [
      { state: search, action: 'search[cushioned running shoes]' },
      { state: results, action: 'click[b0aaa]' },
    ],
    state: item,
    action: 'click[< Prev]',
    examples: [],
  };

  it("offers the lines of the state one step back, flagged as such, which the current state does not hold", () => {
    const { lines } = transitionCandidates(back);
    const link = lines.find((c) => c.line.text === 'link: b0bbb | velotrek trail shoes | $44.99');
    expect(link).toBeDefined();
    const flags = link!.features.dense.slice(-(HISTORY_STATES + 1), -1);
    // One step back holds it; two steps back (the search page) does not.
    expect(flags).toEqual([1, 0, 0]);
    // Without examples the action's words stand whole.
    expect(featureText(link!.features.hashed.at(-1)!)).toBe('hb 1 click prev');
    // A line only the current state holds is not flagged.
    const buy = lines.find((c) => c.line.text === 'button: Buy Now');
    expect(buy!.features.dense.slice(-(HISTORY_STATES + 1))).toEqual([0, 0, 0, 0]);
  });

  it("offers the earlier state's actions, flagged, among the next actions", () => {
    const prepared = transitionCandidates(back);
    const actions = actionCandidates(prepared.actionContext, stateLines(results.text));
    const link = actions.find((a) => a.action === 'click[b0bbb]');
    expect(link).toBeDefined();
    expect(link!.features.dense.slice(-(HISTORY_STATES + 1), -1)).toEqual([1, 0, 0]);
  });

  it("names the action in the history string by the words the examples' actions share, not by a product's own name", () => {
    const example = transition(9, ['search[trail shoes]'], results, 'click[b0bbb]', item);
    const open: ExperienceInput = { ...back, state: results, action: 'click[b0aaa]', history: [{ state: search, action: 'search[x]' }, { state: item, action: 'click[< Prev]' }], examples: [example] };
    const line = transitionCandidates(open).lines.find((c) => c.line.text === 'option: 12 | size');
    expect(featureText(line!.features.hashed.at(-1)!)).toBe('hb 1 click');
  });

  it('offers nothing from history without history', () => {
    const { lines } = transitionCandidates({ ...back, history: [] });
    expect(lines.some((c) => c.line.text.startsWith('link:'))).toBe(false);
  });
});
