/**
 * JSONL import and export of transitions, streamed: one transition per line, so a million-line file
 * never sits in memory as one string, and one bad line costs only itself. Lines are numbered from 1
 * so a report points at the line an editor shows.
 */
import type { Transition } from '../core/types.ts';
import { validateTransition } from './schema.ts';

export interface LineProblem {
  line: number;
  problem: string;
}

export interface ImportReport {
  /** Lines that held a valid transition (all of them were handed on). */
  accepted: number;
  /** Lines skipped (blank lines are neither accepted nor rejected). */
  rejectedCount: number;
  /** The first of them, with why. */
  rejected: LineProblem[];
  /** Lines read in all, blank ones included. */
  lines: number;
}

/** Only the first problems are kept in a report; a file of a million bad lines still reports its count. */
const MAX_REPORTED = 100;

/** Split a stream of text chunks into lines (LF or CRLF), without holding more than one partial line. */
export async function* lines(chunks: AsyncIterable<string> | Iterable<string>): AsyncGenerator<string> {
  let carry = '';
  for await (const chunk of chunks) {
    carry += chunk;
    let start = 0;
    let nl: number;
    while ((nl = carry.indexOf('\n', start)) >= 0) {
      const end = nl > start && carry[nl - 1] === '\r' ? nl - 1 : nl;
      yield carry.slice(start, end);
      start = nl + 1;
    }
    carry = carry.slice(start);
  }
  if (carry.length > 0) yield carry.endsWith('\r') ? carry.slice(0, -1) : carry;
}

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
  options: { batchSize?: number; onProgress?: (report: ImportReport) => void; transform?: (t: Transition) => Transition } = {},
): Promise<ImportReport> {
  const batchSize = options.batchSize ?? 1000;
  const report: ImportReport = { accepted: 0, rejectedCount: 0, rejected: [], lines: 0 };
  let batch: Transition[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const out = batch;
    batch = [];
    await onBatch(out);
    report.accepted += out.length;
    options.onProgress?.(report);
  };
  for await (const text of lines(chunks)) {
    report.lines++;
    const parsed = parseLine(text);
    if (parsed === null) continue;
    if (!parsed.ok) {
      report.rejectedCount++;
      if (report.rejected.length < MAX_REPORTED) report.rejected.push({ line: report.lines, problem: parsed.problem });
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
export function transitionLine(t: Transition & { vector?: unknown }): string {
  const { vector: _vector, ...rest } = t;
  return `${JSON.stringify(rest)}\n`;
}
