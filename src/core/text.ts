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
