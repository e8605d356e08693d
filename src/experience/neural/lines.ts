/**
 * The neural experience model reads and writes states as lists of lines: header lines
 * (`key: value`) and element lines without their numbers (`kind: text`). A next state is mostly
 * made of lines that already exist somewhere in the input — the current state, or a retrieved
 * example's next state once that example's words are replaced by this transition's (analogy.ts) —
 * so the model predicts which candidate lines make the next state instead of spelling it out.
 *
 * This module holds the line form: a state read as lines and lines written back as a state, and
 * what a line says (its key, value, fields and words).
 */
import { elementFields, parseState, renderState, type AbstractState } from '../../core/state.ts';
import { tokens } from '../../core/text.ts';
import type { Observation } from '../../core/types.ts';
import { memo } from './memo.ts';

export interface StateLine {
  /** `key: value` for a header line, `kind: text` for an element (no number). */
  text: string;
  header: boolean;
  /** The header key or the element kind. */
  key: string;
}

export function headerLine(key: string, value: string): StateLine {
  return { text: `${key}: ${value}`, header: true, key };
}

const linesOfText = memo(parseLines, 1 << 12);

/**
 * The state's lines; an unparseable state is one opaque header-less element per line. Memoised by
 * the state's text, and read-only: the same example states are read for every transition they are
 * retrieved for, and a line's text made here once is a string whose hash is kept, so the memos
 * below find it without hashing it again (a text built anew by concatenation hashes its whole
 * length at every lookup).
 */
export function stateLines(observation: Observation | string): readonly StateLine[] {
  return linesOfText(typeof observation === 'string' ? observation : observation.text);
}

function parseLines(text: string): readonly StateLine[] {
  let state: AbstractState;
  try {
    state = parseState(text);
  } catch {
    return text.split(/\r?\n/).filter((l) => l.trim() !== '').map((l) => ({ text: l.trim(), header: false, key: 'line' }));
  }
  return [...state.header.map(([key, value]) => headerLine(key, value)), ...state.elements.map((e) => ({ text: `${e.kind}: ${e.text}`, header: false, key: e.kind }))];
}

/** Parse a line text back into a line (header or element is decided by the caller's flag). */
export function lineFrom(text: string, header: boolean): StateLine {
  const colon = text.indexOf(':');
  return { text, header, key: colon > 0 ? text.slice(0, colon) : 'line' };
}

/** Lines → abstract-state text (elements renumbered from 1). */
export function renderLines(lines: readonly StateLine[]): string {
  const state: AbstractState = { header: [], elements: [] };
  for (const line of lines) {
    const colon = line.text.indexOf(':');
    const key = colon > 0 ? line.text.slice(0, colon).trim() : 'line';
    const value = colon > 0 ? line.text.slice(colon + 1).trim() : line.text;
    if (line.header) state.header.push([key, value]);
    else state.elements.push({ kind: key, text: value });
  }
  try {
    return renderState(state);
  } catch {
    return lines.map((l) => l.text).join('\n');
  }
}

/** The text after `key: `. */
export function lineValue(line: StateLine): string {
  const colon = line.text.indexOf(':');
  return colon > 0 ? line.text.slice(colon + 1).trim() : line.text;
}

const elementLineFields = memo((text: string): readonly string[] => {
  const colon = text.indexOf(':');
  const value = colon > 0 ? text.slice(colon + 1).trim() : text;
  return elementFields({ kind: '', text: value });
});

/** The words of a text (core/text.ts `tokens`), memoised: read-only. */
export const wordsOf: (text: string) => readonly string[] = memo(tokens);

/** The fields of an element line's value (` | `-separated); a header line is one field. Read-only. */
export function lineFields(line: StateLine): readonly string[] {
  return line.header ? [lineValue(line)] : elementLineFields(line.text);
}
