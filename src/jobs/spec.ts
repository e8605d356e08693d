/**
 * One way to check a job's spec (its pieces: bounds-spec.ts). A job's spec is a valibot
 * schema that owns its defaults and bounds; the CLI maps its flags onto it and the app maps its
 * form onto it, so neither restates a default and both refuse the same values with the same words.
 * tfjs-free: the page imports the specs to label and bound its fields.
 */
import * as v from 'valibot';
import { UsageError } from '../core/errors.ts';
import { integerIn } from './bounds-spec.ts';

/** Seeds are exact integers: beyond 2^53 two different seeds would be the same number. */
export const SEED = integerIn(0, Number.MAX_SAFE_INTEGER);

/**
 * How a caller names a spec's fields in its messages: the CLI says `--max-transitions`, the app
 * its form's label. The default is the field's own name.
 */
export type FieldNamer = (field: string) => string;

/** The CLI's name for a spec field: `maxTransitions` → `--max-transitions`. */
export const flagName: FieldNamer = (field) => `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** The spec as the job reads it, defaults filled in; a UsageError naming the first bad field otherwise. */
export function parseSpec<S extends v.GenericSchema>(schema: S, input: unknown, name: FieldNamer = (f) => f): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortEarly: true });
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path = issue.path?.map((p) => String(p.key)).join('.');
  // A required field left out: the object's own issue, whose words are valibot's.
  if (path && /object$/.test(issue.type) && issue.received === 'undefined') throw new UsageError(`${name(path)} is required`);
  const got = gotText(issue.input);
  throw new UsageError(path ? `${name(path)} ${issue.message}${got}` : `${issue.message}${got}`);
}

/**
 * What the field held, for the message. A form's number field left empty (or holding text) reads
 * as NaN, which JSON would print as "null", and an empty flag (`--real-budget=`) as "": say both in
 * words, alike; JSON's text for the rest.
 */
function gotText(input: unknown): string {
  if (input === undefined) return '';
  if (typeof input === 'number' && Number.isNaN(input)) return ', but it is empty or not a number';
  if (typeof input === 'string' && input.trim() === '') return ', but it is empty';
  if (typeof input === 'number' && !Number.isFinite(input)) return `, got ${String(input)}`;
  return `, got ${JSON.stringify(input)?.slice(0, 80) ?? String(input)}`;
}
