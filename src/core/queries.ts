/**
 * Free text as a choice. Where an environment admits any text (a template such as the shop's
 * `search[...]` or a web page's `type[#9 Email | ...]`), the policy chooses among the texts the
 * environment proposes for the instruction (EnvSpec.proposeQueries; the shop's is
 * envs/shop/queries.ts), so it only ever chooses.
 */
import { fillTemplate, isTemplate } from './actions.ts';
import type { Observation } from './types.ts';

/**
 * The queries worth typing for an instruction, most specific first. `shown` is the state the
 * template is offered in: a text the instruction only refers to ("enter the code we texted you")
 * is on the page, where a person copies it from.
 */
export type QueryProposer = (instruction: string, shown: string) => string[];

/**
 * The admissible actions with each template replaced by its fills from the proposed texts; an
 * environment that proposes none leaves its templates out (nothing concrete to choose).
 */
export function expandActions(observation: Observation, instruction: string, propose: QueryProposer | undefined): string[] {
  const out: string[] = [];
  let proposed: string[] | null = null;
  for (const action of observation.actions) {
    if (!isTemplate(action)) out.push(action);
    else if (propose) {
      proposed ??= propose(instruction, observation.text);
      for (const text of proposed) out.push(fillTemplate(action, text));
    }
  }
  return out;
}

/**
 * Whether the policy has anything to choose in this state: an action that is not a template, or
 * a template the proposed texts fill (the proposer runs only when every action is a template, so a
 * state with a plain action costs nothing more to check).
 */
export function leavesAChoice(observation: Observation, instruction: string, propose: QueryProposer | undefined): boolean {
  return observation.actions.some((action) => !isTemplate(action)) || expandActions(observation, instruction, propose).length > 0;
}
