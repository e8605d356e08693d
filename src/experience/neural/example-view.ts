/**
 * A retrieved example as one transition sees it: what the example holds alone (its lines, edits,
 * persistence and action templates, worked out once while the buffer holds it), and its next state
 * and actions carried over to this transition by the analogy (analogy.ts).
 */
import type { Transition } from '../../core/types.ts';
import { matchKey, verbOf } from './action-keys.ts';
import { analogy, type AnalogySide, targetLine } from './analogy.ts';
import { elementNumber, highestElementNumber, renumbering } from './element-numbers.ts';
import { exampleEdits, type Edit } from './example-edits.ts';
import { lineFields, lineFrom, stateLines, type StateLine } from './lines.ts';
import { memo } from './memo.ts';
import { asciiLower, containsPhrase, type Mapper, mapper } from './phrase-map.ts';
import { reasoningMapper } from './reasoning.ts';
import { taskForm } from './task-relative.ts';

export interface ExampleView {
  example: Transition;
  facts: ExampleFacts;
  map: Mapper;
  /** How its annotation is carried over (reasoning.ts). */
  reasoningMap: Mapper;
  wideMap: Mapper;
  nextBase: StateLine[];
  nextWide: StateLine[];
  stateBase: Set<string>;
  sameVerb: boolean;
  /** Its task reads as ours, each relative to its own action (taskForm): the same kind of task. */
  sameTask: boolean;
}

function persistence(before: readonly string[], after: ReadonlySet<string>, group: (t: string) => string): { all: number; by: Map<string, number> } {
  const total = new Map<string, [number, number]>();
  let kept = 0;
  for (const t of before) {
    const g = group(t);
    const entry = total.get(g) ?? [0, 0];
    entry[1]++;
    if (after.has(t)) {
      entry[0]++;
      kept++;
    }
    total.set(g, entry);
  }
  return { all: before.length === 0 ? 0 : kept / before.length, by: new Map([...total].map(([g, [k, n]]) => [g, k / n])) };
}

/** What a view needs of its example alone, whatever transition retrieved it. */
interface ExampleFacts {
  /** The highest element number its state shows, and the numbers its next state shows above it (see `renumbering`). */
  highestNumber: number;
  freshNumbers: readonly number[];
  stateLines: readonly StateLine[];
  nextLines: readonly StateLine[];
  /** The texts of its next state's lines. */
  nextTexts: ReadonlySet<string>;
  /** The matchKeys of its next state's actions. */
  nextActionKeys: ReadonlySet<string>;
  /** asciiLower of each line of its state and next state and of each next action, and each next action's matchKey, in order (what its mappers are handed). */
  stateLower: readonly (string | null)[];
  nextLower: readonly (string | null)[];
  nextActionLower: readonly (string | null)[];
  nextActionKeyList: readonly string[];
  lines: { all: number; by: Map<string, number> };
  actions: { all: number; by: Map<string, number> };
  /** The element its action names (targetLine). */
  target: StateLine | undefined;
  edits: readonly Edit[];
  verb: string;
  /** Its task relative to its own action (taskForm). */
  taskForm: string;
  /**
   * Its next actions that name one of its next state's elements, with that name as a hole
   * (`click[\u0000]`), in order of action then line: the templates actionCandidates fills.
   */
  holes: readonly { key: string; hole: string }[];
}

function actionHoles(actions: readonly string[], lines: readonly StateLine[]): { key: string; hole: string }[] {
  const named = lines.filter((l) => !l.header).map((line) => ({ key: line.key, first: (lineFields(line)[0] ?? '').toLowerCase() })).filter((n) => n.first.length >= 2);
  const out: { key: string; hole: string }[] = [];
  for (const a of actions) {
    const lower = a.toLowerCase();
    for (const { key, first } of named) if (containsPhrase(lower, first)) out.push({ key, hole: lower.replace(first, '\u0000') });
  }
  return out;
}

/**
 * Per example transition (the same object while the buffer holds it): a retrieved example serves
 * many predictions, and its lines, edits and persistence were worked out again for each. Bounded
 * like the text memos: a buffer of 100K transitions must not keep facts for all of them.
 */
const exampleFacts = memo((example: Transition): ExampleFacts => {
  const exState = stateLines(example.state);
  const exNext = stateLines(example.next);
  const nextTexts = new Set(exNext.map((l) => l.text));
  const nextActionKeyList = example.next.actions.map(matchKey);
  const nextActionKeys = new Set(nextActionKeyList);
  const target = targetLine(exState, example.action);
  const highestNumber = highestElementNumber(exState);
  return {
    highestNumber,
    freshNumbers: [...new Set(exNext.map(elementNumber).filter((n): n is number => n !== null && n > highestNumber))],
    stateLines: exState,
    nextLines: exNext,
    nextTexts,
    nextActionKeys,
    stateLower: exState.map((l) => asciiLower(l.text)),
    nextLower: exNext.map((l) => asciiLower(l.text)),
    nextActionLower: example.next.actions.map(asciiLower),
    nextActionKeyList,
    lines: persistence(exState.map((l) => l.text), nextTexts, (t) => lineFrom(t, false).key),
    actions: persistence(example.state.actions.map(matchKey), nextActionKeys, verbOf),
    target,
    edits: exampleEdits(exState, exNext, target),
    verb: verbOf(example.action),
    taskForm: taskForm(example.instruction, example.action),
    holes: actionHoles(example.next.actions, exNext),
  };
}, 1 << 12);

export function viewOf(example: Transition, ours: AnalogySide, ourHighestNumber: number, verb: string, ourTask: string, things: ReadonlySet<string>): ExampleView {
  const facts = exampleFacts(example);
  const { stateLines: exState, nextLines: exNext } = facts;
  const { action } = ours;
  const { base, lines: lineMap, wide } = analogy({ instruction: example.instruction, lines: exState, action: example.action, target: facts.target }, ours, things);
  const numbers = renumbering(facts.freshNumbers, facts.highestNumber, ourHighestNumber);
  const map = mapper(numbers.length === 0 ? lineMap : [...lineMap, ...numbers]);
  const wideMap = mapper(numbers.length === 0 ? wide : [...wide, ...numbers]);
  return {
    example,
    facts,
    map,
    reasoningMap: reasoningMapper(base, example.action, action),
    wideMap,
    nextBase: exNext.map((l, i) => mappedLine(l, map(l.text, facts.nextLower[i]))),
    nextWide: exNext.map((l, i) => mappedLine(l, wideMap(l.text, facts.nextLower[i]))),
    stateBase: new Set(exState.map((l, i) => map(l.text, facts.stateLower[i]))),
    sameVerb: facts.verb === verb,
    sameTask: facts.taskForm === ourTask,
  };
}

/** The line with the mapped text: itself where the map left the text as it was (lines are read-only). */
function mappedLine(line: StateLine, text: string): StateLine {
  return text === line.text ? line : { ...line, text };
}
