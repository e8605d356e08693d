/**
 * The one tokenizer: lowercase words and numbers (a price like 45.99 stays one token). The policy's
 * featurizer and the replay buffer's embeddings both read text through it, so "the same words"
 * means the same thing to both.
 */

const TOKEN = /[a-z0-9]+(?:\.[0-9]+)?/g;

export function tokens(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? [];
}

/** Words and adjacent-word bigrams, the vocabulary-free bag that hashed features are made of. */
export function wordsAndBigrams(words: readonly string[]): string[] {
  const out = words.slice();
  for (let i = 0; i + 1 < words.length; i++) out.push(`${words[i]} ${words[i + 1]}`);
  return out;
}
