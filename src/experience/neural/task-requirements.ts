/**
 * What a task asks for, read from its instruction: the words it wants, its clauses (`scent:
 * unscented`, "with free shipping") and its bound (its largest number, a price limit).
 */
import type { Transition } from '../../core/types.ts';
import { wordsOf } from './lines.ts';
import { memo, memoWeak } from './memo.ts';

/**
 * The words of the task that say what it wants: not the task's largest number (its bound, which
 * the within/above evidence compares against), not words every retrieved task shares. Other
 * numbers stay: a wanted size of 12 or 32gb is a requirement like a wanted colour.
 */
function taskWords(instruction: string, examples: readonly Transition[]): Set<string> {
  const words = new Set(instructionReading(instruction).wanted);
  const shared = sharedWords(examples);
  for (const w of shared) words.delete(w);
  return words;
}

/** The words every retrieved task says (none under two examples); per retrieved list, which the transition's own task and each example's ask for. */
const sharedWords = memoWeak((examples: readonly Transition[]): ReadonlySet<string> => {
  if (examples.length < 2) return new Set();
  const sets = examples.map((e) => new Set(wordsOf(e.instruction)));
  return new Set([...(sets[0] as Set<string>)].filter((w) => sets.every((s) => s.has(w))));
});

/** The plain numbers of a text (`19.99`, not `32gb`). */
export function numbers(text: string): number[] {
  return wordsOf(text).filter((t) => /^[0-9]/.test(t)).map(Number).filter(Number.isFinite);
}

/** A task's bound: its largest plain number (a price limit), 0 without one. */
function taskBound(instruction: string): number {
  return Math.max(0, ...numbers(instruction));
}

/**
 * One requirement of the task: a clause of its text with the wanted words it holds. A clause
 * written `name: value` (`scent: unscented`) is *named*: only its value's words must be met, and
 * its name says which lines should hold them (lines with a field equal to the name). Whether a
 * named clause's value is missing from the state means something other than whether a plain
 * clause's words are (a plain one is often met by text the state does not show); the network
 * learns what, from the flag.
 */
export interface Clause {
  words: string[];
  /** The words before the colon of a `name: value` clause, '' for a plain one. */
  name: string;
}

/**
 * The task's requirements, as the clauses of its text (split at commas, "and", "with"), each the
 * set of its wanted words. A clause is met by a text that holds all of its words.
 */
function clauses(instruction: string, want: ReadonlySet<string>): Clause[] {
  const out: Clause[] = [];
  for (const part of instructionReading(instruction).parts) {
    const value = part.name !== '' ? part.value.filter((w) => want.has(w)) : [];
    const words = value.length > 0 ? value : part.all.filter((w) => want.has(w));
    if (words.length > 0) out.push({ words, name: value.length > 0 ? part.name : '' });
  }
  return out;
}

/**
 * What taskRequirements reads of an instruction before it knows which words the retrieved tasks
 * share: its bound, the words that could be wanted, and its clauses' words. Memoised: the same
 * instructions are read for every transition and every example of theirs.
 */
const instructionReading = memo((instruction: string) => {
  const bound = taskBound(instruction);
  return {
    bound,
    wanted: wordsOf(instruction).filter((t) => (/^[0-9]/.test(t) ? Number(t) !== bound : t.length > 1)),
    parts: instruction
      .toLowerCase()
      .split(/,|\band\b|\bwith\b|\bthen\b/)
      .map((part) => {
        const colon = part.indexOf(':');
        const name = colon > 0 ? wordsOf(part.slice(0, colon)).join(' ') : '';
        return { name, value: name !== '' ? wordsOf(part.slice(colon + 1)) : [], all: wordsOf(part) };
      }),
  };
}, 1 << 12);

/** Share of the clauses whose every word the set holds. */
export function clausesMet(parts: readonly Clause[], have: ReadonlySet<string>): number {
  return parts.length === 0 ? 0 : parts.filter((c) => c.words.every((w) => have.has(w))).length / parts.length;
}

/** What a task asks for, worked out once per transition (and per example, against its own task). */
export interface TaskRequirements {
  words: string[];
  clauses: Clause[];
  bound: number;
}

export function taskRequirements(instruction: string, examples: readonly Transition[]): TaskRequirements {
  const want = taskWords(instruction, examples);
  return { words: [...want], clauses: clauses(instruction, want), bound: instructionReading(instruction).bound };
}
