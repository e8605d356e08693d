/**
 * The neural experience model reads and writes states as lists of lines: header lines
 * (`key: value`) and element lines without their numbers (`kind: text`). A next state is mostly
 * made of lines that already exist somewhere in the input — the current state, or a retrieved
 * example's next state once that example's words are replaced by this transition's — so the model
 * predicts which candidate lines make the next state instead of spelling it out.
 *
 * This module holds the line form and the analogy ("phrase map") that carries an example's
 * outcome over to the current transition. Nothing here knows an environment: phrases are aligned
 * by position in the action and the state's header, and by the element the action names.
 */
import { elementFields, parseState, renderState, type AbstractState } from '../../core/state.ts';
import { spelledTokens, tokens } from '../../core/text.ts';
import type { Observation } from '../../core/types.ts';

export interface StateLine {
  /** `key: value` for a header line, `kind: text` for an element (no number). */
  text: string;
  header: boolean;
  /** The header key or the element kind. */
  key: string;
}

export function headerLine(key: string, value: string): StateLine {
  return { text: `${key}: ${value}`, header: true, key };
}

/**
 * A bounded memo of a pure function of one key (a string, or an object such as a retrieved
 * transition, which stays the same object while the buffer holds it). The model asks the fields and
 * words of the same lines many times per prediction (every candidate against every example) and
 * across predictions (the examples recur); splitting them again was a fifth of a prediction's
 * time. Results are shared: they are read-only. Full, it forgets its oldest entry (a Map keeps
 * insertion order): emptying it whole, as it did, made a working set just over the bound (a
 * 5,000-transition buffer's examples against 4,096 entries) miss again after every emptying.
 */
export function memo<K, T>(fn: (key: K) => T, max = 1 << 16): (key: K) => T {
  const cache = new Map<K, T>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      if (cache.size >= max) cache.delete(cache.keys().next().value as K);
      value = fn(key);
      cache.set(key, value);
    }
    return value;
  };
}

/**
 * A memo of a pure function of an object that holds its entries only while the object lives (an
 * input's history or its list of retrieved examples, a state's lines). Results are read-only.
 */
export function memoWeak<K extends object, T>(fn: (key: K) => T): (key: K) => T {
  const cache = new WeakMap<K, T>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = fn(key);
      cache.set(key, value);
    }
    return value;
  };
}

const linesOfText = memo(parseLines, 1 << 12);

/**
 * The state's lines; an unparseable state is one opaque header-less element per line. Memoised by
 * the state's text, and read-only: the same example states are read for every transition they are
 * retrieved for, and a line's text made here once is a string whose hash is kept, so the memos
 * below find it without hashing it again (a text built anew by concatenation hashes its whole
 * length at every lookup).
 */
export function stateLines(observation: Observation | string): readonly StateLine[] {
  return linesOfText(typeof observation === 'string' ? observation : observation.text);
}

function parseLines(text: string): readonly StateLine[] {
  let state: AbstractState;
  try {
    state = parseState(text);
  } catch {
    return text.split(/\r?\n/).filter((l) => l.trim() !== '').map((l) => ({ text: l.trim(), header: false, key: 'line' }));
  }
  return [...state.header.map(([key, value]) => headerLine(key, value)), ...state.elements.map((e) => ({ text: `${e.kind}: ${e.text}`, header: false, key: e.kind }))];
}

/** Parse a line text back into a line (header or element is decided by the caller's flag). */
export function lineFrom(text: string, header: boolean): StateLine {
  const colon = text.indexOf(':');
  return { text, header, key: colon > 0 ? text.slice(0, colon) : 'line' };
}

/** Lines → abstract-state text (elements renumbered from 1). */
export function renderLines(lines: readonly StateLine[]): string {
  const state: AbstractState = { header: [], elements: [] };
  for (const line of lines) {
    const colon = line.text.indexOf(':');
    const key = colon > 0 ? line.text.slice(0, colon).trim() : 'line';
    const value = colon > 0 ? line.text.slice(colon + 1).trim() : line.text;
    if (line.header) state.header.push([key, value]);
    else state.elements.push({ kind: key, text: value });
  }
  try {
    return renderState(state);
  } catch {
    return lines.map((l) => l.text).join('\n');
  }
}

/** The text after `key: `. */
export function lineValue(line: StateLine): string {
  const colon = line.text.indexOf(':');
  return colon > 0 ? line.text.slice(colon + 1).trim() : line.text;
}

const elementLineFields = memo((text: string): readonly string[] => {
  const colon = text.indexOf(':');
  const value = colon > 0 ? text.slice(colon + 1).trim() : text;
  return elementFields({ kind: '', text: value });
});

/** The words of a text (core/text.ts `tokens`), memoised: read-only. */
export const wordsOf: (text: string) => readonly string[] = memo(tokens);

/** The fields of an element line's value (` | `-separated); a header line is one field. Read-only. */
export function lineFields(line: StateLine): readonly string[] {
  return line.header ? [lineValue(line)] : elementLineFields(line.text);
}

// ---------------------------------------------------------------------------------------------
// Phrase maps: the example's words → this transition's words

/** Ordered pairs [from, to]; applied all at once, longest `from` first, on word boundaries. */
export type PhraseMap = [from: string, to: string][];

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

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A character of `\w` (ASCII letters, digits, underscore), as the regular expressions here read it. */
function isWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

/** Whether `length` characters of `text` at `at` stand as a whole phrase: `(?<![\w.])…(?![\w])`. */
function standsAlone(text: string, at: number, length: number): boolean {
  const before = at === 0 ? -1 : text.charCodeAt(at - 1);
  const after = at + length < text.length ? text.charCodeAt(at + length) : -1;
  return before !== 46 && !isWordChar(before) && !isWordChar(after);
}

/**
 * Whether `phrase` occurs in `text` as whole words: not after a word character or a dot, not
 * before a word character (what `(?<![\w.])phrase(?!\w)` matches). Searched with indexOf rather
 * than a regular expression built per call: the model asks this for every line of every example,
 * and compiling those expressions was a tenth of a prediction's time.
 */
export function containsPhrase(text: string, phrase: string): boolean {
  if (phrase === '') return false;
  for (let at = text.indexOf(phrase); at >= 0; at = text.indexOf(phrase, at + 1)) if (standsAlone(text, at, phrase.length)) return true;
  return false;
}

/**
 * A function applying a phrase map to a text, every pair at once (a replaced phrase is never
 * replaced again). A caller that holds the text's `asciiLower` already passes it, sparing a lookup
 * (the examples' lines are mapped for every transition they are retrieved for).
 */
export type Mapper = (text: string, lower?: string | null) => string;

export function mapper(map: PhraseMap): Mapper {
  const lookup = new Map<string, string>();
  for (const [from, to] of [...map].sort((p, q) => q[0].length - p[0].length)) {
    if (from !== '' && from !== to && !lookup.has(from.toLowerCase())) lookup.set(from.toLowerCase(), to);
  }
  if (lookup.size === 0) return (text) => text;
  const keys = [...lookup.keys()];
  // Where text and phrases are plain ASCII (case folding is then toLowerCase), the phrases are
  // found with indexOf in the lower-case text; the expression (compiled on the first text that
  // needs it) serves the rest: an alternation with a lookbehind was compiled per example per
  // prediction and run over every line that held a phrase.
  let pattern: RegExp | undefined;
  const asciiKeys = keys.every(isAscii);
  return (text, known) => {
    if (asciiKeys) {
      const lower = known === undefined ? asciiLower(text) : known;
      if (lower !== null) return replacePhrases(text, lower, keys, lookup);
    }
    pattern ??= new RegExp(`(?<![\\w.])(${keys.map(escape).join('|')})(?![\\w])`, 'gi');
    return text.replace(pattern, (m) => lookup.get(m.toLowerCase()) ?? m);
  };
}

/**
 * What `text.replace(/(?<![\w.])(k1|k2|…)(?![\w])/gi, …)` gives for ASCII text and phrases `keys`
 * (lower case, in the alternation's order), found in `lower`: at each position the first phrase
 * that matches there wins, and the search goes on after it.
 */
function replacePhrases(text: string, lower: string, keys: readonly string[], lookup: ReadonlyMap<string, string>): string {
  // Each match as start × keys + the phrase's index: sorted, the first one at a position is the
  // phrase the alternation would try first.
  let found: number[] | null = null;
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string;
    for (let at = lower.indexOf(key); at >= 0; at = lower.indexOf(key, at + 1)) if (standsAlone(lower, at, key.length)) (found ??= []).push(at * keys.length + k);
  }
  if (found === null) return text;
  if (found.length > 1) found.sort((a, b) => a - b);
  let out = '';
  let cursor = 0;
  for (const match of found) {
    const k = match % keys.length;
    const at = (match - k) / keys.length;
    if (at < cursor) continue;
    const key = keys[k] as string;
    out += text.slice(cursor, at) + (lookup.get(key) as string);
    cursor = at + key.length;
  }
  return out + text.slice(cursor);
}

/** Plain ASCII (no character whose case folding differs between toLowerCase and a case-insensitive expression). */
const isAscii = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
};

/** A plain-ASCII text in lower case, null for any other (memoised: mappers read the same lines again and again). */
export const asciiLower = memo((text: string): string | null => (isAscii(text) ? text.toLowerCase() : null));

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

/**
 * `#12` opening an element line's value: the number a page gives an element, counting up over the
 * page's lifetime (the web env's element ids, BrowserGym's bids). A page shown for the first time
 * numbers its elements on from the highest number shown so far.
 */
const ELEMENT_NUMBER = /^[^:]*: #(\d{1,9})(?!\d)/;

/** A numbered field's name without its number (`#5 Save` → `Save`); null for a field without a number. */
function unnumbered(field: string): string | null {
  const match = /^#\d{1,9} (.+)$/.exec(field);
  return match ? (match[1] as string).trim() : null;
}

/** The element's number (see ELEMENT_NUMBER), null for a line without one. */
export function elementNumber(line: StateLine): number | null {
  if (line.header) return null;
  const match = ELEMENT_NUMBER.exec(line.text);
  return match ? Number(match[1]) : null;
}

/** The highest element number the lines show; 0 for none. */
export function highestElementNumber(lines: readonly StateLine[]): number {
  let highest = 0;
  for (const line of lines) highest = Math.max(highest, elementNumber(line) ?? 0);
  return highest;
}

/**
 * Elements an example's next state shows that its state did not number yet (`fresh`: numbers
 * above its state's highest, `exampleHighest`) were numbered on from its page's count; carried over
 * to a state whose highest number is `ourHighest`, they number on from ours (`#21` → `#24` when our
 * inbox lists three e-mails more). Without it every element of a page opened by the action (an
 * e-mail's Forward button, a form's Save) was another number here than in the real page, and the
 * model learned to drop those lines: the oracle, played inside it, lost every task of more than
 * one step.
 */
export function renumbering(fresh: readonly number[], exampleHighest: number, ourHighest: number): PhraseMap {
  const shift = ourHighest - exampleHighest;
  if (shift === 0 || exampleHighest === 0 || ourHighest === 0) return [];
  return fresh.map((n) => [`#${n}`, `#${n + shift}`]);
}

export interface Analogy {
  /** The task, the action and the field-by-field map of the element the action names: how an example's annotation reads here. */
  base: PhraseMap;
  /**
   * How an example's state lines read here: `base`, with tasks of any templates aligned by their
   * things (alignByThings) where the model knows them. Only lines are carried over so: the
   * annotation of a plain put ("…which completes the task") must not read as one of a task that
   * wants the object cooled first (mapped so, home's on-policy false successes rose; results/fidelity/README.md).
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
