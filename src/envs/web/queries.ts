/**
 * What a policy may type into a page's field: spans of the instruction a person would copy. A
 * policy only ever chooses (core/queries.ts), so the env proposes the texts: quoted spans first
 * (most tasks quote what to enter), then e-mail addresses, dates, numbers and capitalised names.
 */
const QUOTED = /"([^"]{1,80})"|“([^”]{1,80})”|'([^']{1,80})'/g;
// Parts bounded as addresses bound them (RFC 5321: 64 before the @, 63 a label): unbounded, a
// long word without an @ was tried from each of its letters to its end (80,000 letters took 8 s).
const EMAIL = /[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}/g;
const DATE = /\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/g;
const NUMBER = /\b\d+(?:[.,]\d+)?\b/g;
const NAME = /\b[A-Z][a-z]+(?: [A-Z][a-z]+)*\b/g;

/** Distinct texts, in the order above; at most `max`. */
export function proposeTexts(instruction: string, max = 8): string[] {
  const out: string[] = [];
  const add = (text: string | undefined): void => {
    const t = text?.trim();
    if (t && !out.includes(t)) out.push(t);
  };
  for (const m of instruction.matchAll(QUOTED)) add(m[1] ?? m[2] ?? m[3]);
  for (const m of instruction.matchAll(EMAIL)) add(m[0]);
  for (const m of instruction.matchAll(DATE)) add(m[0]);
  for (const m of instruction.matchAll(NUMBER)) add(m[0]);
  // A capitalised word that opens the sentence is not a name.
  for (const m of instruction.matchAll(NAME)) if (m.index !== 0) add(m[0]);
  return out.slice(0, max);
}
