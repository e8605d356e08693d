/**
 * Where a command writes. Results go to stdout (with --json, one JSON object as the last line);
 * progress goes to stderr so that piping stdout into a JSON parser always works.
 */
export interface CommandIO {
  out(text: string): void;
  result(value: unknown): void;
  progress(text: string): void;
}

export const processIO: CommandIO = {
  out: (text) => process.stdout.write(`${text}\n`),
  result: (value) => process.stdout.write(`${JSON.stringify(value)}\n`),
  progress: (text) => process.stderr.write(`${text}\n`),
};
