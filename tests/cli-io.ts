/** The CLI's output, captured, for tests that run a command in-process (`main(argv, io)`). */
import type { CommandIO } from '../src/cli/io.ts';

/** A CommandIO that keeps what a command printed: results and plain text on stdout, progress and errors on stderr. */
export function capture(): CommandIO & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (t) => stdout.push(t), result: (v) => stdout.push(JSON.stringify(v)), progress: (t) => stderr.push(t) };
}
