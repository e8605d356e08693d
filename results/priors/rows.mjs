// What the priors scripts share (summarize.mjs here and foreign/summarize.mjs; success-by-goal.mjs and
// success-scores.mjs): the rows' names, reading a row's JSON line or a file of JSON lines, and the
// statistics over seeds.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

export const ROW_NAMES = {
  untrained: 'untrained policy',
  'zero-shot': 'pretrained policy, zero-shot',
  'bc-scratch': 'BC from scratch',
  'bc-pretrained': 'BC from the pretrained policy',
  'dream-scratch': 'dream GRPO from BC (scratch), model fitted from nothing',
  'dream-pretrained': 'dream GRPO from BC (pretrained), pretrained model fine-tuned',
  's2r-scratch': 's2r (dream, then 1,000 real), scratch',
  's2r-pretrained': 's2r (dream, then 1,000 real), pretrained',
};

/** A row's JSON line, or null where the row has not finished (missing, empty or cut short). */
export const read = (file) => {
  try {
    const text = readFileSync(file, 'utf8').trim();
    return text === '' ? null : JSON.parse(text);
  } catch {
    return null;
  }
};
/**
 * The records of a JSON-lines file (the steps `experience eval --steps` writes, a buffer seed file);
 * a file that cannot be read or a line that is not JSON ends the script with what and where (exit 2).
 */
export function jsonLines(file, script) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    console.error(`${script}: cannot read ${file} (${error.code ?? error.message})`);
    process.exit(2);
  }
  return text.split('\n').flatMap((line, i) => {
    if (line.trim() === '') return [];
    try {
      return [JSON.parse(line)];
    } catch {
      console.error(`${script}: ${file} line ${i + 1} is not JSON (the file holds one JSON record per line)`);
      process.exit(2);
    }
  });
}
/** The entries of `dir` whose names match `pattern` (none where `dir` is missing). */
export const dirs = (dir, pattern) => (existsSync(dir) ? readdirSync(dir).filter((d) => pattern.test(d)) : []);
export const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
export const std = (xs) => (xs.length < 2 ? null : Math.sqrt(xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / (xs.length - 1)));
export const round = (x, d = 4) => (x === null || x === undefined ? null : Number(x.toFixed(d)));
