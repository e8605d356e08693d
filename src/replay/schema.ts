/**
 * What a transition from outside (a JSONL file, another tab, an older build) must look like before
 * it is stored. Validation is valibot's: every problem comes back with its path, so a bad line says
 * which field is wrong, not just "invalid".
 */
import * as v from 'valibot';
import type { Transition } from '../core/types.ts';

/** Generous bounds: a state is a screenful of text, not a novel; they keep one bad line from eating memory. */
const MAX_TEXT = 64 * 1024;
const MAX_ACTIONS = 1024;
const MAX_HISTORY = 256;
/** Rewards are a step's score (0 to 1 in both environments); far beyond that is a corrupt value, not a reward. */
const MAX_REWARD = 1000;

const text = v.pipe(v.string(), v.maxLength(MAX_TEXT));
const id = v.pipe(v.string(), v.minLength(1), v.maxLength(512));

const observation = v.strictObject({
  text,
  actions: v.pipe(v.array(v.pipe(v.string(), v.maxLength(1024))), v.maxLength(MAX_ACTIONS)),
});

export const transitionSchema = v.strictObject({
  id: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(1))),
  runId: id,
  taskId: id,
  episodeId: v.optional(id),
  env: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  instruction: text,
  history: v.pipe(v.array(v.pipe(v.string(), v.maxLength(1024))), v.maxLength(MAX_HISTORY)),
  state: observation,
  action: v.pipe(v.string(), v.maxLength(1024)),
  reasoning: v.optional(text),
  next: observation,
  reward: v.pipe(v.number(), v.finite(), v.minValue(-MAX_REWARD), v.maxValue(MAX_REWARD)),
  done: v.boolean(),
  source: v.picklist(['real', 'synthetic']),
  createdAt: v.pipe(v.number(), v.finite(), v.minValue(0)),
});

export type ValidationResult = { ok: true; transition: Transition } | { ok: false; problem: string };

/** Check an untrusted value; the problem names the first few bad fields by path. */
export function validateTransition(value: unknown): ValidationResult {
  const result = v.safeParse(transitionSchema, value);
  if (result.success) return { ok: true, transition: result.output as Transition };
  const problems = result.issues.slice(0, 3).map((issue) => {
    const path = v.getDotPath(issue);
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  return { ok: false, problem: problems.join('; ') };
}
