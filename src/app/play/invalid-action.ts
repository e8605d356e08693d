import type { StepResult } from '../../core/types.ts';

/**
 * Why the environment did not take an action, in its own words (shop: not well-formed, or not an
 * action on this page; home: does not apply here; web: not a page action, or not one the page
 * admits now), so a person knows what to change; null for an action it took. The envs explain
 * every step (`StepInfo.explanation`); the fallback is for a result that carries no explanation.
 */
export function whyInvalid(result: StepResult): string | null {
  if (result.info.valid) return null;
  const explanation = result.info.explanation;
  return typeof explanation === 'string' && explanation.trim() !== '' ? explanation : 'Nothing happened (reward 0).';
}
