/**
 * Candidates for one transition (task, history, state, action, retrieved examples): what the next
 * state could be made of, each with the evidence for it, and what the other heads read.
 *
 * - lines: every current line (the action may change nothing); every line of every example's next
 *   state carried over by the analogy (analogy.ts); every current line with an edit an example made
 *   to one of its own lines (`option: 8 oz | size` → `option: 8 oz | size | selected`), and with
 *   such an edit undone where it only added a field (the mark taken off another value's line;
 *   example-edits.ts); the lines of the latest states of the episode (history-sources.ts);
 * - actions: worked out from the chosen lines by action-candidates.ts, from the context given here;
 * - one row of transition features for the reward and done heads (transition-features.ts).
 *
 * Features are numbers (dense) plus short texts hashed into buckets (features.ts). The network decides;
 * nothing here names a page, a command or an environment.
 */
import type { ExperienceInput } from '../types.ts';
import type { ActionContext } from './action-candidates.ts';
import { verbOf } from './action-keys.ts';
import { type AnalogySide, targetLine } from './analogy.ts';
import { highestElementNumber } from './element-numbers.ts';
import { applyEdit, inverseEdit, type Edit } from './example-edits.ts';
import { viewOf, type ExampleView } from './example-view.ts';
import type { Features } from './features.ts';
import { historySources, pushHistoryFlags } from './history-sources.ts';
import { lineFields, lineValue, stateLines, wordsOf, type StateLine } from './lines.ts';
import { memo } from './memo.ts';
import { containsPhrase } from './phrase-map.ts';
import { meanByKey, meanOver, pushSlots, RANK_SLOTS } from './rank-slots.ts';
import { reasoningCandidates, reasoningSources, type ReasoningCandidate, type ReasoningSource } from './reasoning.ts';
import { taskForm } from './task-relative.ts';
import { transitionFeatures } from './transition-features.ts';
import { jaccardOfDistinct, share } from './word-overlap.ts';

export interface LineCandidate {
  line: StateLine;
  features: Features;
  /** Where the line sits in each source that has it (0: the current state, 1 + i: example i), for ordering. */
  positions: Map<number, number>;
  /** Index of the current line an edit was applied to (-1 for none); candidates from one line compete. */
  origin: number;
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

/**
 * What a line candidate's features read of its text, worked out once per text: its words (and how
 * many distinct), its lower case, its fields, its first two words and its last field as the `lf`
 * feature spells it. A prediction builds some thousands of candidates from lines that recur (the
 * current state's, the history's, an example's that its map leaves as they were); reading each
 * afresh was a memo lookup apiece and a new string or set for most.
 */
interface LineReading {
  words: readonly string[];
  distinctWords: readonly string[];
  lower: string;
  fields: readonly string[];
  firstTwoWords: string;
  lastField: string;
}

function readLine(line: StateLine): LineReading {
  const words = wordsOf(line.text);
  const fields = lineFields(line);
  const last = fields.length > 1 ? (fields[fields.length - 1] as string).toLowerCase() : '';
  return { words, distinctWords: [...new Set(words)], lower: line.text.toLowerCase(), fields, firstTwoWords: words.slice(0, 2).join(' '), lastField: last.split(' ').length <= 2 ? last : '*' };
}

// By text, header and element lines apart: a header line's fields are its whole value.
const elementReadings = memo((text: string) => readLine({ text, header: false, key: '' }));
const headerReadings = memo((text: string) => readLine({ text, header: true, key: '' }));

function lineReading(line: StateLine): LineReading {
  return (line.header ? headerReadings : elementReadings)(line.text);
}

/** Source ids for ordering: 0 is the current state, 1 + i example i, HISTORY_SOURCE + j the state j steps back. */
const CURRENT = 0;
const HISTORY_SOURCE = 1000;

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
  const open = input.action.indexOf('[');
  const argument = open >= 0 && input.action.endsWith(']') && !input.action.includes('\n') ? input.action.slice(open + 1, -1) : '';
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
    const { words, distinctWords, lower, fields, firstTwoWords, lastField } = lineReading(d.line);
    const persistKey = persistByKey.get(d.line.key) ?? 0;
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
      jaccardOfDistinct(distinctWords, actionWordSet),
      share(words, instructionWords),
      targetFields.some((f) => f.length > 1 && fields.indexOf(f, 1) >= 0) ? 1 : 0,
      Math.min(1, (keyCounts.get(d.line.key) ?? 0) / 20),
      currentKeys.has(d.line.key) ? 1 : 0,
      sameVerbShare,
      views.length / RANK_SLOTS,
      d.origin >= 0 && !d.inCurrent ? 1 : 0,
    );
    const back = pushHistoryFlags(dense, history, (h) => h.texts.has(d.line.text));
    const kind = d.inCurrent ? 'cur' : d.edits > 0 ? 'edit' : d.undos > 0 ? 'undo' : d.base.some((b) => b > 0) || d.wide.some((b) => b > 0) ? 'ex' : 'hist';
    lines.push({
      line: d.line,
      positions: d.positions,
      origin: d.origin,
      features: {
        dense,
        hashed: [
          ['kv', d.line.key, verb],
          ['ks', d.line.key, kind, d.line.header ? 'h' : 'e'],
          ['w2', firstTwoWords, verb],
          ['lf', d.line.key, lastField],
          // Which history state holds the line, with the action's words the examples' actions share
          // (`click prev`, but `click` for a product, whose own name would hash to a bucket seen once):
          // `< Prev` learns to mean "one back", opening another product learns not to.
          ['hb', String(back), actionTemplate],
        ],
      },
    });
  }

  const headerValues = current.filter((l) => l.header && l.key !== 'instruction' && l.key !== 'task').map((l) => lineValue(l).toLowerCase()).filter((v) => v.length > 1);
  const sources = reasoningSources(
    input,
    // The fields it reads, not a copy of the whole example (every field of every example, each prediction).
    views.map(({ example: e, reasoningMap, sameVerb, sameTask }) => ({ reasoning: e.reasoning, reward: e.reward, done: e.done, action: e.action, instruction: e.instruction, history: e.history, map: reasoningMap, sameVerb, sameTask })),
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
