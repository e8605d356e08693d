/**
 * How an experience model rewards the purchases a policy really makes: every `click[Buy Now]` of a
 * greedy run on the real shop's test split, grouped by why it fell short (WebShop's reward
 * breakdown), with the real reward and the model's, teacher-forced from the real state. This is
 * where a dream-trained policy finds a model's generosity: purchases it rates near 1 that the
 * real shop pays less for.
 */
import { matchKey, parseWebAction } from '../src/core/actions.ts';
import { elementFields, parseState } from '../src/core/state.ts';
import { RESULTS_PER_PAGE } from '../src/envs/shop/pages.ts';
import type { RewardBreakdown } from '../src/envs/shop/reward.ts';
import { pageKind } from '../src/replay/embed.ts';

export type PurchaseKind = 'win' | 'wrong type' | 'options and attributes' | 'options' | 'attributes' | 'price';

export function purchaseKind(score: RewardBreakdown): PurchaseKind {
  if (score.success) return 'win';
  if (score.rType < 1) return 'wrong type';
  const options = score.missingOptions.length > 0;
  const attributes = score.missingAttributes.length > 0;
  if (options && attributes) return 'options and attributes';
  if (options) return 'options';
  if (attributes) return 'attributes';
  return 'price';
}

export interface PurchaseSummary {
  purchases: number;
  /** Mean real and predicted reward. */
  real: number;
  predicted: number;
  /** Share predicted within ±0.05 of the real reward. */
  accuracy: number;
}

const KIND_ORDER: readonly (PurchaseKind | 'all')[] = ['all', 'win', 'options', 'attributes', 'options and attributes', 'price', 'wrong type'];

/** One summary per kind (and `all`), in a fixed order; kinds with no purchase are left out. */
function perKind<R extends { kind: PurchaseKind }, S>(rows: readonly R[], summarize: (group: readonly R[], mean: (f: (r: R) => number) => number) => S): Record<string, S> {
  const out: Record<string, S> = {};
  for (const kind of KIND_ORDER) {
    const group = kind === 'all' ? rows : rows.filter((r) => r.kind === kind);
    if (group.length === 0) continue;
    out[kind] = summarize(group, (f) => group.reduce((a, r) => a + f(r), 0) / group.length);
  }
  return out;
}

export function summarizePurchases(rows: readonly { kind: PurchaseKind; real: number; predicted: number }[]): Record<string, PurchaseSummary> {
  return perKind(rows, (group, mean) => ({ purchases: group.length, real: mean((r) => r.real), predicted: mean((r) => r.predicted), accuracy: mean((r) => (Math.abs(r.predicted - r.real) <= 0.05 ? 1 : 0)) }));
}

/**
 * What the pages before a purchase showed of the bought product: its rank in the results it was
 * opened from (1 = the store's first result; the store ranks by BM25 over title, attributes and
 * description, so attributes no page shows still move a product up), and whether the page it was
 * bought from names every attribute the goal wants. A missing attribute is, by the reward's own
 * test, named on none of the product's pages; a met one may be hidden as well, so the item page
 * alone cannot tell them apart. Rank null: the product was not opened from a results page.
 */
export interface PurchaseEvidence {
  rank: number | null;
  attributesShown: boolean;
}

export function purchaseEvidence(steps: readonly { state: string; action: string; next: string }[], wantedAttributes: readonly string[]): PurchaseEvidence {
  let rank: number | null = null;
  for (const step of steps) {
    const from = parseState(step.state);
    if (pageKind(from) !== 'page results' || pageKind(parseState(step.next)) !== 'page item') continue;
    const page = Number(/^Page (\d+) /.exec(from.elements.find((e) => e.kind === 'text')?.text ?? '')?.[1] ?? 1);
    const action = parseWebAction(step.action);
    const clicked = action?.kind === 'click' ? matchKey(action.target) : undefined;
    const position = from.elements.filter((e) => e.kind === 'link').findIndex((e) => matchKey(elementFields(e)[0] ?? '') === clicked);
    rank = position < 0 ? null : (page - 1) * RESULTS_PER_PAGE + position + 1;
  }
  const last = steps.at(-1);
  const bought = last === undefined ? undefined : parseState(last.state);
  if (bought === undefined || pageKind(bought) !== 'page item') return { rank, attributesShown: false };
  const shown = bought.elements.map((e) => e.text.toLowerCase()).join(' ');
  return { rank, attributesShown: wantedAttributes.every((a) => shown.includes(a.toLowerCase())) };
}

/** Per kind: the share of purchases of the store's first result, and of pages naming every wanted attribute. */
export function summarizeEvidence(rows: readonly ({ kind: PurchaseKind } & PurchaseEvidence)[]): Record<string, { firstResult: number; attributesShown: number }> {
  return perKind(rows, (_, mean) => ({ firstResult: mean((r) => (r.rank === 1 ? 1 : 0)), attributesShown: mean((r) => (r.attributesShown ? 1 : 0)) }));
}

/**
 * Products opened per episode (results page → item page), as counts of episodes that opened 0, 1,
 * 2 or 3 and more. A policy that never opens a second product buys whatever the first page offers,
 * even when it lacks the wanted option; a real-mode policy goes back.
 */
export function productsOpened(episodes: readonly (readonly { state: string; next: string }[])[]): Record<'0' | '1' | '2' | '3+', number> {
  const out = { '0': 0, '1': 0, '2': 0, '3+': 0 };
  for (const steps of episodes) {
    const n = steps.filter((s) => pageKind(parseState(s.state)) === 'page results' && pageKind(parseState(s.next)) === 'page item').length;
    out[n >= 3 ? '3+' : (String(n) as '0' | '1' | '2')]++;
  }
  return out;
}

/**
 * For each wanted option a purchase missed: was its value offered on the page it bought from? A
 * shown one was left unchosen (the policy did not click it); an absent one the product lacks, and
 * only going back to another product would have met it.
 */
export function missedOptions(purchases: readonly { state: string; goalOptions: Readonly<Record<string, string>>; missing: readonly string[] }[]): { shown: number; absent: number } {
  const out = { shown: 0, absent: 0 };
  for (const { state, goalOptions, missing } of purchases) {
    const offered = parseState(state)
      .elements.filter((e) => e.kind === 'option')
      .map((e) => elementFields(e).map((f) => f.toLowerCase()));
    for (const type of missing) {
      const value = goalOptions[type]?.toLowerCase();
      if (offered.some(([v, t]) => v === value && t === type.toLowerCase())) out.shown++;
      else out.absent++;
    }
  }
  return out;
}
