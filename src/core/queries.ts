/**
 * Free text as a choice. Where an environment admits any text (the web syntax's `search[...]`
 * template), the policy chooses among the queries the environment proposes for the instruction
 * (EnvSpec.proposeQueries; the shop's is envs/shop/queries.ts), so it only ever chooses.
 */
import { SEARCH_TEMPLATE, searchAction } from './actions.ts';

/** The queries worth typing for an instruction, most specific first. */
export type QueryProposer = (instruction: string) => string[];

/**
 * The admissible actions with the search template replaced by the proposed searches; an
 * environment that proposes none leaves the template out (nothing concrete to choose).
 */
export function expandActions(actions: readonly string[], instruction: string, propose: QueryProposer | undefined): string[] {
  const out: string[] = [];
  for (const action of actions) {
    if (action !== SEARCH_TEMPLATE) out.push(action);
    else if (propose) out.push(...propose(instruction).map(searchAction));
  }
  return out;
}
