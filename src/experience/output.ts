/**
 * What an LLM experience model must answer, and how an answer becomes a prediction: the JSON schema
 * for constrained decoding, then parse → repair → validate. Model output is untrusted text: nothing
 * here throws, and a reply that cannot be used says why, so the caller can retry or fall back to the
 * failure state.
 *
 * Repairs, each counted: JSON inside prose or code fences; trailing commas and curly quotes; numbers
 * and booleans written as strings; a reward outside [0, 1] clamped; elements renumbered; the
 * admissible actions respelled to match the state (web) or derived from it when missing.
 */
import * as v from 'valibot';
import { SEARCH_TEMPLATE, clickAction, matchKey, parseWebAction } from '../core/actions.ts';
import { elementTarget, parseState, renderState, type AbstractState } from '../core/state.ts';
import type { Observation } from '../core/types.ts';
import type { ActionSyntax } from './prompt.ts';
import type { ExperiencePrediction } from './types.ts';
import { boundedText } from '../core/text.ts';

/** The answer's JSON schema, in the order the model should write it: reasoning first. */
export const OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    reasoning: { type: 'string' },
    next_state: { type: 'string' },
    actions: { type: 'array', items: { type: 'string' } },
    reward: { type: 'number' },
    done: { type: 'boolean' },
  },
  required: ['reasoning', 'next_state', 'actions', 'reward', 'done'],
} as const;

export const OUTPUT_SCHEMA_TEXT = JSON.stringify(OUTPUT_SCHEMA);

/** The canonical answer for a prediction (what `serve` replies and what a transcript shows). */
export function renderAnswer(p: Pick<ExperiencePrediction, 'reasoning' | 'next' | 'reward' | 'done'>): string {
  return JSON.stringify({ reasoning: p.reasoning, next_state: p.next.text, actions: p.next.actions, reward: p.reward, done: p.done });
}

const MAX_OUTPUT_CHARS = 64_000;

const Answer = v.object({
  reasoning: v.optional(v.string(), ''),
  next_state: v.pipe(v.string(), v.trim(), v.nonEmpty('next_state is empty')),
  actions: v.optional(v.array(v.string())),
  reward: v.pipe(v.number(), v.finite('reward is not a finite number')),
  done: v.boolean(),
});

export type ParsedOutput =
  | { ok: true; prediction: ExperiencePrediction; repairs: string[] }
  | { ok: false; problem: string };

/** Find the first balanced `{…}` in text, respecting strings; null when there is none. */
export function extractJsonObject(text: string): string | null {
  const start = text.indexOf('{');
  if (start < 0) return null;
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return null;
}

export function lenientJson(text: string): unknown {
  const fixed = text
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/,\s*([}\]])/g, '$1');
  return JSON.parse(fixed);
}

/** Strings a small model writes for numbers and booleans. */
function coerceScalars(raw: Record<string, unknown>, repairs: string[]): Record<string, unknown> {
  const out = { ...raw };
  if (typeof out.reward === 'string' && out.reward.trim() !== '' && Number.isFinite(Number(out.reward))) {
    out.reward = Number(out.reward);
    repairs.push('reward written as a string');
  }
  if (typeof out.done === 'string' && /^(true|false)$/i.test(out.done.trim())) {
    out.done = out.done.trim().toLowerCase() === 'true';
    repairs.push('done written as a string');
  }
  if (out.next_state === undefined && typeof out.state === 'string') {
    out.next_state = out.state;
    repairs.push('"state" instead of "next_state"');
  }
  if (typeof out.actions === 'string') {
    out.actions = out.actions.split(/[;\n]/).map((a) => a.trim()).filter((a) => a !== '');
    repairs.push('actions as one string');
  }
  return out;
}

/** Parse the state, renumbering elements when the model numbered them wrongly. */
function repairState(text: string, repairs: string[]): AbstractState | string {
  try {
    return parseState(text);
  } catch (error) {
    let n = 0;
    const renumbered = text
      .split(/\r?\n/)
      .map((line) => (/^\s*\[\d+\]\s*/.test(line) ? `[${++n}] ${line.replace(/^\s*\[\d+\]\s*/, '')}` : line))
      .join('\n');
    try {
      const state = parseState(renumbered);
      repairs.push('elements renumbered');
      return state;
    } catch {
      return `next_state is not in the state format: ${boundedText((error as Error).message)}`;
    }
  }
}

/** Every action a web page admits, from its elements (as the real shop derives them). */
export function webActionsFromState(state: AbstractState): string[] {
  const actions: string[] = [];
  const seen = new Set<string>();
  for (const element of state.elements) {
    if (element.kind === 'searchbox') {
      if (!seen.has(SEARCH_TEMPLATE)) actions.push(SEARCH_TEMPLATE);
      seen.add(SEARCH_TEMPLATE);
    } else if (element.kind === 'button' || element.kind === 'link' || element.kind === 'option') {
      const target = elementTarget(element);
      if (!seen.has(matchKey(target))) actions.push(clickAction(target));
      seen.add(matchKey(target));
    }
  }
  return actions;
}

function normalizeActions(syntax: ActionSyntax, state: AbstractState, proposed: readonly string[] | undefined, repairs: string[]): string[] {
  if (syntax === 'web') {
    const derived = webActionsFromState(state);
    if (proposed === undefined) {
      repairs.push('actions derived from the state');
      return derived;
    }
    // The page decides what is clickable: an action for an element the state lacks cannot be taken,
    // and an element the model forgot to list can. Any query counts as the search template.
    const asKey = (a: string): string => (parseWebAction(a)?.kind === 'search' ? SEARCH_TEMPLATE : matchKey(a));
    const proposedKeys = new Set(proposed.map(asKey));
    const derivedKeys = new Set(derived.map(asKey));
    if (proposed.length !== derived.length || proposedKeys.size !== derivedKeys.size || [...derivedKeys].some((k) => !proposedKeys.has(k))) repairs.push('actions respelled to match the page');
    return derived;
  }
  const actions: string[] = [];
  const seen = new Set<string>();
  for (const action of proposed ?? []) {
    const clean = action.replace(/\s+/g, ' ').trim().toLowerCase();
    if (clean === '' || seen.has(clean)) continue;
    seen.add(clean);
    actions.push(clean);
  }
  if (actions.length !== (proposed ?? []).length) repairs.push('actions deduplicated');
  return actions;
}

/**
 * Turn a model's reply into a prediction. `ok: false` carries the problem in words; the caller
 * decides whether to retry.
 */
export function parseOutput(raw: string, syntax: ActionSyntax): ParsedOutput {
  if (typeof raw !== 'string') return { ok: false, problem: 'the reply is not text' };
  if (raw.length > MAX_OUTPUT_CHARS) return { ok: false, problem: `the reply is ${raw.length} characters, over the ${MAX_OUTPUT_CHARS} limit` };
  const repairs: string[] = [];
  const trimmed = raw.trim();
  const candidate = extractJsonObject(trimmed);
  if (candidate === null) return { ok: false, problem: 'no JSON object in the reply' };
  if (candidate !== trimmed) repairs.push('JSON taken from surrounding text');
  let json: unknown;
  try {
    json = JSON.parse(candidate);
  } catch {
    try {
      json = lenientJson(candidate);
      repairs.push('JSON syntax mended');
    } catch (error) {
      return { ok: false, problem: `the JSON does not parse: ${boundedText((error as Error).message, 120)}` };
    }
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { ok: false, problem: 'the JSON is not an object' };
  const result = v.safeParse(Answer, coerceScalars(json as Record<string, unknown>, repairs));
  if (!result.success) {
    const issue = result.issues[0];
    const path = issue.path?.map((p) => String(p.key)).join('.') ?? '';
    // valibot's words quote the value received (a model's whole reply, at worst): bounded.
    return { ok: false, problem: `${path ? `${path}: ` : ''}${boundedText(issue.message)}` };
  }
  const answer = result.output;
  const state = repairState(answer.next_state, repairs);
  if (typeof state === 'string') return { ok: false, problem: state };
  let reward = answer.reward;
  if (reward < 0 || reward > 1) {
    reward = Math.min(1, Math.max(0, reward));
    repairs.push('reward clamped to [0, 1]');
  }
  const actions = normalizeActions(syntax, state, answer.actions, repairs);
  if (!answer.done && actions.length === 0) return { ok: false, problem: 'the episode goes on but no action is admissible in the next state' };
  const next: Observation = { text: renderState(state), actions };
  return { ok: true, prediction: { reasoning: answer.reasoning.trim(), next, reward, done: answer.done, valid: true }, repairs };
}
