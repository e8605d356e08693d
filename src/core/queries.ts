/**
 * Free text as a choice. Where an environment admits any text (a template such as the shop's
 * `search[...]` or a web page's `type[#9 Email | ...]`), the policy chooses among the texts the
 * environment proposes for the instruction (EnvSpec.proposeQueries; the shop's is
 * envs/shop/queries.ts), so it only ever chooses.
 */
import { fillTemplate, isTemplate } from './actions.ts';

/** The queries worth typing for an instruction, most specific first. */
export type QueryProposer = (instruction: string) => string[];

/**
 * The admissible actions with each template replaced by its fills from the proposed texts; an
 * environment that proposes none leaves its templates out (nothing concrete to choose).
 */
export function expandActions(actions: readonly string[], instruction: string, propose: QueryProposer | undefined): string[] {
  const out: string[] = [];
  let proposed: string[] | null = null;
  for (const action of actions) {
    if (!isTemplate(action)) out.push(action);
    else if (propose) {
      proposed ??= propose(instruction);
      for (const text of proposed) out.push(fillTemplate(action, text));
    }
  }
  return out;
}

/**
 * Whether the policy has anything to choose among these actions: one that is not a template, or a
 * template the instruction's proposed texts fill (the proposer runs only when every action is a
 * template, so a state with a plain action costs nothing more to check).
 */
export function leavesAChoice(actions: readonly string[], instruction: string, propose: QueryProposer | undefined): boolean {
  return actions.some((action) => !isTemplate(action)) || expandActions(actions, instruction, propose).length > 0;
}
