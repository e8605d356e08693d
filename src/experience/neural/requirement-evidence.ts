/**
 * Where a state stands against a task's requirements (task-requirements.ts): per line signature
 * bucket, how much of the task's words and clauses its lines hold and whether its numbers sit
 * within or above the bound; and one row per requirement for the transition head's requirement
 * sub-network.
 */
import { hashBucket } from './features.ts';
import { lineFields, lineFrom, lineValue, stateLines, wordsOf, type StateLine } from './lines.ts';
import { memo } from './memo.ts';
import { clausesMet, numbers, type TaskRequirements } from './task-requirements.ts';
import { share } from './word-overlap.ts';

export const SIGNATURE_BUCKETS = 16;

/**
 * A line's signature for the coverage features: its key, plus its last field when that is one word
 * (`option …| selected`), or the label of a `label: value` text (`text|price`).
 */
function signature(line: StateLine): string {
  const fields = lineFields(line);
  const last = fields[fields.length - 1] ?? '';
  if (fields.length > 1 && /^[a-z]+$/i.test(last)) return `${line.key}|${last.toLowerCase()}`;
  const label = /^([a-z]+):/i.exec(lineValue(line))?.[1];
  return fields.length === 1 && label !== undefined && !line.header ? `${line.key}|${label.toLowerCase()}` : `${line.key}|*`;
}

/**
 * How much of a task a state's lines meet, per line signature. Each signature lands in two
 * buckets of different hashes (a count-min sketch), so two signatures that collide in one
 * rarely collide in both and the network can tell them apart.
 */
export interface Evidence {
  /** Share of the task's words the lines of each bucket hold. */
  coverage: number[];
  /** Share of the task's clauses the lines of each bucket meet. */
  clauses: number[];
  /** Whether a number in the bucket's lines is within / above the task's largest number (its bound). */
  within: number[];
  above: number[];
}

export const EVIDENCE_WIDTH = 2 * SIGNATURE_BUCKETS;

function signatureBuckets(line: StateLine): [number, number] {
  const s = signature(line);
  return [hashBucket(s, SIGNATURE_BUCKETS), SIGNATURE_BUCKETS + hashBucket(`#${s}`, SIGNATURE_BUCKETS)];
}

export interface BucketContents {
  byBucket: Map<number, { words: Set<string>; numbers: number[] }>;
  words: Set<string>;
  /** Every field of every line, as its words joined by one space (what a named clause's name is compared with). */
  fields: Set<string>;
}

/** What bucketContents reads of one line: its value's words and numbers, its fields' words, its buckets (which its key enters). */
interface LineContents {
  key: string;
  words: readonly string[];
  fields: readonly string[];
  numbers: readonly number[];
  buckets: readonly [number, number];
}

function readContents(line: StateLine): LineContents {
  const value = lineValue(line);
  return { key: line.key, words: wordsOf(value), fields: lineFields(line).map((field) => wordsOf(field).join(' ')), numbers: numbers(value), buckets: signatureBuckets(line) };
}

// By text, header and element lines apart (a header's fields are its whole value): a state's lines
// recur in the states after it, and each new state is read whole. Worked out with the key its text
// begins with, which is a parsed line's key.
const elementContents = memo((text: string) => readContents(lineFrom(text, false)));
const headerContents = memo((text: string) => readContents(lineFrom(text, true)));

/** A line's contents; a line whose key is not its text's (an unparseable state's, keyed `line`) is read afresh. */
function lineContents(line: StateLine): LineContents {
  const known = (line.header ? headerContents : elementContents)(line.text);
  return known.key === line.key ? known : readContents(line);
}

/** The words and numbers of a state's lines per signature bucket, all its words and all its fields (the task's own lines left out). */
function bucketContents(lines: readonly StateLine[]): BucketContents {
  const byBucket: BucketContents['byBucket'] = new Map();
  const all = new Set<string>();
  const fields = new Set<string>();
  for (const line of lines) {
    if (line.header && (line.key === 'instruction' || line.key === 'task')) continue;
    const { words, fields: lineFieldWords, numbers: valueNumbers, buckets } = lineContents(line);
    for (const w of words) all.add(w);
    for (const field of lineFieldWords) fields.add(field);
    for (const bucket of buckets) {
      const entry = byBucket.get(bucket) ?? { words: new Set<string>(), numbers: [] };
      for (const w of words) entry.words.add(w);
      entry.numbers.push(...valueNumbers);
      byBucket.set(bucket, entry);
    }
  }
  return { byBucket, words: all, fields };
}

/**
 * A state's bucket contents, by its text: the same examples are retrieved for many inputs, and a
 * state is asked about once per action taken from it (lanes, fitting). Read-only.
 */
export const stateContents = memo((text: string): BucketContents => bucketContents(stateLines(text)), 1 << 12);

/** A number that could be a price under the bound / over it (within a factor of 20, so counts and ratings rarely pass). */
const withinBound = (ns: readonly number[], bound: number): number => (ns.some((x) => x <= bound && x >= bound / 20) ? 1 : 0);
const aboveBound = (ns: readonly number[], bound: number): number => (ns.some((x) => x > bound && x <= bound * 20) ? 1 : 0);

export function requirementEvidence(task: TaskRequirements, contents: BucketContents): Evidence {
  const evidence: Evidence = { coverage: new Array<number>(EVIDENCE_WIDTH).fill(0), clauses: new Array<number>(EVIDENCE_WIDTH).fill(0), within: new Array<number>(EVIDENCE_WIDTH).fill(0), above: new Array<number>(EVIDENCE_WIDTH).fill(0) };
  for (const [bucket, entry] of contents.byBucket) {
    evidence.coverage[bucket] = share(task.words, entry.words);
    evidence.clauses[bucket] = clausesMet(task.clauses, entry.words);
    if (task.bound > 0) {
      evidence.within[bucket] = withinBound(entry.numbers, task.bound);
      evidence.above[bucket] = aboveBound(entry.numbers, task.bound);
    }
  }
  return evidence;
}

/** Requirement slots per transition (the bound first, then the task's clauses in order). */
export const CLAUSE_SLOTS = 8;
/**
 * Per slot: valid, is-the-bound, word share per bucket, within / above per bucket, share in the
 * acted text, in the state, clause length, whether the clause is named (`name: value`), whether a
 * line of the state has a field equal to its name.
 */
export const CLAUSE_FEATURES = 2 + 3 * EVIDENCE_WIDTH + 5;

/**
 * One row per requirement of the task, for the transition head's requirement sub-network (each
 * requirement scored on its own, the reward scaled by their mean; network.ts): a clause of the
 * task's wanted words with where the state holds them, and the task's bound (its largest number)
 * with where the state's numbers stand against it. Slots beyond the task's requirements are zero.
 * `acted`: the words of what the episode did, this step's action included.
 */
export function requirementRows(task: TaskRequirements, contents: BucketContents, acted: ReadonlySet<string>): number[] {
  const out = new Array<number>(CLAUSE_SLOTS * CLAUSE_FEATURES).fill(0);
  const { byBucket, words: stateWords, fields } = contents;
  const { bound } = task;
  let slot = 0;
  const base = (): number => slot * CLAUSE_FEATURES;
  if (bound > 0) {
    const o = base();
    out[o] = 1;
    out[o + 1] = 1;
    for (const [bucket, entry] of byBucket) {
      out[o + 2 + EVIDENCE_WIDTH + bucket] = withinBound(entry.numbers, bound);
      out[o + 2 + 2 * EVIDENCE_WIDTH + bucket] = aboveBound(entry.numbers, bound);
    }
    slot++;
  }
  for (const { words, name } of task.clauses) {
    if (slot >= CLAUSE_SLOTS) break;
    const o = base();
    out[o] = 1;
    for (const [bucket, entry] of byBucket) out[o + 2 + bucket] = share(words, entry.words);
    out[o + 2 + 3 * EVIDENCE_WIDTH] = share(words, acted);
    out[o + 3 + 3 * EVIDENCE_WIDTH] = share(words, stateWords);
    out[o + 4 + 3 * EVIDENCE_WIDTH] = Math.min(1, words.length / 5);
    out[o + 5 + 3 * EVIDENCE_WIDTH] = name !== '' ? 1 : 0;
    out[o + 6 + 3 * EVIDENCE_WIDTH] = name !== '' && fields.has(name) ? 1 : 0;
    slot++;
  }
  return out;
}
