/**
 * Which lines of an imagined next state differ from the real one, and the other way round: a
 * line-level diff (longest common subsequence), so that a difference far down a long state is
 * marked where it is, not hidden below identical first lines. Elements are compared without their
 * numbers (`[7]`), so one inserted line does not mark every line after it.
 */
import { parseState } from '../../core/state.ts';

/** For each line of `a` and of `b`: true where it has no partner in the other (it differs). */
export function diffLines(a: readonly string[], b: readonly string[]): { a: boolean[]; b: boolean[] } {
  const n = a.length;
  const m = b.length;
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..], in one flat array.
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j] ? lcs[(i + 1) * width + j + 1]! + 1 : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const markA = Array.from({ length: n }, () => true);
  const markB = Array.from({ length: m }, () => true);
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      markA[i] = false;
      markB[j] = false;
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) i++;
    else j++;
  }
  return { a: markA, b: markB };
}

/** A state's lines as the diff compares them: header lines, then elements without their numbers. */
export interface StateLines {
  header: string[];
  elements: string[];
  /** The text did not parse as a state: its raw lines. */
  raw: string[] | null;
}

export function stateLines(text: string): StateLines {
  try {
    const state = parseState(text);
    return { header: state.header.map(([k, v]) => `${k}: ${v}`), elements: state.elements.map((e) => `${e.kind}: ${e.text}`), raw: null };
  } catch {
    return { header: [], elements: [], raw: text.split(/\r?\n/) };
  }
}

const flat = (s: StateLines): string[] => s.raw ?? [...s.header, ...s.elements];

/** Lines past this many are not compared (marked as differing only if the other state has fewer): the diff is quadratic. */
const MAX_LINES = 1500;

/** Where `text` differs from `other`, by line: header lines, elements, or raw lines (as StateView shows them). */
export interface StateMarks {
  header: boolean[];
  elements: boolean[];
  raw: boolean[] | null;
  /** Lines of `text` that differ. */
  differing: number;
  total: number;
}

export function stateMarks(text: string, other: string): StateMarks {
  const mine = stateLines(text);
  const lines = flat(mine);
  const theirs = flat(stateLines(other));
  const marks = diffLines(lines.slice(0, MAX_LINES), theirs.slice(0, MAX_LINES)).a;
  for (let i = marks.length; i < lines.length; i++) marks.push(i >= theirs.length || lines[i] !== theirs[i]);
  const differing = marks.filter(Boolean).length;
  if (mine.raw) return { header: [], elements: [], raw: marks, differing, total: lines.length };
  return { header: marks.slice(0, mine.header.length), elements: marks.slice(mine.header.length), raw: null, differing, total: lines.length };
}
