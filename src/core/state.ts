/**
 * The one renderer and parser of the abstract textual state. Every environment and every
 * experience model speaks this format, as the DreamGym paper does (cleaned element listings, not
 * raw HTML): a few `key: value` header lines, then the elements, one per line, numbered from 1:
 *
 *   page: results
 *   instruction: i need a pair of non-slip men's running shoes ...
 *   [1] button: Back to Search
 *   [2] text: Page 1 (Total results: 50)
 *   [4] link: b07x9k2m | acme non-slip mesh running shoes for men | $45.99
 *
 * An element's text may hold several fields separated by ` | `; the first field is what an action
 * names (`click[b07x9k2m]`), the rest is what a reader needs to decide.
 */
import { StateFormatError } from './errors.ts';
import { excerpt } from './text.ts';

export interface StateElement {
  kind: string;
  text: string;
}

export interface AbstractState {
  /** Ordered header lines. Keys are lowercase words; values are single lines. */
  header: [key: string, value: string][];
  elements: StateElement[];
}

export const FIELD_SEPARATOR = ' | ';
const KEY_PATTERN = /^[a-z][a-z0-9 _-]*$/;
const HEADER_LINE = /^([a-z][a-z0-9 _-]*): ?(.*)$/;
const ELEMENT_LINE = /^\[(\d+)\] ([a-z][a-z0-9 _-]*): ?(.*)$/;

/** Collapse anything that would break the one-item-per-line format. */
export function toSingleLine(value: string): string {
  return value.replace(/[\r\n\t\u2028\u2029]+/g, ' ').replace(/ {2,}/g, ' ').trim();
}

export function renderState(state: AbstractState): string {
  const lines: string[] = [];
  for (const [key, value] of state.header) {
    if (!KEY_PATTERN.test(key)) throw new StateFormatError(`header key ${excerpt(key)} is not a lowercase word`, lines.length + 1);
    lines.push(`${key}: ${toSingleLine(value)}`);
  }
  state.elements.forEach((element, i) => {
    if (!KEY_PATTERN.test(element.kind)) {
      throw new StateFormatError(`element kind ${excerpt(element.kind)} is not a lowercase word`, lines.length + 1);
    }
    lines.push(`[${i + 1}] ${element.kind}: ${toSingleLine(element.text)}`);
  });
  return lines.join('\n');
}

/**
 * Parse text in the abstract state format. Blank lines are ignored; a header line after the first
 * element, a malformed line or an element numbered out of order is an error naming the line.
 */
export function parseState(text: string): AbstractState {
  const state: AbstractState = { header: [], elements: [] };
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trimEnd();
    if (line.trim() === '') continue;
    const element = ELEMENT_LINE.exec(line);
    if (element) {
      const index = Number(element[1]);
      if (index !== state.elements.length + 1) {
        throw new StateFormatError(`element [${index}] should be numbered [${state.elements.length + 1}]`, i + 1);
      }
      state.elements.push({ kind: element[2] as string, text: (element[3] as string).trim() });
      continue;
    }
    const header = HEADER_LINE.exec(line);
    if (header) {
      if (state.elements.length > 0) throw new StateFormatError('header line after the first element', i + 1);
      state.header.push([header[1] as string, (header[2] as string).trim()]);
      continue;
    }
    throw new StateFormatError(`${excerpt(line, 60)} is neither "key: value" nor "[n] kind: text"`, i + 1);
  }
  return state;
}

/** The canonical rendering of a state's text (spacing, numbering), or the text itself when it does not parse. */
export function canonicalState(text: string): string {
  try {
    return renderState(parseState(text));
  } catch {
    return text;
  }
}

/** The value of the first header line with this key, if any. */
export function headerValue(state: AbstractState, key: string): string | undefined {
  return state.header.find(([k]) => k === key)?.[1];
}

export function elementFields(element: StateElement): string[] {
  return element.text.split(FIELD_SEPARATOR);
}

/** What an action names to act on this element: its first field. */
export function elementTarget(element: StateElement): string {
  return elementFields(element)[0] as string;
}

export function joinFields(...fields: string[]): string {
  return fields.map((f) => toSingleLine(f).replaceAll(FIELD_SEPARATOR, ' / ')).join(FIELD_SEPARATOR);
}
