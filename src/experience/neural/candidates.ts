/**
 * Candidates and their features. For one transition (task, history, state, action, retrieved
 * examples) this lists what the next state could be made of, each with the evidence for it:
 *
 * - lines: every current line (the action may change nothing); every line of every example's next
 *   state carried over by the analogy (lines.ts); every current line with an edit an example made
 *   to one of its own lines (`option: 8 oz | size` → `option: 8 oz | size | selected`), and with
 *   such an edit undone where it only added a field (the mark taken off another value's line);
 * - actions: the current admissible actions, the examples' next actions carried over, and actions
 *   made from action templates the examples show (`take {object} from countertop 1`) filled with
 *   the candidate lines of the same kind;
 * - one row of transition features for the reward and done heads: the examples' rewards, how much
 *   of the task the state, the action and the history cover, and the step count.
 *
 * Features are numbers (dense) plus short texts hashed into buckets (features.ts). The network decides;
 * nothing here names a page, a command or an environment.
 */
import { matchAdmissible, matchKey as actionKey } from '../../core/actions.ts';
import type { Transition } from '../../core/types.ts';
import type { ExperienceInput, HistoryStep } from '../types.ts';
import { hashBucket, type Features, type HashedFeature } from './features.ts';
import { reasoningCandidates, reasoningMapper, reasoningSources, REASONING_SUMMARY_DENSE, REASONING_SUMMARY_SLOTS, type ReasoningCandidate, type ReasoningSource } from './reasoning.ts';
import { namesTask, preparationRepeated, relativeForm, relativeHistory, taskAsks, taskForm, taskNames, timesTaken } from './task-relative.ts';
import { analogy, asciiLower, containsPhrase, elementNumber, highestElementNumber, type AnalogySide, type Mapper, lineFields, lineFrom, lineValue, mapper, memo, memoWeak, renumbering, stateLines, targetLine, wordsOf, type StateLine } from './lines.ts';

/** core/actions.ts's matchKey, memoised: the same actions are keyed for every candidate of every example. */
const matchKey = memo(actionKey);

/** Examples beyond this many still vote in the counts but have no per-rank features. */
export const RANK_SLOTS = 4;

export type { Features } from './features.ts';

export interface LineCandidate {
  line: StateLine;
  features: Features;
  /** Where the line sits in each source that has it (0: the current state, 1 + i: example i), for ordering. */
  positions: Map<number, number>;
  /** Index of the current line an edit was applied to (-1 for none); candidates from one line compete. */
  origin: number;
}

export interface ActionCandidate {
  action: string;
  features: Features;
}

export interface TransitionCandidates {
  lines: LineCandidate[];
  /** Built from the line candidates; see `actionCandidates`. */
  actionContext: ActionContext;
  /** The sentences the reasoning head chooses among (reasoning.ts), and the annotations they come from. */
  reasoning: ReasoningCandidate[];
  reasoningSources: ReasoningSource[];
  /**
   * The transition head's row before the reasoning is chosen: its first REASONING_SUMMARY_DENSE
   * values and REASONING_SUMMARY_SLOTS hashed strings are left empty for `withReasoning`.
   */
  transition: Features;
  /**
   * Header keys the next state will have: those most examples' next states have (the current
   * state's when there are no examples), in the current state's order where it has them.
   */
  headerKeys: string[];
}

/** Source ids for ordering: 0 is the current state, 1 + i example i, HISTORY_SOURCE + j the state j steps back. */
const CURRENT = 0;
const HISTORY_SOURCE = 1000;

/** How many of the latest history states offer their lines and actions as candidates. */
export const HISTORY_STATES = 3;

/**
 * A state the episode passed through, offered as a source: going back (`< Prev`, returning to a
 * room) leads to a state seen before, which neither the current state nor another episode's
 * example holds. `agreement` is how much of the examples' next-state headers it shares, the
 * evidence that the next state is this one again.
 */
interface HistorySource {
  /** Steps back, from 1. */
  back: number;
  lines: readonly StateLine[];
  texts: ReadonlySet<string>;
  actions: readonly string[];
  /** matchKey of each action. */
  actionKeys: ReadonlySet<string>;
  agreement: number;
}

/** Per history slot (1..HISTORY_STATES back): whether that state holds the thing; then the best agreement among those that do. Pushed onto `out`. */
function pushHistoryFlags(out: number[], history: readonly HistorySource[], holds: (h: HistorySource) => boolean): void {
  const flags = new Array<number>(HISTORY_STATES + 1).fill(0);
  for (const h of history) {
    if (!holds(h)) continue;
    flags[h.back - 1] = 1;
    flags[HISTORY_STATES] = Math.max(flags[HISTORY_STATES] as number, h.agreement);
  }
  for (const flag of flags) out.push(flag);
}

/** Steps back to the latest history state holding the thing, 0 for none. */
function nearestBack(history: readonly HistorySource[], holds: (h: HistorySource) => boolean): number {
  return history.find(holds)?.back ?? 0;
}

/** The texts of a state's lines and the keys of its actions: an episode's states come back as history at each of its next steps. Read-only. */
const lineTexts = memoWeak((lines: readonly StateLine[]): ReadonlySet<string> => new Set(lines.map((l) => l.text)));
const actionKeys = memoWeak((actions: readonly string[]): ReadonlySet<string> => new Set(actions.map(matchKey)));

function historySources(input: ExperienceInput, views: readonly ExampleView[]): HistorySource[] {
  const out: HistorySource[] = [];
  const seen = new Set<string>([input.state.text]);
  // The examples' next-state headers, the same for every history state.
  const headers = views.map((v) => v.nextBase.filter((l) => l.header && l.key !== 'instruction' && l.key !== 'task'));
  for (let back = 1; back <= Math.min(HISTORY_STATES, input.history.length); back++) {
    const { state } = input.history[input.history.length - back] as HistoryStep;
    if (seen.has(state.text)) continue;
    seen.add(state.text);
    const lines = stateLines(state);
    const texts = lineTexts(lines);
    const agreement = headers.length === 0 ? 0 : headers.reduce((a, h) => a + (h.length === 0 ? 0 : h.filter((l) => texts.has(l.text)).length / h.length), 0) / headers.length;
    out.push({ back, lines, texts, actions: state.actions, actionKeys: actionKeys(state.actions), agreement });
  }
  return out;
}

/** An action's verb: the word before its bracket, else its first word. Memoised (every candidate action asks it). */
const verbOf = memo((action: string): string => {
  const bracket = /^([a-z]+)\[/i.exec(action);
  return (bracket ? bracket[1] : wordsOf(action)[0] ?? 'none')!.toLowerCase();
});

function jaccard(a: readonly string[], b: readonly string[] | ReadonlySet<string>): number {
  const sb = b instanceof Set ? b : new Set(b as readonly string[]);
  if (a.length === 0 || sb.size === 0) return 0;
  const sa = new Set(a);
  let inter = 0;
  for (const t of sa) if (sb.has(t)) inter++;
  return inter / (sa.size + sb.size - inter);
}

function share(part: readonly string[], whole: ReadonlySet<string>): number {
  if (part.length === 0) return 0;
  let n = 0;
  for (const t of part) if (whole.has(t)) n++;
  return n / part.length;
}

interface Edit {
  key: string;
  header: boolean;
  before: string;
  after: string;
  /** The old middle sat at the end (nothing common after it) / start. */
  atEnd: boolean;
  atStart: boolean;
  fromTarget: boolean;
}

/** Pairs of example lines that changed in place (same key, mostly the same words), as edits. */
function exampleEdits(before: readonly StateLine[], after: readonly StateLine[], target: StateLine | undefined): Edit[] {
  const beforeSet = new Set(before.map((l) => l.text));
  const afterSet = new Set(after.map((l) => l.text));
  const gone = before.filter((l) => !afterSet.has(l.text));
  const added = after.filter((l) => !beforeSet.has(l.text));
  const edits: Edit[] = [];
  for (const b of added) {
    const bt = wordsOf(b.text);
    let best: StateLine | undefined;
    let bestScore = 0.5;
    for (const a of gone) {
      if (a.key !== b.key || a.header !== b.header) continue;
      const score = jaccard(wordsOf(a.text), bt);
      if (score > bestScore) {
        best = a;
        bestScore = score;
      }
    }
    if (!best) continue;
    const x = best.text;
    const y = b.text;
    let p = 0;
    while (p < x.length && p < y.length && x[p] === y[p]) p++;
    let s = 0;
    while (s < x.length - p && s < y.length - p && x[x.length - 1 - s] === y[y.length - 1 - s]) s++;
    edits.push({ key: b.key, header: b.header, before: x.slice(p, x.length - s), after: y.slice(p, y.length - s), atEnd: s === 0, atStart: p === 0, fromTarget: target?.text === best.text });
  }
  return edits;
}

/** The edit the other way round, for an edit that only inserted or only removed text (a field). */
function inverseEdit(edit: Edit): Edit | null {
  if (edit.before !== '' && edit.after !== '') return null;
  return { ...edit, before: edit.after, after: edit.before };
}

function applyEdit(line: StateLine, edit: Edit): string | null {
  if (line.key !== edit.key || line.header !== edit.header) return null;
  const text = line.text;
  if (edit.atEnd) return text.endsWith(edit.before) ? text.slice(0, text.length - edit.before.length) + edit.after : null;
  if (edit.atStart) return text.startsWith(edit.before) ? edit.after + text.slice(edit.before.length) : null;
  if (edit.before === '') return null;
  const at = text.indexOf(edit.before);
  return at < 0 ? null : text.slice(0, at) + edit.after + text.slice(at + edit.before.length);
}

/**
 * The words of the task that say what it wants: not the task's largest number (its bound, which
 * the within/above evidence compares against), not words every retrieved task shares. Other
 * numbers stay: a wanted size of 12 or 32gb is a requirement like a wanted colour.
 */
function taskWords(instruction: string, examples: readonly Transition[]): Set<string> {
  const words = new Set(instructionReading(instruction).wanted);
  const shared = sharedWords(examples);
  for (const w of shared) words.delete(w);
  return words;
}

/** The words every retrieved task says (none under two examples); per retrieved list, which the transition's own task and each example's ask for. */
const sharedWords = memoWeak((examples: readonly Transition[]): ReadonlySet<string> => {
  if (examples.length < 2) return new Set();
  const sets = examples.map((e) => new Set(wordsOf(e.instruction)));
  return new Set([...(sets[0] as Set<string>)].filter((w) => sets.every((s) => s.has(w))));
});

/** The plain numbers of a text (`19.99`, not `32gb`). */
function numbers(text: string): number[] {
  return wordsOf(text).filter((t) => /^[0-9]/.test(t)).map(Number).filter(Number.isFinite);
}

/** A task's bound: its largest plain number (a price limit), 0 without one. */
function taskBound(instruction: string): number {
  return Math.max(0, ...numbers(instruction));
}

/**
 * A line's signature for the coverage features: its key, plus its last field when that is one word
 * (`option …| selected`), or the label of a `label: value` text (`text|price`).
 */
function signature(line: StateLine): string {
  const fields = lineFields(line);
  const last = fields[fields.length - 1] ?? '';
  if (fields.length > 1 && /^[a-z]+$/i.test(last)) return `${line.key}|${last.toLowerCase()}`;
  const label = /^([a-z]+):/i.exec(lineValue(line))?.[1];
  return fields.length === 1 && label !== undefined && !line.header ? `${line.key}|${label.toLowerCase()}` : `${line.key}|*`;
}

/**
 * One requirement of the task: a clause of its text with the wanted words it holds. A clause
 * written `name: value` (`scent: unscented`) is *named*: only its value's words must be met, and
 * its name says which lines should hold them (lines with a field equal to the name). Whether a
 * named clause's value is missing from the state means something other than whether a plain
 * clause's words are (a plain one is often met by text the state does not show); the network
 * learns what, from the flag.
 */
interface Clause {
  words: string[];
  /** The words before the colon of a `name: value` clause, '' for a plain one. */
  name: string;
}

/**
 * The task's requirements, as the clauses of its text (split at commas, "and", "with"), each the
 * set of its wanted words. A clause is met by a text that holds all of its words.
 */
function clauses(instruction: string, want: ReadonlySet<string>): Clause[] {
  const out: Clause[] = [];
  for (const part of instructionReading(instruction).parts) {
    const value = part.name !== '' ? part.value.filter((w) => want.has(w)) : [];
    const words = value.length > 0 ? value : part.all.filter((w) => want.has(w));
    if (words.length > 0) out.push({ words, name: value.length > 0 ? part.name : '' });
  }
  return out;
}

/**
 * What taskRequirements reads of an instruction before it knows which words the retrieved tasks
 * share: its bound, the words that could be wanted, and its clauses' words. Memoised: the same
 * instructions are read for every transition and every example of theirs.
 */
const instructionReading = memo((instruction: string) => {
  const bound = taskBound(instruction);
  return {
    bound,
    wanted: wordsOf(instruction).filter((t) => (/^[0-9]/.test(t) ? Number(t) !== bound : t.length > 1)),
    parts: instruction
      .toLowerCase()
      .split(/,|\band\b|\bwith\b|\bthen\b/)
      .map((part) => {
        const colon = part.indexOf(':');
        const name = colon > 0 ? wordsOf(part.slice(0, colon)).join(' ') : '';
        return { name, value: name !== '' ? wordsOf(part.slice(colon + 1)) : [], all: wordsOf(part) };
      }),
  };
}, 1 << 12);

/** Share of the clauses whose every word the set holds. */
function clausesMet(parts: readonly Clause[], have: ReadonlySet<string>): number {
  return parts.length === 0 ? 0 : parts.filter((c) => c.words.every((w) => have.has(w))).length / parts.length;
}

/** What a task asks for, worked out once per transition (and per example, against its own task). */
interface TaskRequirements {
  words: string[];
  clauses: Clause[];
  bound: number;
}

function taskRequirements(instruction: string, examples: readonly Transition[]): TaskRequirements {
  const want = taskWords(instruction, examples);
  return { words: [...want], clauses: clauses(instruction, want), bound: instructionReading(instruction).bound };
}

export const SIGNATURE_BUCKETS = 16;

interface ExampleView {
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

export interface ActionContext {
  input: ExperienceInput;
  views: ExampleView[];
  history: HistorySource[];
  targetPhrases: string[];
  headerValues: string[];
  verb: string;
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

function viewOf(example: Transition, ours: AnalogySide, ourHighestNumber: number, verb: string, ourTask: string, things: ReadonlySet<string>): ExampleView {
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

/** Candidates for the next state's lines, and the transition row, for one input. */
/** `things`: the names numbered things go by in the model's data (see `analogy`). */
export function transitionCandidates(input: ExperienceInput, things: ReadonlySet<string> = new Set()): TransitionCandidates {
  const instruction = input.task.instruction;
  const current = stateLines(input.state);
  const verb = verbOf(input.action);
  const target = targetLine(current, input.action);
  const ourTask = taskForm(instruction, input.action);
  const ours: AnalogySide = { instruction, lines: current, action: input.action, target };
  const ourHighestNumber = highestElementNumber(current);
  const views = input.examples.map((e) => viewOf(e, ours, ourHighestNumber, verb, ourTask, things));
  const K = Math.max(1, views.length);
  const actionWords = wordsOf(input.action);
  const actionWordSet = new Set(actionWords);
  const instructionWords = new Set(wordsOf(instruction));
  const targetFields = target ? lineFields(target).slice(1) : [];
  // What the action names: its target element's first field and its bracket argument.
  const argument = /\[(.*)\]$/.exec(input.action)?.[1] ?? '';
  const targetPhrases = [...(target ? [lineFields(target)[0] as string] : []), ...(argument !== '' ? [argument] : [])].map((p) => p.toLowerCase());

  interface Draft {
    line: StateLine;
    positions: Map<number, number>;
    origin: number;
    inCurrent: boolean;
    edits: number;
    editRole: number;
    /** Examples whose edit, undone, gives this line (a mark taken off a current line). */
    undos: number;
    base: number[];
    wide: number[];
    raw: number;
    fresh: number;
  }
  // One draft per line (header or element, by text), in the order first met. Looked up by the
  // line's own text rather than a key built from it: the texts come from memoised states and
  // keep their hashes, a built key is hashed anew at every lookup.
  const drafts: Draft[] = [];
  const draftsByText = { header: new Map<string, Draft>(), element: new Map<string, Draft>() };
  const draft = (line: StateLine, source: number, position: number, origin: number): Draft => {
    const byText = line.header ? draftsByText.header : draftsByText.element;
    let d = byText.get(line.text);
    if (!d) {
      d = { line, positions: new Map(), origin, inCurrent: false, edits: 0, editRole: 0, undos: 0, base: new Array<number>(views.length).fill(0), wide: new Array<number>(views.length).fill(0), raw: 0, fresh: 0 };
      byText.set(line.text, d);
      drafts.push(d);
    }
    if (!d.positions.has(source)) d.positions.set(source, position);
    return d;
  };
  current.forEach((line, i) => {
    draft(line, CURRENT, i, i).inCurrent = true;
  });
  views.forEach((view, r) => {
    view.nextBase.forEach((line, i) => {
      const d = draft(line, 1 + r, i, -1);
      d.base[r] = 1;
      if (!view.stateBase.has(line.text)) d.fresh++;
    });
    view.nextWide.forEach((line, i) => {
      draft(line, 1 + r, i, -1).wide[r] = 1;
    });
    const rawNext = view.facts.nextTexts;
    for (const d of drafts) if (rawNext.has(d.line.text)) d.raw++;
    const edits = view.facts.edits;
    // Every current line an edit changes becomes a candidate that competes with the line it came from.
    const applyToCurrent = (edit: Edit, mark: (d: Draft, line: StateLine) => void): void =>
      current.forEach((line, i) => {
        const text = applyEdit(line, edit);
        if (text !== null && text !== line.text) mark(draft({ ...line, text: view.map(text) }, CURRENT, i, i), line);
      });
    for (const edit of edits) {
      applyToCurrent(edit, (d, line) => {
        d.edits++;
        if (edit.fromTarget === (target?.text === line.text)) d.editRole++;
      });
      // An example that added a field (`| selected`) also shows the field can go: choosing another
      // value of a kind takes the mark off the old one, which the examples (first choices) never show.
      const inverse = inverseEdit(edit);
      if (inverse) applyToCurrent(inverse, (d) => d.undos++);
    }
  });

  const history = historySources(input, views);
  const exampleActionWords = new Set(views.flatMap((v) => wordsOf(v.example.action)));
  const actionTemplate = (views.length === 0 ? actionWords : actionWords.filter((w) => exampleActionWords.has(w))).slice(0, 3).join(' ');
  for (const source of history) source.lines.forEach((line, i) => draft(line, HISTORY_SOURCE + source.back, i, -1));

  const keyCounts = new Map<string, number>();
  for (const d of drafts) keyCounts.set(d.line.key, (keyCounts.get(d.line.key) ?? 0) + 1);
  const currentKeys = new Set(current.map((l) => l.key));
  const sameVerbShare = views.filter((v) => v.sameVerb).length / K;

  const persistAll = meanOver(views, (v) => v.facts.lines.all);
  const persistByKey = meanByKey(views.map((v) => v.facts.lines.by));
  const lines: LineCandidate[] = [];
  for (const d of drafts) {
    const words = wordsOf(d.line.text);
    const fields = lineFields(d.line);
    const persistKey = persistByKey.get(d.line.key) ?? 0;
    const lower = d.line.text.toLowerCase();
    const dense = [
      d.line.header ? 1 : 0,
      d.inCurrent ? 1 : 0,
      d.edits > 0 ? 1 : 0,
      d.editRole / K,
      d.edits / K,
      d.undos / K,
      d.base.reduce((a, b) => a + b, 0) / K,
      d.wide.reduce((a, b) => a + b, 0) / K,
      d.raw / K,
    ];
    // Pushed rather than spread: a prediction builds some thousands of these rows.
    pushSlots(dense, d.base);
    pushSlots(dense, d.wide);
    dense.push(
      d.fresh / K,
      persistKey,
      persistAll,
      targetPhrases.some((p) => containsPhrase(lower, p)) ? 1 : 0,
      target !== undefined && d.origin >= 0 && current[d.origin]?.text === target.text ? 1 : 0,
      jaccard(words, actionWordSet),
      share(words, instructionWords),
      targetFields.some((f) => f.length > 1 && fields.indexOf(f, 1) >= 0) ? 1 : 0,
      Math.min(1, (keyCounts.get(d.line.key) ?? 0) / 20),
      currentKeys.has(d.line.key) ? 1 : 0,
      sameVerbShare,
      views.length / RANK_SLOTS,
      d.origin >= 0 && !d.inCurrent ? 1 : 0,
    );
    pushHistoryFlags(dense, history, (h) => h.texts.has(d.line.text));
    const kind = d.inCurrent ? 'cur' : d.edits > 0 ? 'edit' : d.undos > 0 ? 'undo' : d.base.some((b) => b > 0) || d.wide.some((b) => b > 0) ? 'ex' : 'hist';
    const lastField = fields.length > 1 ? (fields[fields.length - 1] as string).toLowerCase() : '';
    lines.push({
      line: d.line,
      positions: d.positions,
      origin: d.origin,
      features: {
        dense,
        hashed: [
          ['kv', d.line.key, verb],
          ['ks', d.line.key, kind, d.line.header ? 'h' : 'e'],
          ['w2', words.slice(0, 2).join(' '), verb],
          ['lf', d.line.key, lastField.split(' ').length <= 2 ? lastField : '*'],
          // Which history state holds the line, with the action's words the examples' actions share
          // (`click prev`, but `click` for a product, whose own name would hash to a bucket seen once):
          // `< Prev` learns to mean "one back", opening another product learns not to.
          ['hb', String(nearestBack(history, (h) => h.texts.has(d.line.text))), actionTemplate],
        ],
      },
    });
  }

  const headerValues = current.filter((l) => l.header && l.key !== 'instruction' && l.key !== 'task').map((l) => lineValue(l).toLowerCase()).filter((v) => v.length > 1);
  const sources = reasoningSources(
    input,
    views.map((v) => ({ ...v.example, map: v.reasoningMap, sameVerb: v.sameVerb, sameTask: v.sameTask })),
  );
  return {
    lines,
    actionContext: { input, views, history, targetPhrases, headerValues, verb },
    reasoning: reasoningCandidates(input, sources),
    reasoningSources: sources,
    transition: transitionFeatures(input, current, target, views, verb),
    headerKeys: expectedHeaderKeys(current, views),
  };
}

function expectedHeaderKeys(current: readonly StateLine[], views: readonly ExampleView[]): string[] {
  const own = current.filter((l) => l.header).map((l) => l.key);
  if (views.length === 0) return own;
  const votes = new Map<string, number>();
  for (const view of views) for (const key of new Set(view.nextBase.filter((l) => l.header).map((l) => l.key))) votes.set(key, (votes.get(key) ?? 0) + 1);
  const wanted = [...votes].filter(([, n]) => n * 2 > views.length).map(([key]) => key);
  return [...own.filter((k) => wanted.includes(k)), ...wanted.filter((k) => !own.includes(k))];
}

/** The first RANK_SLOTS values, one per example rank (0 past the last example), pushed onto `out`. */
function pushSlots(out: number[], values: readonly number[]): void {
  for (let i = 0; i < RANK_SLOTS; i++) out.push(i < values.length ? (values[i] as number) : 0);
}

/** The mean of a value over the views, 0 without any. */
function meanOver(views: readonly ExampleView[], value: (v: ExampleView) => number): number {
  return views.length === 0 ? 0 : views.reduce((a, v) => a + value(v), 0) / views.length;
}

/** Per key, its mean over the maps (a map without the key counts 0); summed in the maps' order. */
function meanByKey(maps: readonly ReadonlyMap<string, number>[]): Map<string, number> {
  const sums = new Map<string, number>();
  for (const map of maps) for (const [key, value] of map) sums.set(key, (sums.get(key) ?? 0) + value);
  for (const [key, sum] of sums) sums.set(key, sum / maps.length);
  return sums;
}

export const HISTORY_BUCKETS = 64;

/**
 * How much of a task a state's lines meet, per line signature. Each signature lands in two
 * buckets of different hashes (a count-min sketch), so two signatures that collide in one
 * rarely collide in both and the network can tell them apart.
 */
interface Evidence {
  /** Share of the task's words the lines of each bucket hold. */
  coverage: number[];
  /** Share of the task's clauses the lines of each bucket meet. */
  clauses: number[];
  /** Whether a number in the bucket's lines is within / above the task's largest number (its bound). */
  within: number[];
  above: number[];
}

export const EVIDENCE_WIDTH = 2 * SIGNATURE_BUCKETS;

function signatureBuckets(line: StateLine): [number, number] {
  const s = signature(line);
  return [hashBucket(s, SIGNATURE_BUCKETS), SIGNATURE_BUCKETS + hashBucket(`#${s}`, SIGNATURE_BUCKETS)];
}

interface BucketContents {
  byBucket: Map<number, { words: Set<string>; numbers: number[] }>;
  words: Set<string>;
  /** Every field of every line, as its words joined by one space (what a named clause's name is compared with). */
  fields: Set<string>;
}

/** The words and numbers of a state's lines per signature bucket, all its words and all its fields (the task's own lines left out). */
function bucketContents(lines: readonly StateLine[]): BucketContents {
  const byBucket: BucketContents['byBucket'] = new Map();
  const all = new Set<string>();
  const fields = new Set<string>();
  for (const line of lines) {
    if (line.header && (line.key === 'instruction' || line.key === 'task')) continue;
    const value = lineValue(line);
    const words = wordsOf(value);
    for (const w of words) all.add(w);
    for (const field of lineFields(line)) fields.add(wordsOf(field).join(' '));
    const valueNumbers = numbers(value);
    for (const bucket of signatureBuckets(line)) {
      const entry = byBucket.get(bucket) ?? { words: new Set<string>(), numbers: [] };
      for (const w of words) entry.words.add(w);
      entry.numbers.push(...valueNumbers);
      byBucket.set(bucket, entry);
    }
  }
  return { byBucket, words: all, fields };
}

/**
 * A state's bucket contents, by its text: the same examples are retrieved for many inputs, and a
 * state is asked about once per action taken from it (lanes, fitting). Read-only.
 */
const stateContents = memo((text: string): BucketContents => bucketContents(stateLines(text)), 1 << 12);

/** A number that could be a price under the bound / over it (within a factor of 20, so counts and ratings rarely pass). */
const withinBound = (ns: readonly number[], bound: number): number => (ns.some((x) => x <= bound && x >= bound / 20) ? 1 : 0);
const aboveBound = (ns: readonly number[], bound: number): number => (ns.some((x) => x > bound && x <= bound * 20) ? 1 : 0);

function requirementEvidence(task: TaskRequirements, contents: BucketContents): Evidence {
  const evidence: Evidence = { coverage: new Array<number>(EVIDENCE_WIDTH).fill(0), clauses: new Array<number>(EVIDENCE_WIDTH).fill(0), within: new Array<number>(EVIDENCE_WIDTH).fill(0), above: new Array<number>(EVIDENCE_WIDTH).fill(0) };
  for (const [bucket, entry] of contents.byBucket) {
    evidence.coverage[bucket] = share(task.words, entry.words);
    evidence.clauses[bucket] = clausesMet(task.clauses, entry.words);
    if (task.bound > 0) {
      evidence.within[bucket] = withinBound(entry.numbers, task.bound);
      evidence.above[bucket] = aboveBound(entry.numbers, task.bound);
    }
  }
  return evidence;
}

/** Requirement slots per transition (the bound first, then the task's clauses in order). */
export const CLAUSE_SLOTS = 8;
/**
 * Per slot: valid, is-the-bound, word share per bucket, within / above per bucket, share in the
 * acted text, in the state, clause length, whether the clause is named (`name: value`), whether a
 * line of the state has a field equal to its name.
 */
export const CLAUSE_FEATURES = 2 + 3 * EVIDENCE_WIDTH + 5;

/**
 * One row per requirement of the task, for the transition head's requirement sub-network (each
 * requirement scored on its own, the reward scaled by their mean; network.ts): a clause of the
 * task's wanted words with where the state holds them, and the task's bound (its largest number)
 * with where the state's numbers stand against it. Slots beyond the task's requirements are zero.
 */
function requirementRows(task: TaskRequirements, contents: BucketContents, actedText: string): number[] {
  const out = new Array<number>(CLAUSE_SLOTS * CLAUSE_FEATURES).fill(0);
  const { byBucket, words: stateWords, fields } = contents;
  const acted = new Set(wordsOf(actedText));
  const { bound } = task;
  let slot = 0;
  const base = (): number => slot * CLAUSE_FEATURES;
  if (bound > 0) {
    const o = base();
    out[o] = 1;
    out[o + 1] = 1;
    for (const [bucket, entry] of byBucket) {
      out[o + 2 + EVIDENCE_WIDTH + bucket] = withinBound(entry.numbers, bound);
      out[o + 2 + 2 * EVIDENCE_WIDTH + bucket] = aboveBound(entry.numbers, bound);
    }
    slot++;
  }
  for (const { words, name } of task.clauses) {
    if (slot >= CLAUSE_SLOTS) break;
    const o = base();
    out[o] = 1;
    for (const [bucket, entry] of byBucket) out[o + 2 + bucket] = share(words, entry.words);
    out[o + 2 + 3 * EVIDENCE_WIDTH] = share(words, acted);
    out[o + 3 + 3 * EVIDENCE_WIDTH] = share(words, stateWords);
    out[o + 4 + 3 * EVIDENCE_WIDTH] = Math.min(1, words.length / 5);
    out[o + 5 + 3 * EVIDENCE_WIDTH] = name !== '' ? 1 : 0;
    out[o + 6 + 3 * EVIDENCE_WIDTH] = name !== '' && fields.has(name) ? 1 : 0;
    slot++;
  }
  return out;
}

function transitionFeatures(input: ExperienceInput, current: readonly StateLine[], target: StateLine | undefined, views: readonly ExampleView[], verb: string): Features {
  const K = Math.max(1, views.length);
  const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
  const rewards = views.map((v) => v.example.reward);
  const dones = views.map((v) => (v.example.done ? 1 : 0));
  const same = views.filter((v) => v.sameVerb);
  const exact = views.filter((v) => matchKey(v.example.action) === matchKey(input.action));
  const task = taskRequirements(input.task.instruction, input.examples);
  const cover = (text: string): number => share(task.words, new Set(wordsOf(text)));
  const met = (text: string): number => clausesMet(task.clauses, new Set(wordsOf(text)));
  const historyText = input.history.map((h) => h.action).join(' ');
  const contents = stateContents(input.state.text);
  const ours = requirementEvidence(task, contents);
  // The same evidence for the examples that took this action (else all), each against its own
  // task: the difference says how this state stands where the example's reward came from (an
  // example bought with the options its task wanted selected; this state has none selected).
  const peers = exact.length > 0 ? exact : views;
  const peerEvidence = peers.map((v) => requirementEvidence(taskRequirements(v.example.instruction, input.examples), stateContents(v.example.state.text)));
  const delta = (field: keyof Evidence): number[] =>
    ours[field].map((x, b) => (peerEvidence.length === 0 ? 0 : x - peerEvidence.reduce((a, e) => a + (e[field][b] as number), 0) / peerEvidence.length));
  const stateText = current.filter((l) => !(l.header && (l.key === 'instruction' || l.key === 'task'))).map((l) => l.text).join(' ');
  const names = taskNames(input.task.instruction);
  const dense = [
    // First, filled in by withReasoning once the reasoning head has chosen.
    ...new Array<number>(REASONING_SUMMARY_DENSE).fill(0),
    mean(rewards),
    rewards[0] ?? 0,
    mean(dones),
    dones[0] ?? 0,
    mean(same.map((v) => v.example.reward)),
    mean(same.map((v) => (v.example.done ? 1 : 0))),
    same.length / K,
    mean(exact.map((v) => v.example.reward)),
    exact.length / K,
    cover(stateText),
    cover(`${historyText} ${input.action}`),
    cover(input.action),
    target ? cover(target.text) : 0,
    matchAdmissible(input.action, input.state.actions) !== null ? 1 : 0,
    Math.min(1, input.history.length / 50),
    Math.min(1, task.words.length / 30),
    ...ours.coverage,
    ...ours.within,
    ...ours.above,
    ...ours.clauses,
    met(stateText),
    met(`${historyText} ${input.action}`),
    Math.min(1, task.clauses.length / 8),
    mean(peers.map((v) => v.example.reward)),
    ...delta('coverage'),
    ...delta('clauses'),
    ...delta('within'),
    ...delta('above'),
    ...taskRelativeEvidence(input, views),
    // Last, as the network slices them off for its requirement sub-network.
    ...requirementRows(task, contents, `${historyText} ${input.action}`),
  ];
  return {
    dense,
    hashed: [
      // Empty (no bucket) until withReasoning puts the chosen sentences' forms here.
      ...new Array<string>(REASONING_SUMMARY_SLOTS).fill(''),
      ['h', String(Math.min(HISTORY_BUCKETS - 1, input.history.length))],
      ['v', verb],
      ['tk', target?.key ?? 'none', verb],
      ...wordsOf(input.action).slice(0, 6).map((w) => ['aw', w]),
      // The action and the history's task-naming steps relative to this task (task-relative.ts).
      ['ra', relativeForm(input.action, names)],
      ['tf', taskAsks(input.task.instruction, input.action)],
      ...relativeHistory(input.history.slice(-RELATIVE_HISTORY_WINDOW).map((h) => h.action), names).slice(-RELATIVE_HISTORY_SLOTS).map((f) => ['rh', f]),
    ],
  };
}

/**
 * How far back the history's task-naming steps are read, and how many of them are hashed (the
 * latest): with the reasoning's 2, the 3 fixed strings, 6 action words, the relative action and what
 * the task asks beyond it, 19 (HASH_SLOTS.transition).
 */
const RELATIVE_HISTORY_WINDOW = 30;
const RELATIVE_HISTORY_SLOTS = 6;
/** The transition row with what the reasoning head chose (reasoningSummary) in its reserved places. */
export function withReasoning(transition: Features, summary: { dense: readonly number[]; hashed: readonly HashedFeature[] }): Features {
  // One copy of the row, its reserved places overwritten (the summary fills exactly those).
  const dense = transition.dense.slice();
  for (let i = 0; i < REASONING_SUMMARY_DENSE; i++) dense[i] = summary.dense[i] ?? 0;
  return {
    dense,
    hashed: [...Array.from({ length: REASONING_SUMMARY_SLOTS }, (_, i) => summary.hashed[i] ?? ''), ...transition.hashed.slice(REASONING_SUMMARY_SLOTS)],
  };
}

/** The dense values taskRelativeEvidence adds. */
export const TASK_RELATIVE_DENSE = 11;

/**
 * The examples that took this action *relative to their own task* (its task-naming words as `·`),
 * split by reward, with what both readers of them ask: how much of a rewarded (or unrewarded) one's
 * task-naming history ours repeats, and how often each had taken it before.
 */
function analogousSteps(input: ExperienceInput, views: readonly ExampleView[]) {
  const names = taskNames(input.task.instruction);
  const ours = relativeForm(input.action, names);
  const history = input.history.map((h) => h.action);
  const alike = views.filter((v) => relativeForm(v.example.action, taskNames(v.example.instruction)) === ours);
  return {
    ours,
    alike,
    rewarded: alike.filter((v) => v.example.reward > 0.5),
    unrewarded: alike.filter((v) => v.example.reward <= 0.5),
    /** Times ours took it before this step. */
    taken: timesTaken(ours, history, names),
    repeated: (v: ExampleView): number => preparationRepeated(history, names, v.example.history, taskNames(v.example.instruction)),
    takenBy: (v: ExampleView): number => timesTaken(ours, v.example.history, taskNames(v.example.instruction)),
  };
}

/**
 * What the examples that took this action relative to their own task say: how many did, their
 * mean reward and done, and how much of the task-naming history of a rewarded (and of an
 * unrewarded) one ours repeats. A rewarded example that cleaned its object before putting it where
 * its task wanted speaks for a put here only if this history cleaned ours too. Then the same for
 * those of them whose task is of our kind (taskForm), -1 where there is none.
 */
function taskRelativeEvidence(input: ExperienceInput, views: readonly ExampleView[]): number[] {
  const { ours, alike, rewarded, unrewarded, taken, repeated, takenBy } = analogousSteps(input, views);
  const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
  const takenByRewarded = rewarded.map(takenBy);
  // Of those, the ones whose task reads as ours relative to their action (taskForm): the same kind of task.
  const sameTask = alike.filter((v) => v.sameTask);
  return [
    alike.length / Math.max(1, views.length),
    mean(alike.map((v) => v.example.reward)),
    mean(alike.map((v) => (v.example.done ? 1 : 0))),
    namesTask(ours) ? 1 : 0,
    Math.max(0, ...rewarded.map(repeated)),
    Math.max(0, ...unrewarded.map(repeated)),
    taken / 2,
    // Whether we took it as often before as a rewarded example had (1), more or fewer (0); -1 without one.
    takenByRewarded.length === 0 ? -1 : takenByRewarded.some((n) => n === taken) ? 1 : 0,
    sameTask.length / Math.max(1, views.length),
    sameTask.length === 0 ? -1 : mean(sameTask.map((v) => v.example.reward)),
    sameTask.length === 0 ? -1 : mean(sameTask.map((v) => (v.example.done ? 1 : 0))),
  ];
}

/**
 * Whether a retrieved example vouches for a success here: one that took this action relative to its
 * own task, was rewarded, and whose task-naming preparation ours repeated, as often. A model that
 * imagines predicts no success without one (see NeuralExperienceModel.predict): a policy trained in
 * a dream goes wherever the model is wrong, and a home dream's policy learned to put the wrong
 * object, or the right one uncleaned, where an example of another task had been paid.
 */
export function successSupported(input: ExperienceInput, views: readonly ExampleView[]): boolean {
  const { rewarded, taken, repeated, takenBy } = analogousSteps(input, views);
  return rewarded.some((v) => repeated(v) === 1 && takenBy(v) === taken);
}

/**
 * Candidates for the next admissible actions, given the lines of the predicted (or, in training,
 * the candidate) next state: current actions, examples' next actions carried over, and template
 * actions filled with those lines' first fields.
 */
export function actionCandidates(context: ActionContext, nextLines: readonly StateLine[]): ActionCandidate[] {
  const { views, history, targetPhrases, headerValues, verb, input } = context;
  const K = Math.max(1, views.length);
  interface Draft {
    action: string;
    /** matchKey(action), the draft's key. */
    key: string;
    inCurrent: boolean;
    base: number[];
    wide: number[];
    raw: number;
    template: number;
  }
  const drafts = new Map<string, Draft>();
  const draft = (action: string, known?: string): Draft => {
    const key = known ?? matchKey(action);
    let d = drafts.get(key);
    if (!d) {
      d = { action, key, inCurrent: false, base: new Array<number>(views.length).fill(0), wide: new Array<number>(views.length).fill(0), raw: 0, template: 0 };
      drafts.set(key, d);
    }
    return d;
  };
  for (const a of input.state.actions) draft(a).inCurrent = true;
  for (const h of history) for (const a of h.actions) draft(a);
  const byKind = new Map<string, string[]>();
  for (const line of nextLines) {
    if (line.header) continue;
    const first = lineFields(line)[0] ?? '';
    if (first.length < 2) continue;
    const list = byKind.get(line.key) ?? [];
    list.push(first);
    byKind.set(line.key, list);
  }
  views.forEach((view, r) => {
    const { nextActionLower, nextActionKeyList } = view.facts;
    view.example.next.actions.forEach((a, i) => {
      // An action its maps leave as it is keeps the key worked out with the example.
      const based = view.map(a, nextActionLower[i]);
      draft(based, based === a ? nextActionKeyList[i] : undefined).base[r] = 1;
      const wide = view.wideMap(a, nextActionLower[i]);
      draft(wide, wide === a ? nextActionKeyList[i] : undefined).wide[r] = 1;
    });
    const rawSet = view.facts.nextActionKeys;
    for (const d of drafts.values()) if (rawSet.has(d.key)) d.raw++;
    // Templates: an example action that names one of its next state's elements, with that name as a hole.
    const seen = new Set<string>();
    for (const { key, hole } of view.facts.holes) {
      const template = view.wideMap(hole);
      const id = `${key}\u0001${template}`;
      if (seen.has(id)) continue;
      seen.add(id);
      for (const name of byKind.get(key) ?? []) draft(template.replace('\u0000', name)).template++;
    }
  });
  const persist = meanOver(views, (v) => v.facts.actions.all);
  const persistByVerb = meanByKey(views.map((v) => v.facts.actions.by));
  const inputKey = matchKey(input.action);
  const sameVerbShare = views.filter((v) => v.sameVerb).length / K;
  const out: ActionCandidate[] = [];
  for (const d of drafts.values()) {
    const lower = d.action.toLowerCase();
    const aVerb = verbOf(d.action);
    const persistVerb = persistByVerb.get(aVerb) ?? 0;
    const dense = [d.inCurrent ? 1 : 0, d.base.reduce((a, b) => a + b, 0) / K, d.wide.reduce((a, b) => a + b, 0) / K, d.raw / K];
    pushSlots(dense, d.base);
    pushSlots(dense, d.wide);
    dense.push(
      d.template > 0 ? 1 : 0,
      Math.min(1, d.template / K),
      d.key === inputKey ? 1 : 0,
      targetPhrases.some((p) => containsPhrase(lower, p)) ? 1 : 0,
      headerValues.some((v) => containsPhrase(lower, v)) ? 1 : 0,
      persist,
      persistVerb,
      sameVerbShare,
      views.length / RANK_SLOTS,
    );
    pushHistoryFlags(dense, history, (h) => h.actionKeys.has(d.key));
    out.push({
      action: d.action,
      features: {
        dense,
        hashed: [['av', aVerb, verb], ['aw2', wordsOf(d.action).slice(0, 2).join(' '), verb], ['as', d.inCurrent ? 'cur' : d.template > 0 ? 'tpl' : 'ex', verb]],
      },
    });
  }
  return out;
}
