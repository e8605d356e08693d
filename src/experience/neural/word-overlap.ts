/** How much two lists of words overlap: the measures the candidates' features are made of. */

/** The Jaccard similarity of two word lists, each read as a set. */
export function jaccard(a: readonly string[], b: readonly string[] | ReadonlySet<string>): number {
  const sb = b instanceof Set ? b : new Set(b as readonly string[]);
  if (a.length === 0 || sb.size === 0) return 0;
  const sa = new Set(a);
  let inter = 0;
  for (const t of sa) if (sb.has(t)) inter++;
  return inter / (sa.size + sb.size - inter);
}

/** `jaccard(words, b)` from the words' distinct ones (a caller that has them spares a set per call). */
export function jaccardOfDistinct(distinct: readonly string[], b: ReadonlySet<string>): number {
  if (distinct.length === 0 || b.size === 0) return 0;
  let inter = 0;
  for (const t of distinct) if (b.has(t)) inter++;
  return inter / (distinct.length + b.size - inter);
}

/** The share of `part`'s words that `whole` holds. */
export function share(part: readonly string[], whole: ReadonlySet<string>): number {
  if (part.length === 0) return 0;
  let n = 0;
  for (const t of part) if (whole.has(t)) n++;
  return n / part.length;
}
