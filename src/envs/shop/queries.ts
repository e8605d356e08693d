/**
 * The shop's query proposer. Its search box admits any text (`search[...]`); rather than generate
 * free text, a policy chooses among a few queries built from the instruction, so it only ever
 * chooses (after WebShop's choice-based RL baseline). The seeding shopper searches with the same
 * queries, so the replay buffer holds the result pages a policy will ask the experience model for.
 * The shop's spec offers it as its `proposeQueries`.
 */
import { tokens, trimEndOf } from '../../core/text.ts';

const REQUEST_OPENERS = /^(i need|i am looking for|i'm looking for|find me|i want to buy|get me|i would like)\s+/;
/** The price clause that ends a request, read from where it starts (see withoutPriceClause). */
const PRICE_CLAUSE = /^and price (lower|less) than [0-9.]+ dollars\.?$/;

/**
 * The request without the price clause that ends it (and the comma and spaces before it). Found by
 * its words, not by `/,?\s*and price …$/`, which tried each space of a long run to the end.
 */
function withoutPriceClause(request: string): string {
  const at = request.lastIndexOf('and price ');
  if (at < 0 || !PRICE_CLAUSE.test(request.slice(at))) return request;
  const before = trimEndOf(request.slice(0, at), ' \t\n');
  return before.endsWith(',') ? before.slice(0, -1) : before;
}

/** Distinct queries, most specific first: the whole request without its price clause, then its head. */
export function proposeQueries(instruction: string): string[] {
  const request = withoutPriceClause(instruction.toLowerCase().trim()).replace(REQUEST_OPENERS, '');
  const whole = tokens(request).join(' ');
  const head = tokens(request.split(/\bwith\b/)[0] ?? request).join(' ');
  return [...new Set([whole, head].filter((q) => q.length > 0))];
}
