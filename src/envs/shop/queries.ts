/**
 * The shop's query proposer. Its search box admits any text (`search[...]`); rather than generate
 * free text, a policy chooses among a few queries built from the instruction, so it only ever
 * chooses (after WebShop's choice-based RL baseline). The seeding shopper searches with the same
 * queries, so the replay buffer holds the result pages a policy will ask the experience model for.
 * The shop's spec offers it as its `proposeQueries`.
 */
import { tokens } from '../../core/text.ts';

const REQUEST_OPENERS = /^(i need|i am looking for|i'm looking for|find me|i want to buy|get me|i would like)\s+/;
const PRICE_CLAUSE = /,?\s*and price (lower|less) than [0-9.]+ dollars\.?$/;

/** Distinct queries, most specific first: the whole request without its price clause, then its head. */
export function proposeQueries(instruction: string): string[] {
  const request = instruction.toLowerCase().trim().replace(PRICE_CLAUSE, '').replace(REQUEST_OPENERS, '');
  const whole = tokens(request).join(' ');
  const head = tokens(request.split(/\bwith\b/)[0] ?? request).join(' ');
  return [...new Set([whole, head].filter((q) => q.length > 0))];
}
