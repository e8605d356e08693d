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
  // An action is what the agent did: an empty one says nothing (a malformed one is kept: the env answered it as invalid, and that is experience too).
  action: v.pipe(v.string(), v.maxLength(1024), v.check((a) => a.trim() !== '', 'empty (a transition records the action taken)')),
  reasoning: v.optional(text),
  next: observation,
  reward: v.pipe(v.number(), v.finite(), v.minValue(-MAX_REWARD), v.maxValue(MAX_REWARD)),
  done: v.boolean(),
  source: v.picklist(['real', 'synthetic']),
  createdAt: v.pipe(v.number(), v.finite(), v.minValue(0)),
});

export type ValidationResult = { ok: true; transition: Transition } | { ok: false; problem: string };

/** The fields a transition has, named when a line holds something else entirely. */
const FIELDS = Object.keys(transitionSchema.entries);
const REQUIRED = FIELDS.filter((k) => !['id', 'episodeId', 'reasoning'].includes(k));

/** What a JSON value is, in words, for a line that is not a transition at all. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a JSON array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  return `a ${typeof value}`;
}

/** valibot's message for one issue, said in the file's terms ("missing", "not a transition field", "expected …, got …"). */
function issueText(issue: v.BaseIssue<unknown>): string {
  const path = v.getDotPath(issue);
  const received = issue.received === 'undefined' ? null : issue.received;
  let what: string;
  if (issue.kind === 'schema' && issue.type === 'strict_object' && issue.expected === 'never') what = 'not a transition field';
  else if (received === null) what = 'missing';
  else if (issue.kind === 'schema') what = `expected ${issue.expected === 'Object' ? 'an object' : issue.expected}, got ${received}`;
  else what = issue.message;
  return path ? `${path}: ${what}` : what;
}

/** Check an untrusted value; the problem names the first few bad fields by path. */
export function validateTransition(value: unknown): ValidationResult {
  // A line that is no transition at all (an array, a number, another tool's object) gets one sentence, not a field-by-field list.
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: `not a transition: ${kindOf(value)}, where each line holds one JSON object with ${REQUIRED.join(', ')}` };
  }
  const keys = Object.keys(value);
  if (!['state', 'action', 'next'].some((k) => keys.includes(k))) {
    const shown = keys.slice(0, 5).join(', ') + (keys.length > 5 ? ', …' : '');
    return { ok: false, problem: `not a transition: an object with ${keys.length === 0 ? 'no fields' : `the fields ${shown}`}, where a transition has ${REQUIRED.join(', ')}` };
  }
  const result = v.safeParse(transitionSchema, value);
  if (result.success) return { ok: true, transition: result.output as Transition };
  return { ok: false, problem: result.issues.slice(0, 3).map(issueText).join('; ') };
}
