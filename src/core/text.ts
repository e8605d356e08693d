/**
 * The one tokenizer: lowercase words and numbers (a price like 45.99 stays one token). The policy's
 * featurizer and the replay buffer's embeddings both read text through it, so "the same words"
 * means the same thing to both.
 */

const TOKEN = /[a-z0-9]+(?:\.[0-9]+)?/g;

export function tokens(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? [];
}

const SPELLED_TOKEN = new RegExp(TOKEN.source, 'gi');

/**
 * `tokens` as the text spells them (`Quinn`, not `quinn`), one for one with `tokens(text)`; null
 * where lower-casing changed the text's length (outside ASCII), so that the two cannot be paired.
 */
export function spelledTokens(text: string): string[] | null {
  const spelled = text.match(SPELLED_TOKEN) ?? [];
  return text.toLowerCase().length === text.length && spelled.length === tokens(text).length ? spelled : null;
}

/** Words and adjacent-word bigrams, the vocabulary-free bag that hashed features are made of. */
export function wordsAndBigrams(words: readonly string[]): string[] {
  const out = words.slice();
  for (let i = 0; i + 1 < words.length; i++) out.push(`${words[i]} ${words[i + 1]}`);
  return out;
}

/**
 * `text` without the characters of `chars` at its end. A loop, not `/[…]+$/`: a regular expression
 * tries a long run of them that does not end the text from each of its characters (quadratic).
 */
export function trimEndOf(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1] as string)) end--;
  return text.slice(0, end);
}

/** `text` without the characters of `chars` at either end (see trimEndOf). */
export function trimOf(text: string, chars: string): string {
  let start = 0;
  while (start < text.length && chars.includes(text[start] as string)) start++;
  return trimEndOf(text.slice(start), chars);
}

/** How much of a file's, a request's or a model's text a message quotes: enough to recognise it. */
export const EXCERPT_CHARS = 100;

/**
 * Characters a terminal or a log would act on rather than show: C0 and C1 controls (NUL, escape, a
 * line break that would forge a log line), DEL, the line and paragraph separators, and the bidi
 * controls that reorder what is shown ("Trojan Source").
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * Untrusted text as a message may quote it: at most `max` characters, in double quotes, with every
 * control character (NUL included) written as an escape, and the whole length said when it was cut.
 * Only the quoted part is ever looked at, so a 4 MB value costs what 100 characters cost.
 */
export function excerpt(text: string, max: number = EXCERPT_CHARS): string {
  let end = Math.min(text.length, Math.max(0, max));
  // Never half a surrogate pair: the cut would leave a character no terminal can show.
  if (end < text.length && end > 0 && /[\ud800-\udbff]/.test(text[end - 1] as string)) end--;
  const part = text.slice(0, end).replace(/["\\]/g, (c) => `\\${c}`).replace(UNSHOWABLE, escapeCharacter);
  return end < text.length ? `"${part}…" (${text.length.toLocaleString('en-US')} characters)` : `"${part}"`;
}

function escapeCharacter(c: string): string {
  const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\0': '\\0' };
  return named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Words from elsewhere that a message repeats (another error's message, which may itself quote a
 * file or a request): as they are when short and free of control characters, else their excerpt.
 */
export function boundedText(text: string, max: number = 3 * EXCERPT_CHARS): string {
  return text.length <= max && isShowable(text) ? text : excerpt(text, max);
}

/** Whether `text` holds no character that excerpt would escape (a control character, a bidi control). */
export function isShowable(text: string): boolean {
  // UNSHOWABLE is global (for replace): a test would otherwise start where the last one stopped.
  UNSHOWABLE.lastIndex = 0;
  return !UNSHOWABLE.test(text);
}
