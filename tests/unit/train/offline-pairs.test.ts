/**
 * The offline modes' data, without a policy: whole episodes from a store's transitions, the
 * preference pairs DPO trains on, and which candidate a stored action was. On a hand-made buffer,
 * so each expectation is worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import type { Transition } from '../../../src/core/types.ts';
import { groupEpisodes } from '../../../src/train/offline/episodes.ts';
import { firstDivergence, preferencePairs } from '../../../src/train/offline/pairs.ts';
import { candidateIndex } from '../../../src/train/offline/steps.ts';

const ACTIONS = ['go left', 'go right', 'wait'];

/** One episode: its states and actions, ending with `reward` on the last step. */
function episode(id: string | undefined, task: string, instruction: string, states: string[], actions: string[], reward: number, runId = 'seed-1'): Transition[] {
  return actions.map((action, i) => ({
    runId,
    taskId: task,
    ...(id !== undefined ? { episodeId: id } : {}),
    env: 'home',
    instruction,
    history: actions.slice(0, i),
    state: { text: states[i] as string, actions: ACTIONS },
    action,
    next: { text: states[i + 1] ?? 'end', actions: ACTIONS },
    reward: i === actions.length - 1 ? reward : 0,
    done: i === actions.length - 1,
    source: 'real',
    createdAt: 0,
  }));
}

const A = 'put a clean mug in the coffee machine';
const B = 'put a hot potato in the fridge';
const C = 'put a cold potato in the fridge';

describe('offline episodes', () => {
  it('groups a store\'s transitions into whole episodes, by episode id or, without one, where a history starts again', () => {
    const s1 = episode('e1', 'a', A, ['s0', 's1', 's2'], ['go left', 'go right', 'wait'], 1);
    const f1 = episode('e2', 'a', A, ['s0', 's1'], ['go left', 'wait'], 0);
    // Two episodes of one task with no episode id, one after the other in the store.
    const d1 = episode(undefined, 'd', B, ['t0', 't1'], ['go left', 'go right'], 1, 'import');
    const d2 = episode(undefined, 'd', B, ['t0'], ['wait'], 0, 'import');
    // An episode that lost its first step, and one that never ended: neither can say how it went.
    const partial = episode('e3', 'a', A, ['s0', 's1', 's2'], ['go left', 'go right', 'wait'], 1).slice(1);
    const unfinished = episode('e4', 'a', A, ['s0', 's1'], ['go left', 'go right'], 0).map((t) => ({ ...t, done: false }));
    // Stored out of order: the grouping orders each episode by its history.
    const { episodes, count } = groupEpisodes([...[...s1].reverse(), ...f1, ...d1, ...d2, ...partial, ...unfinished]);
    expect(episodes.map((e) => [e.taskId, e.steps.map((t) => t.action).join(','), e.success])).toEqual([
      ['a', 'go left,go right,wait', true],
      ['a', 'go left,wait', false],
      ['d', 'go left,go right', true],
      ['d', 'wait', false],
    ]);
    expect(count).toEqual({ episodes: 4, successes: 2, failures: 2, partialTransitions: partial.length + unfinished.length });
  });

  it('counts a success only where the last step ends the episode with the full reward', () => {
    const nearMiss = episode('e1', 'a', A, ['s0'], ['wait'], 0.75);
    expect(groupEpisodes(nearMiss).episodes[0]?.success).toBe(false);
  });
});

describe('preference pairs', () => {
  const success = episode('s', 'a', A, ['s0', 's1', 's2'], ['go left', 'go right', 'wait'], 1);
  const sameStart = episode('f1', 'a', A, ['s0', 's1', 's3'], ['go left', 'wait', 'wait'], 0);
  // Same first action, but the episode finds itself elsewhere: the two never share the state where they part.
  const elsewhere = episode('f2', 'a', A, ['s0', 'sX'], ['go left', 'go right'], 0);
  const otherTask = episode('f3', 'b', B, ['u0', 'u1'], ['go right', 'wait'], 0);
  const neighbour = episode('s2', 'c', C, ['v0'], ['go left'], 1);

  it('pairs at the first step where a failure of the same task acts differently from the same state', () => {
    const { episodes } = groupEpisodes([...success, ...sameStart]);
    expect(firstDivergence(episodes[0]!, episodes[1]!)).toBe(1);
    const [pair] = preferencePairs(episodes);
    expect(pair).toMatchObject({ kind: 'state', partner: 'same-task', chosen: { steps: [1] }, rejected: { steps: [1] } });
    expect(pair!.chosen.episode.steps[1]?.action).toBe('go right');
    expect(pair!.rejected.episode.steps[1]?.action).toBe('wait');
  });

  it('pairs whole episodes where no state is shared at the parting, or where the task has no success (the nearest instruction\'s success)', () => {
    const { episodes } = groupEpisodes([...success, ...elsewhere, ...otherTask, ...neighbour]);
    expect(firstDivergence(episodes[0]!, episodes[1]!)).toBeNull();
    const pairs = preferencePairs(episodes);
    expect(pairs.map((p) => [p.kind, p.partner, p.chosen.episode.id, p.rejected.episode.id, p.chosen.steps, p.rejected.steps])).toEqual([
      ['trajectory', 'same-task', 's', 'f2', [0, 1, 2], [0, 1]],
      // "put a hot potato in the fridge" shares 6 of its 7 words with C's instruction, 4 with A's.
      ['trajectory', 'neighbour', 's2', 'f3', [0], [0, 1]],
    ]);
  });

  it('makes one pair per failure, and none without both a success and a failure', () => {
    const { episodes } = groupEpisodes([...success, ...sameStart, ...elsewhere, ...otherTask, ...neighbour]);
    expect(preferencePairs(episodes)).toHaveLength(3);
    expect(preferencePairs(groupEpisodes([...success, ...neighbour]).episodes)).toEqual([]);
    expect(preferencePairs(groupEpisodes([...sameStart, ...otherTask]).episodes)).toEqual([]);
  });
});

describe('a stored action as one of the policy\'s candidates', () => {
  const admissible = ['search[...]', 'click[Back to Search]', 'click[B07XYZ]'];
  const candidates = ['search[red cotton shirt medium]', 'search[red cotton shirt]', 'click[Back to Search]', 'click[B07XYZ]'];

  it('finds clicks as the environment matches them, case and spacing aside', () => {
    expect(candidateIndex('click[back  to search]', admissible, candidates)).toEqual({ index: 2, nearestQuery: false });
    expect(candidateIndex('click[B07XYZ]', admissible, candidates)).toEqual({ index: 3, nearestQuery: false });
    expect(candidateIndex('search[red cotton shirt]', admissible, candidates)).toEqual({ index: 1, nearestQuery: false });
  });

  it('takes a search the policy cannot type as the proposed query sharing the most words with it', () => {
    // The oracle searches with the product's title.
    expect(candidateIndex('search[Acme red cotton shirt, medium]', admissible, candidates)).toEqual({ index: 0, nearestQuery: true });
  });

  it('gives no candidate for an inadmissible action', () => {
    expect(candidateIndex('click[Buy Now]', admissible, candidates)).toBeNull();
    expect(candidateIndex('search[shirt]', ['click[Back to Search]'], ['click[Back to Search]'])).toBeNull();
  });
});
