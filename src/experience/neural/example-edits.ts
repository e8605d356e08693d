/**
 * The in-place edits a retrieved example made to its own lines (`option: 8 oz | size` →
 * `option: 8 oz | size | selected`), to be applied to the current state's lines, or undone where
 * an edit only added a field.
 */
import { wordsOf, type StateLine } from './lines.ts';
import { jaccard } from './word-overlap.ts';

export interface Edit {
  key: string;
  header: boolean;
  before: string;
  after: string;
  /** The old middle sat at the end (nothing common after it) / start. */
  atEnd: boolean;
  atStart: boolean;
  fromTarget: boolean;
}

/** Pairs of example lines that changed in place (same key, mostly the same words), as edits. */
export function exampleEdits(before: readonly StateLine[], after: readonly StateLine[], target: StateLine | undefined): Edit[] {
  const beforeSet = new Set(before.map((l) => l.text));
  const afterSet = new Set(after.map((l) => l.text));
  const gone = before.filter((l) => !afterSet.has(l.text));
  const added = after.filter((l) => !beforeSet.has(l.text));
  const edits: Edit[] = [];
  for (const b of added) {
    const bt = wordsOf(b.text);
    let best: StateLine | undefined;
    let bestScore = 0.5;
    for (const a of gone) {
      if (a.key !== b.key || a.header !== b.header) continue;
      const score = jaccard(wordsOf(a.text), bt);
      if (score > bestScore) {
        best = a;
        bestScore = score;
      }
    }
    if (!best) continue;
    const x = best.text;
    const y = b.text;
    let p = 0;
    while (p < x.length && p < y.length && x[p] === y[p]) p++;
    let s = 0;
    while (s < x.length - p && s < y.length - p && x[x.length - 1 - s] === y[y.length - 1 - s]) s++;
    edits.push({ key: b.key, header: b.header, before: x.slice(p, x.length - s), after: y.slice(p, y.length - s), atEnd: s === 0, atStart: p === 0, fromTarget: target?.text === best.text });
  }
  return edits;
}

/** The edit the other way round, for an edit that only inserted or only removed text (a field). */
export function inverseEdit(edit: Edit): Edit | null {
  if (edit.before !== '' && edit.after !== '') return null;
  return { ...edit, before: edit.after, after: edit.before };
}

export function applyEdit(line: StateLine, edit: Edit): string | null {
  if (line.key !== edit.key || line.header !== edit.header) return null;
  const text = line.text;
  if (edit.atEnd) return text.endsWith(edit.before) ? text.slice(0, text.length - edit.before.length) + edit.after : null;
  if (edit.atStart) return text.startsWith(edit.before) ? edit.after + text.slice(edit.before.length) : null;
  if (edit.before === '') return null;
  const at = text.indexOf(edit.before);
  return at < 0 ? null : text.slice(0, at) + edit.after + text.slice(at + edit.before.length);
}
