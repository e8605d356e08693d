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
