import { describe, expect, it } from 'vitest';
import type { Transition } from '../../../src/core/types.ts';
import { successSupported, transitionCandidates } from '../../../src/experience/neural/candidates.ts';
import type { ExperienceInput } from '../../../src/experience/types.ts';

/** A real step of `instruction` that put `object` in `target` after `history`, paid `reward`. */
function example(instruction: string, history: string[], object: string, target: string, reward: number): Transition {
  const action = `put ${object} in/on ${target}`;
  return {
    runId: 'r',
    taskId: instruction,
    episodeId: instruction,
    env: 'home',
    instruction,
    history,
    state: { text: `task: ${instruction}\nlocation: ${target}\nholding: ${object}`, actions: [action] },
    action,
    next: { text: `task: ${instruction}\nlocation: ${target}\nholding: nothing`, actions: [] },
    reward,
    done: reward > 0,
    source: 'real',
    createdAt: 0,
  };
}

function step(instruction: string, history: string[], action: string, examples: Transition[]): ExperienceInput {
  return {
    task: { id: 't', env: 'home', instruction, difficulty: 0, origin: 'seed' },
    history: history.map((a) => ({ action: a, state: { text: '', actions: [] } })),
    state: { text: `task: ${instruction}\nlocation: cabinet 1`, actions: [action] },
    action,
    examples,
  };
}

const supported = (input: ExperienceInput): boolean => successSupported(input, transitionCandidates(input).actionContext.views);

describe('whether an example vouches for a success', () => {
  const cleaned = example('clean some cloth and put it in drawer.', ['take cloth 2 from toilet 1', 'go to sinkbasin 1', 'clean cloth 2 with sinkbasin 1', 'go to drawer 1'], 'cloth 2', 'drawer 1', 1);

  it('does for the same step of a task of the same kind, prepared as ours was', () => {
    const ours = step('clean some cloth and put it in cabinet.', ['take cloth 1 from garbagecan 1', 'go to sinkbasin 1', 'clean cloth 1 with sinkbasin 1', 'go to cabinet 1'], 'put cloth 1 in/on cabinet 1', [cleaned]);
    expect(supported(ours)).toBe(true);
  });

  it('does not when ours skipped the preparation the rewarded example made', () => {
    const hasty = step('clean some cloth and put it in cabinet.', ['take cloth 1 from garbagecan 1', 'go to cabinet 1'], 'put cloth 1 in/on cabinet 1', [cleaned]);
    expect(supported(hasty)).toBe(false);
  });

  it('does not when ours puts something the task does not name', () => {
    const egg = example('put a hot egg in countertop.', ['take egg 1 from fridge 1', 'heat egg 1 with microwave 1', 'go to countertop 1'], 'egg 1', 'countertop 1', 1);
    const wrong = step('find two creditcard and put them in cabinet.', ['take egg 1 from fridge 1', 'heat egg 1 with microwave 1', 'go to countertop 3'], 'put egg 1 in/on countertop 3', [egg]);
    expect(supported(wrong)).toBe(false);
  });

  it('does not from an unpaid example', () => {
    const ours = step('clean some cloth and put it in cabinet.', ['take cloth 1 from garbagecan 1', 'go to sinkbasin 1', 'clean cloth 1 with sinkbasin 1', 'go to cabinet 1'], 'put cloth 1 in/on cabinet 1', [{ ...cleaned, reward: 0, done: false }]);
    expect(supported(ours)).toBe(false);
  });
});
