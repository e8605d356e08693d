/**
 * Which of several alike controls a person means (runs inside the page, on a reading's lines).
 *
 * A page often repeats one control per item: an "Increase" beside every fruit of a basket, an "Add
 * to cart" on every search result, an "Edit" in every table row, a "×" on every to-do. Their
 * accessible names are the same, so their lines were the same, and no policy could tell which one
 * the instruction asks for; a person tells them apart by the item they sit in. So each control
 * whose role and name another control on the page shares gets the text of its item as a `context`
 * (shown as `in: …` on its line).
 *
 * Its item is the widest element around it that holds no other control of the same role and name
 * (the row, the card, the list item: one level wider would hold a sibling's). Its context is the
 * text read inside that element (text, headings, rows, statuses), or, where the item holds no text
 * of its own, the names of the item's other controls that are not repeated (a to-do's checkbox
 * "Buy milk" for its "×"). Only repeated controls get one: a line that was unambiguous stays as it was.
 */
import { clean, type PageElement } from '../snapshot.ts';

/** The lines [start, end) read inside one element of the page, and the span of the element around it. */
export interface LineSpan {
  start: number;
  end: number;
  outer: LineSpan | null;
}

/** The longest context a line shows. */
export const CONTEXT_LIMIT = 80;

/** The first index in the sorted `values` at or past `value`. */
function lowerBound(values: readonly number[], value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((values[middle] as number) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Gives every repeated control its item's text as `context`. `spans[i]` is the span of the element
 * line i was read from; its `outer` links lead to the page's body.
 */
export function addRowContexts(elements: PageElement[], spans: readonly (LineSpan | null)[]): void {
  const groups = new Map<string, number[]>();
  elements.forEach((element, index) => {
    if (element.id === undefined) return;
    const key = `${element.role}\n${element.name}`;
    const members = groups.get(key);
    if (members) members.push(index);
    else groups.set(key, [index]);
  });
  const repeated = new Set<number>();
  for (const members of groups.values()) if (members.length > 1) for (const index of members) repeated.add(index);
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    for (const index of members) {
      let item: LineSpan | null = null;
      // Members are in line order: those inside a span are a run from its first.
      for (let span = spans[index] ?? null; span && lowerBound(members, span.end) - lowerBound(members, span.start) <= 1; span = span.outer) item = span;
      if (!item) continue;
      const texts: string[] = [];
      const controls: string[] = [];
      for (let line = item.start; line < item.end; line++) {
        const other = elements[line] as PageElement;
        if (line === index || other.name === '') continue;
        if (other.id === undefined) texts.push(other.name);
        else if (!repeated.has(line)) controls.push(other.name);
      }
      const context = clean((texts.length > 0 ? texts : controls).join(' '), CONTEXT_LIMIT);
      if (context !== '') (elements[index] as PageElement).context = context;
    }
  }
}
