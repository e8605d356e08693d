import { describe, expect, it } from 'vitest';
import { successSupported, TASK_RELATIVE_DENSE } from '../../../src/experience/neural/analogous-steps.ts';
import { CLAUSE_FEATURES, CLAUSE_SLOTS } from '../../../src/experience/neural/requirement-evidence.ts';
import { transitionCandidates } from '../../../src/experience/neural/transition-candidates.ts';
import { preparationRepeated, relativeForm, relativeHistory, taskAsks, taskForm, taskNames, timesTaken } from '../../../src/experience/neural/task-relative.ts';
import type { Transition } from '../../../src/core/types.ts';
import { alignByThings, alignTasks, analogy, thingNames } from '../../../src/experience/neural/analogy.ts';
import { stateLines } from '../../../src/experience/neural/lines.ts';
import { mapper } from '../../../src/experience/neural/phrase-map.ts';
import type { ExperienceInput } from '../../../src/experience/types.ts';

const mugTask = 'put a clean mug in coffeemachine.';
const watchTask = 'put a watch in shelf.';

describe('relative form', () => {
  it('reads analogous steps of different tasks the same', () => {
    const ours = relativeForm('put mug 1 in/on coffeemachine 1', taskNames(mugTask));
    expect(ours).toBe('put · # _ _ · #');
    expect(relativeForm('put watch 3 in/on shelf 2', taskNames(watchTask))).toBe(ours);
  });

  it('tells a put where the task wants it from a put elsewhere', () => {
    const names = taskNames(mugTask);
    expect(relativeForm('put mug 1 in/on countertop 1', names)).not.toBe(relativeForm('put mug 1 in/on coffeemachine 1', names));
  });

  it('counts the history steps that name the task, capped, and leaves out the others', () => {
    const names = taskNames('find two pen and put them in drawer.');
    const history = ['go to desk 1', 'take pen 1 from desk 1', 'go to drawer 1', 'put pen 1 in/on drawer 1', 'take pen 2 from desk 1', 'put pen 2 in/on drawer 1', 'put pen 1 in/on drawer 1'];
    expect(relativeHistory(history, names)).toEqual(['take · # _ _ # ×2', 'go _ · # ×1', 'put · # _ _ · # ×2']);
  });

  it("measures how much of an example's preparation ours repeats, however often we took each step", () => {
    const theirs = ['take watch 3 from desk 1', 'clean watch 3 with sinkbasin 1'];
    const watch = taskNames('put a clean watch in shelf.');
    const mug = taskNames(mugTask);
    expect(preparationRepeated(['take mug 1 from desk 2', 'clean mug 1 with sinkbasin 1', 'clean mug 1 with sinkbasin 1'], mug, theirs, watch)).toBe(1);
    expect(preparationRepeated(['take mug 1 from desk 2'], mug, theirs, watch)).toBe(0.5);
    expect(preparationRepeated([], mug, [], watch)).toBe(1);
  });

  it('counts how often the history already took this action in relative form', () => {
    const names = taskNames('find two pen and put them in drawer.');
    const put = relativeForm('put pen 2 in/on drawer 1', names);
    expect(timesTaken(put, ['take pen 1 from desk 1', 'put pen 1 in/on drawer 1'], names)).toBe(1);
    expect(timesTaken(put, ['take pen 1 from desk 1'], names)).toBe(0);
  });

  it('is empty for an action with no words', () => {
    expect(relativeForm('', taskNames(mugTask))).toBe('');
  });
});

function example(instruction: string, action: string, history: string[], reward: number): Transition {
  return {
    runId: 'r',
    taskId: instruction,
    episodeId: instruction,
    env: 'home',
    instruction,
    history,
    state: { text: `task: ${instruction}\nlocation: shelf 2\nfeedback: You arrive at shelf 2.`, actions: [action] },
    action,
    next: { text: `task: ${instruction}\nlocation: shelf 2\nfeedback: You put it.`, actions: [] },
    reward,
    done: reward > 0,
    source: 'real',
    createdAt: 0,
  };
}

/** The task-relative block of the transition's dense features (just before the requirement rows). */
function relativeEvidence(input: ExperienceInput): number[] {
  const dense = transitionCandidates(input).transition.dense;
  const end = dense.length - CLAUSE_SLOTS * CLAUSE_FEATURES;
  return dense.slice(end - TASK_RELATIVE_DENSE, end);
}

function put(history: string[], examples: Transition[]): ExperienceInput {
  const action = 'put mug 1 in/on coffeemachine 1';
  return {
    task: { id: 't', env: 'home', instruction: mugTask, difficulty: 0, origin: 'seed' },
    history: history.map((a) => ({ action: a, state: { text: '', actions: [] } })),
    state: { text: `task: ${mugTask}\nlocation: coffeemachine 1\nfeedback: You arrive at coffeemachine 1.`, actions: [action] },
    action,
    examples,
  };
}

describe('task-relative evidence', () => {
  const cleanedWatch = example('put a clean watch in shelf.', 'put watch 3 in/on shelf 2', ['take watch 3 from desk 1', 'clean watch 3 with sinkbasin 1'], 1);
  const otherPut = example('put a keychain in dresser.', 'put watch 3 in/on shelf 2', [], 0);

  it("counts only the examples whose action is ours relative to their own task, with their reward", () => {
    const [alike, reward, done, names] = relativeEvidence(put(['take mug 1 from desk 1', 'clean mug 1 with sinkbasin 1'], [cleanedWatch, otherPut]));
    expect([alike, reward, done, names]).toEqual([0.5, 1, 1, 1]);
  });

  it("says whether our history repeats the rewarded example's preparation", () => {
    const prepared = relativeEvidence(put(['take mug 1 from desk 1', 'clean mug 1 with sinkbasin 1'], [cleanedWatch]));
    const unprepared = relativeEvidence(put(['take mug 1 from desk 1'], [cleanedWatch]));
    expect(prepared[4]).toBe(1);
    expect(unprepared[4]).toBe(0.5);
  });

  it('counts apart the examples of our kind of task, with their reward, and says -1 where there is none', () => {
    const cleanedCup = example('put a clean cup in shelf.', 'put cup 2 in/on shelf 1', ['take cup 2 from desk 1', 'clean cup 2 with sinkbasin 1'], 1);
    const [, , , , , , , , sameShare, sameReward, sameDone] = relativeEvidence(put([], [cleanedCup, cleanedWatch, otherPut]));
    // "put a clean cup in shelf." under its put reads `· a clean · · ·`, as ours does; the keychain's does not.
    expect([sameShare, sameReward, sameDone]).toEqual([2 / 3, 1, 1]);
    expect(relativeEvidence(put([], [otherPut])).slice(8)).toEqual([0, -1, -1]);
  });
});

describe('whether an example vouches for a success (what an imagining model pays)', () => {
  const supported = (input: ExperienceInput): boolean => successSupported(input, transitionCandidates(input).actionContext.views);
  const cleanedWatch = example('put a clean watch in shelf.', 'put watch 3 in/on shelf 2', ['take watch 3 from desk 1', 'clean watch 3 with sinkbasin 1'], 1);

  it('does for the same step of another task, paid, whose preparation ours repeated', () => {
    expect(supported(put(['take mug 1 from desk 1', 'clean mug 1 with sinkbasin 1'], [cleanedWatch]))).toBe(true);
  });

  it('does not when ours skipped the preparation the paid example made', () => {
    expect(supported(put(['take mug 1 from desk 1'], [cleanedWatch]))).toBe(false);
  });

  it('does not when the paid example put its own object and ours puts something the task does not name', () => {
    const egg = example('put a hot egg in shelf.', 'put egg 1 in/on shelf 2', ['take egg 1 from fridge 1', 'heat egg 1 with microwave 1'], 1);
    const wrong = { ...put([], [egg]), action: 'put egg 1 in/on coffeemachine 1' };
    expect(supported(wrong)).toBe(false);
  });

  it('does not from an unpaid example', () => {
    expect(supported(put(['take mug 1 from desk 1', 'clean mug 1 with sinkbasin 1'], [{ ...cleanedWatch, reward: 0, done: false }]))).toBe(false);
  });
});

describe('a task relative to an action', () => {
  it('says what the task asks beyond the step: the same for tasks of one kind, not for two objects or a prepared one', () => {
    const plain = taskForm('put a cellphone in shelf.', 'put cellphone 1 in/on shelf 1');
    expect(plain).toBe('· a · · ·');
    expect(taskForm('put a watch in drawer.', 'put watch 3 in/on drawer 2')).toBe(plain);
    expect(taskForm('put two cellphone in shelf.', 'put cellphone 1 in/on shelf 1')).toBe('· two · · ·');
    expect(taskForm('put a hot apple in garbagecan.', 'put apple 2 in/on garbagecan 1')).toBe('· a hot · · ·');
  });

  it('keeps only its first few words for hashing, so it names the kind of task', () => {
    expect(taskAsks('heat some cup and put it in fridge.', 'put cup 2 in/on fridge 1')).toBe('heat some and it');
    expect(taskAsks('put two cellphone in shelf.', 'put cellphone 1 in/on shelf 1')).toBe('two');
    expect(taskAsks('i need a red dress under 30 dollars', 'click[buy now]', 3)).toBe('i need a');
  });
});

describe('tasks of one template', () => {
  it("map word for word, so an example's room holds our task's object", () => {
    expect(alignTasks('put a hot apple in garbagecan.', 'put a hot mug in cabinet.')).toEqual([
      ['apple', 'mug'],
      ['garbagecan', 'cabinet'],
    ]);
    const { base } = analogy(
      { instruction: 'put a hot apple in garbagecan.', lines: stateLines('location: middle of the room'), action: 'go to countertop 1' },
      { instruction: 'put a hot mug in cabinet.', lines: stateLines('location: middle of the room'), action: 'go to countertop 1' },
    );
    expect(mapper(base)('On the countertop 1, you see a apple 2, and a bread 1.')).toBe('On the countertop 1, you see a mug 2, and a bread 1.');
  });

  it('are not aligned when their lengths differ', () => {
    expect(alignTasks('cool some apple and put it in garbagecan.', 'put a hot mug in cabinet.')).toEqual([]);
  });
});

describe('tasks of any templates, by the things they name', () => {
  const things = new Set(['apple', 'egg', 'mug', 'countertop', 'fridge', 'cabinet', 'garbagecan', 'desklamp', 'watch', 'dishsponge']);

  it('names a thing by its element: one word and an instance number', () => {
    expect(thingNames(stateLines('location: countertop 1\n[1] object: apple 2 | on countertop 1\n[2] receptacle: fridge 1 | closed\n[3] option: size 7 small | size'))).toEqual(['apple', 'fridge']);
  });

  it("maps the example's things to ours in order, whatever the templates, so its room holds our object", () => {
    expect(alignByThings('clean some apple and put it in countertop.', 'put a hot egg in fridge.', things)).toEqual([
      ['apple', 'egg'],
      ['countertop', 'fridge'],
    ]);
    const { base, lines } = analogy(
      { instruction: 'clean some apple and put it in countertop.', lines: stateLines('location: middle of the room'), action: 'go to countertop 1' },
      { instruction: 'put a hot egg in fridge.', lines: stateLines('location: middle of the room'), action: 'go to countertop 1' },
      things,
    );
    // Where both stand stays where both stand, though the tasks' targets differ.
    expect(mapper(lines)('On the countertop 1, you see a apple 2, and a bread 1.')).toBe('On the countertop 1, you see a egg 2, and a bread 1.');
    // The example's annotation is not carried over so: another kind of task's success is not ours.
    expect(mapper(base)('You put the apple 2 in countertop 1, which completes the task.')).toBe('You put the apple 2 in countertop 1, which completes the task.');
  });

  it('keeps what differs besides the things, but never a quantifier alone', () => {
    // hot → cool is kept; "a" → "two" would make every "a" of a room "two".
    expect(alignByThings('put a hot mug in cabinet.', 'put a cool mug in cabinet.', things)).toEqual([['hot', 'cool']]);
    expect(alignByThings('put a dishsponge in garbagecan.', 'put two dishsponge in countertop.', things)).toEqual([['garbagecan', 'countertop']]);
  });

  it('maps nothing when the tasks name different numbers of things', () => {
    expect(alignByThings('look at watch under the desklamp.', 'put a mug in fridge and a egg in cabinet.', things)).toEqual([]);
  });
});
