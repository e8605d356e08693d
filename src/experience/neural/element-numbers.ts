/**
 * The numbers pages give their elements (`#12`): read off a line, and an example's fresh elements
 * numbered on from this transition's state when its next state is carried over.
 */
import type { StateLine } from './lines.ts';
import type { PhraseMap } from './phrase-map.ts';

/**
 * `#12` opening an element line's value: the number a page gives an element, counting up over the
 * page's lifetime (the web env's element ids, BrowserGym's bids). A page shown for the first time
 * numbers its elements on from the highest number shown so far.
 */
const ELEMENT_NUMBER = /^[^:]*: #(\d{1,9})(?!\d)/;

/** A numbered field's name without its number (`#5 Save` → `Save`); null for a field without a number. */
export function unnumbered(field: string): string | null {
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
