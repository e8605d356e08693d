/**
 * The analogy ("phrase map") that carries a retrieved example's outcome over to the current
 * transition: its task, its action and the element its action names aligned with ours. Nothing
 * here knows an environment: phrases are aligned by position in the action and the state's header,
 * and by the element the action names.
 */
import { spelledTokens } from '../../core/text.ts';
import { unnumbered } from './element-numbers.ts';
import { lineFields, lineValue, wordsOf, type StateLine } from './lines.ts';
import { memo } from './memo.ts';
import { containsPhrase, type PhraseMap } from './phrase-map.ts';

const BRACKET = /^([a-z]+)\[(.*)\]$/is;

function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => w !== '');
}

/**
 * Align two actions phrase by phrase. `verb[argument]` actions map argument to argument; command
 * strings of equal length map each run of differing words; otherwise what lies between the common
 * first and last words is mapped.
 */
export function alignActions(from: string, to: string): PhraseMap {
  const a = BRACKET.exec(from.trim());
  const b = BRACKET.exec(to.trim());
  if (a && b) {
    const x = (a[2] as string).trim();
    const y = (b[2] as string).trim();
    if (x === y) return [];
    // Field by field too (`#23 To | mateo.costa@example.org` → `#23 To | ivan.santos@example.org`):
    // the next state shows the typed or chosen value alone (`value: ivan.santos@example.org`).
    const xs = x.split(' | ');
    const ys = y.split(' | ');
    const fields: PhraseMap = xs.length === ys.length && xs.length > 1 ? xs.flatMap((f, i): PhraseMap => (f !== ys[i] && f.trim().length > 1 ? [[f.trim(), (ys[i] as string).trim()]] : [])) : [];
    return [[x, y], ...fields];
  }
  const x = words(from);
  const y = words(to);
  if (x.length === y.length) return differingRuns(x, y);
  const pairs: PhraseMap = [];
  let start = 0;
  while (start < x.length && start < y.length && x[start] === y[start]) start++;
  let end = 0;
  while (end < x.length - start && end < y.length - start && x[x.length - 1 - end] === y[y.length - 1 - end]) end++;
  const mid = [x.slice(start, x.length - end).join(' '), y.slice(start, y.length - end).join(' ')] as [string, string];
  if (mid[0] !== '' && mid[1] !== '') pairs.push(mid);
  return pairs;
}

/**
 * Two tasks of one template ("put a hot apple in garbagecan." and "put a hot mug in cabinet.") map
 * word for word: each run of differing words of the example's task becomes ours. An example's next
 * state then shows our task's object where the example found its own. Without it a predicted room
 * holds only other tasks' objects, so a policy trained in the dream can never find, take and place
 * the one its task names (the home oracle, played inside the model, failed every episode at its
 * first take). Tasks of different lengths are not aligned: their words need not correspond.
 */
export function alignTasks(from: string, to: string): PhraseMap {
  const x = wordsOf(from);
  const y = wordsOf(to);
  // Our words as our task spells them: a page shows "From: Quinn Usman", and a line carried over
  // as "From: quinn usman" was never the real one.
  return x.length === y.length ? differingRuns(x, y, spelledWordsOf(to) ?? y) : [];
}

const spelledWordsOf = memo(spelledTokens);

/** Each run of differing words of two equally long word lists, as a phrase pair (`y` written as `yShown` spells it). */
function differingRuns(x: readonly string[], y: readonly string[], yShown: readonly string[] = y): PhraseMap {
  const pairs: PhraseMap = [];
  let i = 0;
  while (i < x.length) {
    if (x[i] === y[i]) {
      i++;
      continue;
    }
    let j = i;
    while (j < x.length && x[j] !== y[j]) j++;
    pairs.push([x.slice(i, j).join(' '), yShown.slice(i, j).join(' ')]);
    i = j;
  }
  return pairs;
}

/** The element an action names: the one whose first field is the longest found in the action. */
export function targetLine(lines: readonly StateLine[], action: string): StateLine | undefined {
  const lower = action.toLowerCase();
  let best: StateLine | undefined;
  let bestLength = 0;
  for (const line of lines) {
    if (line.header) continue;
    const first = (lineFields(line)[0] ?? '').toLowerCase();
    if (first.length > bestLength && containsPhrase(lower, first)) {
      best = line;
      bestLength = first.length;
    }
  }
  return best;
}

/**
 * The names numbered things go by in a state (`mug` of `object: mug 1 | …`, `countertop` of
 * `receptacle: countertop 2 | …`): an element whose name is one word and an instance number.
 */
export function thingNames(lines: readonly StateLine[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    if (line.header) continue;
    const name = /^([a-z]+) \d+$/i.exec((lineFields(line)[0] ?? '').trim())?.[1];
    if (name) out.push(name.toLowerCase());
  }
  return out;
}

/** Words that name no thing but a quantity or a reference; "a" → "two" would make every "a" of a room "two". */
const QUANTIFIERS = new Set(['a', 'an', 'the', 'some', 'one', 'two', 'three', 'it', 'them']);

/**
 * The things either side's action or state names already (where the agent is, what it holds, what
 * a room showed), apart from the task's own line: "countertop 1" where both stand stays
 * "countertop 1" though the tasks' targets differ (countertop → fridge would move the agent).
 */
function pinnedThings(example: AnalogySide, current: AnalogySide, things: ReadonlySet<string>): Set<string> {
  const pinned = new Set<string>();
  const add = (text: string) => {
    for (const w of wordsOf(text)) if (things.has(w)) pinned.add(w);
  };
  add(example.action);
  add(current.action);
  for (const side of [example, current]) {
    for (const line of side.lines) if (line.header && !line.text.includes(side.instruction)) add(lineValue(line));
  }
  return pinned;
}

/**
 * Two tasks of any templates, aligned by the things they name, in order: "clean some apple and
 * put it in countertop." and "put a hot egg in fridge." map apple → egg and countertop → fridge, so
 * an example's room shows our task's object where the example found its own. A thing either side
 * already names (`pinned`, see pinnedThings) is not mapped. The word-for-word map of alignTasks adds
 * what differs besides the things (hot → cool), but never a run that holds a thing ("hot apple" is
 * never written in a room; "apple 1" is) or a quantifier alone.
 */
export function alignByThings(from: string, to: string, things: ReadonlySet<string>, pinned: ReadonlySet<string> = new Set()): PhraseMap {
  const x = wordsOf(from).filter((w) => things.has(w));
  const y = wordsOf(to).filter((w) => things.has(w));
  const pairs: PhraseMap = x.length === y.length ? x.flatMap((w, i): PhraseMap => (w !== y[i] && !pinned.has(w) && !pinned.has(y[i] as string) ? [[w, y[i] as string]] : [])) : [];
  for (const [a, b] of alignTasks(from, to)) {
    const words = [...a.split(' '), ...b.toLowerCase().split(' ')];
    if (words.some((w) => things.has(w)) || QUANTIFIERS.has(a) || QUANTIFIERS.has(b.toLowerCase())) continue;
    pairs.push([a, b]);
  }
  return pairs;
}

export interface Analogy {
  /** The task, the action and the field-by-field map of the element the action names: how an example's annotation reads here. */
  base: PhraseMap;
  /**
   * How an example's state lines read here: `base`, with tasks of any templates aligned by their
   * things (alignByThings) where the model knows them. Only lines are carried over so: the
   * annotation of a plain put ("…which completes the task") must not read as one of a task that
   * wants the object cooled first (mapped so, home's on-policy false successes rose; results/experience-model/fidelity/README.md).
   */
  lines: PhraseMap;
  /** `lines` plus the header values that differ between the two states (`location`, `holding`, `query`). */
  wide: PhraseMap;
}

/**
 * How an example's words become this transition's: its instruction becomes ours, its action's
 * phrases ours, the fields of the element its action named the fields of the element ours names.
 */
export interface AnalogySide {
  instruction: string;
  /** The state's lines (stateLines). */
  lines: readonly StateLine[];
  action: string;
  /** targetLine(lines, action) where the caller has it already (a prediction asks it of each side once, not once per pair). */
  target?: StateLine | undefined;
}

/**
 * `things`: the names numbered things go by in the model's data (thingNames over its buffer); with
 * none (a model fitted before it was kept), tasks align only word for word.
 */
export function analogy(example: AnalogySide, current: AnalogySide, things: ReadonlySet<string> = new Set()): Analogy {
  const head: PhraseMap = [];
  if (example.instruction !== current.instruction) head.push([example.instruction, current.instruction]);
  head.push(...alignActions(example.action, current.action));
  const exampleLines = example.lines;
  const from = 'target' in example ? example.target : targetLine(exampleLines, example.action);
  const to = 'target' in current ? current.target : targetLine(current.lines, current.action);
  const fields: PhraseMap = [];
  if (from && to) {
    const a = lineFields(from);
    const b = lineFields(to);
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i] && (a[i] as string).length > 1) fields.push([a[i] as string, b[i] as string]);
    // A numbered element's name alone (`#5 Thoughts on ember` → `#2 Thoughts on orbit` maps the
    // page's heading `Thoughts on ember` too): the page it opens shows the name without the number.
    const nameA = unnumbered(a[0] ?? '');
    const nameB = unnumbered(b[0] ?? '');
    if (nameA !== null && nameB !== null && nameA !== nameB && nameA.length > 1) fields.push([nameA, nameB]);
  }
  const base: PhraseMap = [...head, ...alignTasks(example.instruction, current.instruction), ...fields];
  const lines: PhraseMap = things.size > 0 ? [...head, ...alignByThings(example.instruction, current.instruction, things, pinnedThings(example, current, things)), ...fields] : base;
  const wide: PhraseMap = [...lines];
  const ours = new Map(current.lines.filter((l) => l.header).map((l) => [l.key, lineValue(l)]));
  for (const line of exampleLines) {
    if (!line.header) continue;
    const value = lineValue(line);
    const mine = ours.get(line.key);
    if (mine !== undefined && mine !== value && value.length > 1 && value !== example.instruction) wide.push([value, mine]);
  }
  return { base, lines, wide };
}
