/**
 * What a policy may type into a page's field: spans of the instruction a person would copy. A
 * policy only ever chooses (core/queries.ts), so the env proposes the texts: quoted spans first
 * (most tasks quote what to enter), then e-mail addresses, dates, numbers written in groups,
 * street addresses, capitalised names, and last single numbers (the least specific: often a part
 * of one of the above, so they are the first to fall past the limit).
 * Where the instruction gives nothing to type, what it refers to is on the page ("enter the code
 * we texted you"): then the codes the page shows are proposed instead.
 */
const QUOTED = /"([^"]{1,80})"|“([^”]{1,80})”|'([^']{1,80})'/g;
// Parts bounded as addresses bound them (RFC 5321: 64 before the @, 63 a label): unbounded, a
// long word without an @ was tried from each of its letters to its end (80,000 letters took 8 s).
const EMAIL = /[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}/g;
// A day, or a month and year as a card's expiry is written (05/26, 11/2027).
const DATE = /\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b|\b\d{1,2}\/(?:\d{4}|\d{2})\b/g;
// A card, phone or account number as people write it, in groups: a field takes it whole.
const GROUPED = /\b\d{2,6}(?:[ -]\d{2,6}){2,7}\b/g;
// A house number and the street's capitalised words (18 Harbour Road): typed whole into an address field.
const ADDRESS = /\b\d{1,5}[A-Za-z]?(?: [A-Z][a-z]+){1,4}\b/g;
const NUMBER = /\b\d+(?:[.,]\d+)?\b/g;
const NAME = /\b[A-Z][a-z]+(?: [A-Z][a-z]+)*\b/g;

/**
 * A code a person copies from a page (a one-time code, a reference or order number, a voucher):
 * a word of its own, 4 to 16 digits, capital letters and inner hyphens with at least one digit.
 * Standing alone excludes parts of prices (`1,299.00`), times, paths (`code.html?seed=1004`) and
 * element ids (`#12`); lowercase words are prose, never codes.
 */
const CODE = /(?<=^|[\s(["'“‘])(?=[A-Z-]*\d)[A-Z\d][A-Z\d-]{2,14}[A-Z\d](?=$|[\s)\]"'”’!?;]|[.,:](?!\w))/gm;

/**
 * Texts proposed at most, per field. A generated form's instruction quotes the form's name and up
 * to eight values, an e-mail among them, before any name or number (the forms family: 1–8 fields);
 * each text field is offered each text, so the limit bounds the candidates a page of many fields
 * gives the policy.
 */
const MAX_TEXTS = 12;

/**
 * Distinct texts, in the order above, at most `max`; the codes `shown` holds, in page order, only
 * where the instruction proposes none — elsewhere the page's numbers would only crowd out what the
 * instruction asks for.
 */
export function proposeTexts(instruction: string, shown = '', max = MAX_TEXTS): string[] {
  const out: string[] = [];
  const add = (text: string | undefined): void => {
    const t = text?.trim();
    if (t && !out.includes(t)) out.push(t);
  };
  for (const m of instruction.matchAll(QUOTED)) add(m[1] ?? m[2] ?? m[3]);
  for (const m of instruction.matchAll(EMAIL)) add(m[0]);
  for (const m of instruction.matchAll(DATE)) add(m[0]);
  for (const m of instruction.matchAll(GROUPED)) add(m[0]);
  for (const m of instruction.matchAll(ADDRESS)) add(m[0]);
  // A capitalised word that opens the sentence is not a name.
  for (const m of instruction.matchAll(NAME)) if (m.index !== 0) add(m[0]);
  for (const m of instruction.matchAll(NUMBER)) add(m[0]);
  if (out.length === 0) {
    for (const m of shown.matchAll(CODE)) {
      add(m[0]);
      if (out.length === max) break;
    }
  }
  return out.slice(0, max);
}
