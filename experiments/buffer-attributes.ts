/**
 * What a buffer teaches about attributes the pages do not show. Every real `click[Buy Now]` in a
 * shop buffer, split by whether the bought product is the task's target, and each wanted attribute
 * by whether the bought product's title shows it and whether the product really has it (the
 * shop's own reward test). An experience model sees only the title: if nearly every purchase whose
 * title lacks a wanted attribute still had it, the model learns that such a purchase is paid in
 * full, and a dream-trained policy never learns to prefer the product whose title shows it.
 */
import type { Product } from '../src/envs/shop/catalog.ts';
import type { ShopGoal } from '../src/envs/shop/goal.ts';
import { shopReward } from '../src/envs/shop/reward.ts';

export interface AttributeTally {
  purchases: number;
  /** Wanted attributes the title shows (they are always met). */
  inTitle: number;
  /** Wanted attributes the title does not show, and how many of those the product still has. */
  hidden: number;
  hiddenMet: number;
}

/** Purchases split by whether the product is the task's target and whether every wanted option was chosen. */
export type PurchaseGroup = 'target, options chosen' | 'target, an option missed' | 'other, options chosen' | 'other, an option missed';
const GROUPS: readonly PurchaseGroup[] = ['target, options chosen', 'target, an option missed', 'other, options chosen', 'other, an option missed'];

export interface BufferAttributes {
  groups: Record<PurchaseGroup, AttributeTally>;
  /**
   * Share of hidden attributes met: over all purchases, and over those with every wanted option
   * chosen, which is what a model learns a trained policy's purchase is worth.
   */
  hiddenMetShare: number;
  hiddenMetShareWithOptions: number;
}

const empty = (): AttributeTally => ({ purchases: 0, inTitle: 0, hidden: 0, hiddenMet: 0 });

const share = (tallies: AttributeTally[]): number => {
  const hidden = tallies.reduce((a, t) => a + t.hidden, 0);
  return hidden === 0 ? 0 : tallies.reduce((a, t) => a + t.hiddenMet, 0) / hidden;
};

/** Tally purchases given as (bought product, the options chosen, the task's goal). */
export function tallyAttributes(purchases: readonly { product: Product; selected: Readonly<Record<string, string>>; goal: ShopGoal }[]): BufferAttributes {
  const groups = Object.fromEntries(GROUPS.map((g) => [g, empty()])) as Record<PurchaseGroup, AttributeTally>;
  for (const { product, selected, goal } of purchases) {
    const score = shopReward(product, selected, goal);
    const tally = groups[`${product.id === goal.productId ? 'target' : 'other'}, ${score.missingOptions.length === 0 ? 'options chosen' : 'an option missed'}`];
    tally.purchases++;
    const missing = new Set(score.missingAttributes);
    for (const attribute of goal.attributes) {
      if (product.title.toLowerCase().includes(attribute.toLowerCase())) tally.inTitle++;
      else {
        tally.hidden++;
        if (!missing.has(attribute)) tally.hiddenMet++;
      }
    }
  }
  return {
    groups,
    hiddenMetShare: share(Object.values(groups)),
    hiddenMetShareWithOptions: share([groups['target, options chosen'], groups['other, options chosen']]),
  };
}
