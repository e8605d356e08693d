/**
 * Lines from a stream of decoded text chunks, for every JSONL file the project reads (imports in
 * the CLI and the Buffer view, store files). Linear in the input whatever the line lengths: a chunk
 * is searched once, a partial line is kept as pieces rather than re-concatenated per chunk, and a
 * line longer than the cap is counted, not kept, so memory stays bounded by the cap. The first
 * chunk is checked for what a text decoder hides: a UTF-8 byte-order mark is dropped, and UTF-16 or
 * binary input (NULs, or mostly undecodable bytes) is refused with a message that names it.
 */
import { DreamGymError } from '../core/errors.ts';

/**
 * Characters a line may hold. A transition's schema allows a few megabytes at most (two 64 KiB
 * texts and up to 1,024 actions of 1,024 characters each, twice); the cap sits above that.
 */
export const MAX_LINE_CHARS = 8 * 1024 * 1024;

/** A line's text, or the length of a line over the cap (its text was not kept). */
export type Line = { text: string } | { tooLong: number };

/** The input is not UTF-8 text: thrown before any line is read. */
export class InputFormatError extends DreamGymError {
  constructor(message: string) {
    super('input-format', message);
  }
}

/** How much of the start is inspected for the encoding checks. */
const SNIFF_CHARS = 4096;

function checkEncoding(head: string): void {
  const sample = head.slice(0, SNIFF_CHARS);
  if (sample.length === 0) return;
  // FF FE / FE FF (a UTF-16 byte-order mark) decode as two replacement characters in UTF-8.
  const utf16Bom = sample.startsWith('\uFFFD\uFFFD');
  const chars = [...sample];
  const nulAt = chars.flatMap((c, i) => (c === '\u0000' ? [i % 2] : []));
  const nuls = nulAt.length;
  // UTF-16 text of mostly ASCII: a NUL beside every character, so nearly all on one parity.
  const oneParity = Math.max(nulAt.filter((p) => p === 0).length, nulAt.filter((p) => p === 1).length);
  // The byte-order mark alone is not enough: random bytes can start with two undecodable ones too.
  if ((utf16Bom ? nuls > 0 : nuls >= chars.length / 4) && oneParity >= 0.9 * nuls) {
    throw new InputFormatError('the file looks like UTF-16 text (a NUL byte beside every character); save it as UTF-8 and import it again');
  }
  if (nuls > 0) throw new InputFormatError('the file is binary, not JSONL text (it holds NUL bytes); choose a .jsonl file of transitions');
  const undecodable = chars.filter((c) => c === '\uFFFD').length;
  if (undecodable > chars.length / 10) {
    throw new InputFormatError(`the file is not UTF-8 text (${undecodable} of its first ${chars.length} characters do not decode); choose a .jsonl file of transitions saved as UTF-8`);
  }
}

/** Split text chunks into lines (LF or CRLF). */
export async function* readLines(chunks: AsyncIterable<string> | Iterable<string>, options: { maxLineChars?: number } = {}): AsyncGenerator<Line> {
  const max = options.maxLineChars ?? MAX_LINE_CHARS;
  let pieces: string[] = [];
  let length = 0;
  let overflow = false;
  let first = true;
  const finish = (tail: string): Line => {
    const total = length + tail.length;
    let line: Line;
    if (overflow || total > max) line = { tooLong: total };
    else {
      const text = pieces.length === 0 ? tail : pieces.join('') + tail;
      line = { text: text.endsWith('\r') ? text.slice(0, -1) : text };
    }
    pieces = [];
    length = 0;
    overflow = false;
    return line;
  };
  for await (let chunk of chunks) {
    if (first && chunk.length > 0) {
      first = false;
      if (chunk.startsWith('\uFEFF')) chunk = chunk.slice(1);
      checkEncoding(chunk);
    }
    let start = 0;
    let nl: number;
    while ((nl = chunk.indexOf('\n', start)) >= 0) {
      yield finish(chunk.slice(start, nl));
      start = nl + 1;
    }
    const rest = chunk.length - start;
    if (rest === 0) continue;
    length += rest;
    if (overflow || length > max) overflow = true;
    else pieces.push(chunk.slice(start));
    if (overflow) pieces = [];
  }
  if (length > 0 || overflow) yield finish('');
}

/** The words for a line over the cap, in import reports and store errors. */
export function tooLongProblem(chars: number, max = MAX_LINE_CHARS): string {
  return `the line is ${chars.toLocaleString('en-US')} characters long, over the ${max.toLocaleString('en-US')} a line may hold`;
}
