/**
 * Phrase maps, the pairs that rewrite an example's words as this transition's, and how they are
 * applied: every phrase at once, on word boundaries (containsPhrase is the same whole-phrase test).
 */
import { memo } from './memo.ts';

/** Ordered pairs [from, to]; applied all at once, longest `from` first, on word boundaries. */
export type PhraseMap = [from: string, to: string][];

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
