/**
 * Teacher annotations: the real environments explain every step in one or two plain sentences
 * (`StepInfo.explanation`), from their ground truth — what the action did and why the reward is
 * what it is. Seeding stores the text as a real transition's `reasoning`, which is what an
 * experience model's reasoning output learns from (DreamGym's reasoning traces).
 *
 * These helpers keep the texts short, printable and deterministic whatever the agent typed.
 */

/** Longest explanation an environment gives (the experience prompt clips reasoning at the same length). */
export const EXPLANATION_MAX = 300;

/** How much of an agent's own text (an action, a query) an explanation quotes. */
const QUOTE_MAX = 100;

export const STEP_LIMIT_NOTE = ' The step limit is reached, so the episode ends.';

/** Cut `text` to at most `max` UTF-16 units, ending in "…" when cut, never inside a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/**
 * An agent's text in double quotes: control and direction characters made spaces, whitespace
 * collapsed, long text clipped. Bounded before any regex runs, so a megabyte of junk costs nothing.
 */
export function quote(action: unknown, max = QUOTE_MAX): string {
  // A caller in plain JavaScript may pass anything; the environments treat it as an invalid action.
  const text = typeof action === 'string' ? action : `(a ${action === null ? 'null' : typeof action} value)`;
  const head = text.slice(0, max * 4);
  // eslint-disable-next-line no-control-regex
  const clean = head.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g, ' ').replace(/\s+/g, ' ').trim();
  // Cut before cleaning: the quote ends in "…" even when the whitespace collapse made it short.
  const body = text.length > head.length ? `${clip(clean, max - 1).replace(/…$/, '')}…` : clip(clean, max);
  return `"${body}"`;
}

/** "a", "a and b", "a, b and c"; past `max` items, "a, b, c and 4 more". */
export function listNames(names: readonly string[], max = 6): string {
  if (names.length === 0) return '';
  const shown = names.length > max ? [...names.slice(0, max - 1), `${names.length - (max - 1)} more`] : names;
  if (shown.length === 1) return shown[0] as string;
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1] as string}`;
}

/** A reward as an explanation states it: at most two decimals, no trailing zeros (1, 0.5, 0.67). */
export function rewardText(reward: number): string {
  return String(Number(reward.toFixed(2)));
}

/** The final text: the step's explanation, clipped, plus the step-limit note when the episode was cut short. */
export function finish(text: string, truncated: boolean): string {
  if (!truncated) return clip(text, EXPLANATION_MAX);
  return clip(text, EXPLANATION_MAX - STEP_LIMIT_NOTE.length) + STEP_LIMIT_NOTE;
}

/** The first of `variants` (most detailed first) that fits in `max`, else the last one clipped. */
export function firstFitting(variants: readonly string[], max = EXPLANATION_MAX): string {
  for (const v of variants) if (v.length <= max) return v;
  return clip(variants[variants.length - 1] ?? '', max);
}
