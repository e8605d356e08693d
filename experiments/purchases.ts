/**
 * How an experience model rewards the purchases a policy really makes: every `click[Buy Now]` of a
 * greedy run on the real shop's test split, grouped by why it fell short (WebShop's reward
 * breakdown), with the real reward and the model's, teacher-forced from the real state. This is
 * where a dream-trained policy finds a model's generosity: purchases it rates near 1 that the
 * real shop pays less for.
 */
import { elementFields, parseState } from '../src/core/state.ts';
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

/** Per kind (and `all`), in a fixed order; kinds with no purchase are left out. */
export function summarizePurchases(rows: readonly { kind: PurchaseKind; real: number; predicted: number }[]): Record<string, PurchaseSummary> {
  const order: (PurchaseKind | 'all')[] = ['all', 'win', 'options', 'attributes', 'options and attributes', 'price', 'wrong type'];
  const out: Record<string, PurchaseSummary> = {};
  for (const kind of order) {
    const group = kind === 'all' ? rows : rows.filter((r) => r.kind === kind);
    if (group.length === 0) continue;
    const mean = (f: (r: (typeof rows)[number]) => number) => group.reduce((a, r) => a + f(r), 0) / group.length;
    out[kind] = { purchases: group.length, real: mean((r) => r.real), predicted: mean((r) => r.predicted), accuracy: mean((r) => (Math.abs(r.predicted - r.real) <= 0.05 ? 1 : 0)) };
  }
  return out;
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
