/**
 * The pieces every job's spec is made of, and one way to check a spec. A job's spec is a valibot
 * schema that owns its defaults and bounds; the CLI maps its flags onto it and the app maps its
 * form onto it, so neither restates a default and both refuse the same values with the same words.
 * tfjs-free: the page imports the specs to label and bound its fields.
 */
import * as v from 'valibot';
import { UsageError } from '../core/errors.ts';

/** A whole number in [min, max], said in words when it is not. */
export const wholeNumber = (min: number, max: number) =>
  v.pipe(
    v.number('must be a number'),
    v.check((n) => Number.isInteger(n) && n >= min && n <= max, `must be a whole number from ${min} to ${max.toLocaleString('en-US')}`),
  );

/** A number in [min, max]. */
export const numberIn = (min: number, max: number) =>
  v.pipe(v.number('must be a number'), v.check((n) => Number.isFinite(n) && n >= min && n <= max, `must be a number from ${min} to ${max}`));

/** Seeds are exact integers: beyond 2^53 two different seeds would be the same number. */
export const SEED = wholeNumber(0, Number.MAX_SAFE_INTEGER);

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
  const got = issue.input === undefined ? '' : `, got ${JSON.stringify(issue.input)?.slice(0, 80) ?? String(issue.input)}`;
  throw new UsageError(path ? `${name(path)} ${issue.message}${got}` : `${issue.message}${got}`);
}
