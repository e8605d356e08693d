/**
 * A stored transition as a step the policy could have taken: the policy's own candidates at the
 * stored state (the admissible actions, the search box expanded into the proposed queries), their
 * features, and which candidate the stored action was, so the offline losses score it with
 * exactly the log-probability a rollout would have given it.
 *
 * A search the policy cannot type (the oracle searches with the target product's title, which
 * no proposed query is) counts as the proposed query with the most words in common with it: the
 * nearest choice the policy has to the demonstrated search. An action that names no candidate
 * (an inadmissible one, which the random agent's steps can hold) gives no step.
 */
import { matchAdmissible, matchKey, parseWebAction } from '../../core/actions.ts';
import { tokens } from '../../core/text.ts';
import type { Transition } from '../../core/types.ts';
import type { Features } from '../../policy/featurizer.ts';
import { NoActionsError, type Policy } from '../../policy/policy.ts';

export interface PolicyStep {
  features: Features;
  /** The stored action among the candidates `features.actions` describes. */
  actionIndex: number;
  /** Whether the stored action was a search outside the proposed queries, taken as the nearest one. */
  nearestQuery: boolean;
}

/** Which of `candidates` the stored `action` was (see the module comment); null when none. */
export function candidateIndex(action: string, admissible: readonly string[], candidates: readonly string[]): { index: number; nearestQuery: boolean } | null {
  const key = matchKey(matchAdmissible(action, admissible) ?? action);
  const exact = candidates.findIndex((c) => matchKey(c) === key);
  if (exact >= 0) return { index: exact, nearestQuery: false };
  const web = parseWebAction(action);
  if (web?.kind !== 'search' || matchAdmissible(action, admissible) === null) return null;
  const wanted = new Set(tokens(web.query));
  let best = -1;
  let bestShared = -1;
  candidates.forEach((c, i) => {
    const query = parseWebAction(c);
    if (query?.kind !== 'search') return;
    const shared = tokens(query.query).filter((w) => wanted.has(w)).length;
    if (shared > bestShared) {
      best = i;
      bestShared = shared;
    }
  });
  return best < 0 ? null : { index: best, nearestQuery: true };
}

/** The policy's view of a stored step, or null when the policy could not have taken its action. */
export function policyStep(policy: Policy, t: Transition): PolicyStep | null {
  const input = { env: t.env, instruction: t.instruction, observation: t.state, history: t.history };
  let candidates: string[];
  try {
    candidates = policy.candidates(input);
  } catch (error) {
    // A state with nothing to choose between (the policy refuses to act there) teaches nothing.
    if (error instanceof NoActionsError) return null;
    throw error;
  }
  const match = candidateIndex(t.action, t.state.actions, candidates);
  if (match === null) return null;
  return { features: policy.featurizer.featurize(input, candidates), actionIndex: match.index, nearestQuery: match.nearestQuery };
}

