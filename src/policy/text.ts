/**
 * Text helpers for the policy's featurizer (the tokenizer itself is core's): one notion of "content word", one
 * feature hash. Kept apart from the featurizer so the query proposer and tests share them.
 */
import { hashString } from '../core/rng.ts';
import { tokens } from '../core/text.ts';

export { tokens, wordsAndBigrams } from '../core/text.ts';

/** Function words that say nothing about which action fits an instruction. */
const STOPWORDS = new Set(
  (
    'a an the and or of for with in on to at by from into onto is are be it its this that these those i me my ' +
    'am need want looking look find get buy some any please would like you your can could should under than ' +
    'lower price dollars dollar less up put place'
  ).split(' '),
);

/** Tokens that can tell two texts apart: not a stopword, not a bare number. */
export function contentWords(text: string): string[] {
  return tokens(text).filter((t) => !STOPWORDS.has(t) && !/^[0-9.]+$/.test(t));
}

/** Hash a namespaced feature into [0, dim). Namespaces keep "instruction word x" and "action word x" apart. */
export function featureIndex(namespace: string, feature: string, dim: number): number {
  return hashString(`${namespace}\u0000${feature}`) % dim;
}


/** The first dollar amount in a text ("$45.99", "80.00 dollars"), if any. */
export function dollarAmount(text: string): number | null {
  const match = /\$\s?([0-9]+(?:\.[0-9]+)?)|(?<![0-9.])([0-9]+(?:\.[0-9]+)?) dollars/.exec(text.toLowerCase());
  if (!match) return null;
  return Number(match[1] ?? match[2]);
}
