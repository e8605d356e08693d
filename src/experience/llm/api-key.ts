/**
 * What an API key may be: text that can be sent as `Authorization: Bearer KEY`. A key is a secret,
 * so what is wrong with one is said in words and by its length, never by showing it: a key with a
 * line break in it was reported as "could not connect" with the key printed whole, because fetch
 * refused the header and its error quoted the header.
 */
import * as v from 'valibot';

/** Longer than any key a server issues (hosted keys are under 200 characters, signed tokens a few thousand). */
export const MAX_API_KEY_CHARS = 4096;

/**
 * Why `key` cannot be sent as a bearer token (words that never quote it), or null when it can.
 * `min` is a floor the caller sets (the room server's own key is at least 8 characters).
 */
export function apiKeyProblem(key: string, bounds: { min?: number; max?: number } = {}): string | null {
  const { min = 1, max = MAX_API_KEY_CHARS } = bounds;
  const length = `${key.length.toLocaleString('en-US')} character${key.length === 1 ? '' : 's'}`;
  if (key.length === 0) return 'is empty';
  if (key.length > max) return `is ${length}, over the ${max.toLocaleString('en-US')} an API key may be`;
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i);
    const at = `(character ${i + 1} of ${key.length})`;
    if (code === 0x0a || code === 0x0d) return `holds a line break ${at}, which cannot be sent in an HTTP header; give the key alone, on one line`;
    if (code < 0x20 || code === 0x7f) return `holds a control character ${at}, which cannot be sent in an HTTP header`;
    if (code > 0xff) return `holds a character outside Latin-1 ${at}, which cannot be sent in an HTTP header`;
  }
  if (/^\s|\s$/.test(key)) return `begins or ends with a space (it is ${length}), which the Authorization header drops; give the key without it`;
  if (key.length < min) return `must be at least ${min} characters (it is ${length})`;
  return null;
}

/**
 * A spec's API key field: text that apiKeyProblem accepts. Its refusal carries no input, so a spec's
 * message (jobs/spec.ts says what a bad field held) cannot show the key.
 */
export const apiKeySchema = (bounds: { min?: number; max?: number } = {}) =>
  v.pipe(
    v.string('must be text'),
    v.rawCheck(({ dataset, addIssue }) => {
      const problem = dataset.typed ? apiKeyProblem(dataset.value as string, bounds) : null;
      if (problem !== null) addIssue({ message: problem, input: undefined });
    }),
  );
