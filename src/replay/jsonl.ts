/**
 * JSONL import and export of transitions, streamed: one transition per line, so a million-line file
 * never sits in memory as one string, and one bad line (an over-long one included) costs only
 * itself. Lines are numbered from 1 so a report points at the line an editor shows; input that is
 * not UTF-8 text is refused before any line (see lines.ts).
 */
import type { Transition } from '../core/types.ts';
import { readLines, tooLongProblem } from './lines.ts';
import { validateTransition } from './schema.ts';
import { isMetaLine, parseStoreMeta, type StoreMeta } from './store-meta.ts';
import { withoutVector, type StoredTransition } from './store.ts';

export interface LineProblem {
  line: number;
  problem: string;
}

export interface ImportReport {
  /** Lines that held a valid transition (all of them were handed on). */
  accepted: number;
  /** Lines skipped (blank lines are neither accepted nor rejected). */
  rejectedCount: number;
  /** Good lines skipped because the store already held their transition (`dropKnown`). */
  duplicates: number;
  /** The first of them, with why. */
  rejected: LineProblem[];
  /** Lines neither accepted nor rejected: blank ones and a store's `$meta` line. */
  skipped: number;
  /** Lines read in all: always accepted + duplicates + rejectedCount + skipped, so no line goes unaccounted. */
  lines: number;
}

/** Only the first problems are kept in a report; a file of a million bad lines still reports its count. */
const MAX_REPORTED = 100;

/** Parse one line; null for a blank one or a store file's `$meta` line (not a transition, not an error). */
export function parseLine(text: string): { ok: true; transition: Transition } | { ok: false; problem: string } | null {
  if (text.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (typeof value === 'object' && value !== null && '$meta' in value) return null;
  return validateTransition(value);
}

/**
 * Read transitions from text chunks and hand them on in batches. Every good line lands even when
 * others are bad; `onBatch` decides where (a store's `add`), `onProgress` sees lines read so far.
 */
export async function importJsonl(
  chunks: AsyncIterable<string> | Iterable<string>,
  onBatch: (batch: Transition[]) => Promise<void>,
  options: {
    batchSize?: number;
    onProgress?: (report: ImportReport) => void;
    transform?: (t: Transition) => Transition;
    /** Environments this build has: a line for another one is a bad line (default: any). */
    knownEnvs?: readonly string[];
    /** A store file's first line, checked: its tasks and runs, for the importer to keep (a bad one is a bad line 1). */
    onMeta?: (meta: StoreMeta) => Promise<void>;
    /** Keep only the batch's transitions the store lacks (known-transitions.ts); the others count as duplicates. */
    dropKnown?: (batch: readonly Transition[]) => Promise<Transition[]>;
  } = {},
): Promise<ImportReport> {
  const batchSize = options.batchSize ?? 1000;
  const report: ImportReport = { accepted: 0, rejectedCount: 0, rejected: [], skipped: 0, lines: 0, duplicates: 0 };
  let batch: Transition[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const read = batch;
    batch = [];
    const out = options.dropKnown ? await options.dropKnown(read) : read;
    if (out.length > 0) await onBatch(out);
    report.accepted += out.length;
    report.duplicates += read.length - out.length;
    options.onProgress?.(report);
  };
  const reject = (problem: string) => {
    report.rejectedCount++;
    if (report.rejected.length < MAX_REPORTED) report.rejected.push({ line: report.lines, problem });
  };
  for await (const line of readLines(chunks)) {
    report.lines++;
    if ('tooLong' in line) {
      reject(tooLongProblem(line.tooLong));
      continue;
    }
    if (report.lines === 1 && isMetaLine(line.text)) {
      const meta = parseStoreMeta(line.text);
      if (meta.ok) {
        report.skipped++;
        await options.onMeta?.(meta.meta);
      } else reject(meta.problem);
      continue;
    }
    const parsed = parseLine(line.text);
    if (parsed === null) {
      report.skipped++;
      continue;
    }
    if (!parsed.ok) {
      reject(parsed.problem);
      continue;
    }
    if (options.knownEnvs && !options.knownEnvs.includes(parsed.transition.env)) {
      reject(`env: "${parsed.transition.env}" is not an environment of this build (${options.knownEnvs.join(', ')})`);
      continue;
    }
    // An imported transition gets a new id where it lands; the file's id names nothing here.
    const { id: _ignored, ...transition } = parsed.transition;
    batch.push(options.transform ? options.transform(transition) : transition);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return report;
}

/** One transition as one line (the vector stays behind: it is recomputed on import). */
export function transitionLine(t: Transition & Pick<StoredTransition, 'vector' | 'vectorVersion'>): string {
  return `${JSON.stringify(withoutVector(t))}\n`;
}
