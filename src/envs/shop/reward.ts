/**
 * WebShop's reward for a purchase (Yao et al., 2022, `get_reward`):
 *
 *   R = r_type × (n_attr_match + n_opt_match + 1[price ≤ bound]) / (|attrs| + |opts| + 1)
 *
 * Fuzzy matching is fuzzywuzzy's token-set ratio (through fuzzball, the maintained JS port) with
 * WebShop's threshold of 85. `r_type` compares category paths and title content words the way
 * WebShop does, with nouns approximated by non-stopword tokens (WebShop uses spaCy POS tags).
 */
import { token_set_ratio } from 'fuzzball/ultra_lite';
import type { Product } from './catalog.ts';
import type { ShopGoal } from './goal.ts';
import { STOPWORDS } from './vocabulary.ts';

export const FUZZY_THRESHOLD = 85;

export interface RewardBreakdown {
  reward: number;
  rType: number;
  titleScore: number;
  categoryMatch: boolean;
  attributeMatches: number;
  optionMatches: number;
  priceMatch: boolean;
  /** WebShop's harsh success: every constraint met and the right type of product. */
  success: boolean;
}

export function contentWords(title: string): Set<string> {
  const words = title.toLowerCase().match(/[a-z][a-z'-]*/g) ?? [];
  return new Set(words.filter((w) => w.length > 1 && !STOPWORDS.has(w)));
}

/** WebShop's `get_type_reward`: 1, 0.5, 0.1 or 0 as the bought product drifts from the goal's type. */
export function typeReward(product: Product, goal: ShopGoal): { rType: number; titleScore: number; categoryMatch: boolean } {
  const goalPath = new Set(goal.path);
  const categoryMatch = product.path.filter((c) => goalPath.has(c)).length >= 2;
  const wanted = contentWords(goal.title);
  const bought = contentWords(product.title);
  let shared = 0;
  for (const w of wanted) if (bought.has(w)) shared++;
  const titleScore = wanted.size === 0 ? 0.2 : shared / wanted.size;
  let rType = categoryMatch || titleScore > 0.2 ? 1 : 0.5;
  if (titleScore < 0.1) rType = 0.1;
  if (titleScore === 0) rType = 0;
  return { rType, titleScore, categoryMatch };
}

function attributeMatches(product: Product, goal: ShopGoal): number {
  const text = [product.title, product.features.join(' '), product.description].join(' ').toLowerCase();
  let matches = 0;
  for (const wanted of goal.attributes) {
    const fuzzy = product.attributes.some((has) => token_set_ratio(has, wanted) > FUZZY_THRESHOLD);
    if (fuzzy || text.includes(wanted.toLowerCase())) matches++;
  }
  return matches;
}

function optionMatches(selected: Readonly<Record<string, string>>, goal: ShopGoal): number {
  const chosen = Object.values(selected);
  let matches = 0;
  for (const wanted of Object.values(goal.options)) {
    if (chosen.some((value) => token_set_ratio(value, wanted) > FUZZY_THRESHOLD)) matches++;
  }
  return matches;
}

export function shopReward(product: Product, selected: Readonly<Record<string, string>>, goal: ShopGoal): RewardBreakdown {
  const { rType, titleScore, categoryMatch } = typeReward(product, goal);
  const attrs = attributeMatches(product, goal);
  const opts = optionMatches(selected, goal);
  const priceMatch = product.price <= goal.priceUpper;
  const total = goal.attributes.length + Object.keys(goal.options).length + 1;
  const reward = (rType * (attrs + opts + (priceMatch ? 1 : 0))) / total;
  return {
    reward,
    rType,
    titleScore,
    categoryMatch,
    attributeMatches: attrs,
    optionMatches: opts,
    priceMatch,
    success: reward >= 1 - 1e-9,
  };
}
