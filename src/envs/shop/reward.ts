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
  /** The goal's attributes the product does not match, in the goal's order. */
  missingAttributes: string[];
  /** The goal's option types whose wanted value was not chosen, in the goal's order. */
  missingOptions: string[];
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

/** The goal's attributes the product misses. */
function missingAttributes(product: Product, goal: ShopGoal): string[] {
  const text = [product.title, product.features.join(' '), product.description].join(' ').toLowerCase();
  const missing: string[] = [];
  for (const wanted of goal.attributes) {
    const fuzzy = product.attributes.some((has) => token_set_ratio(has, wanted) > FUZZY_THRESHOLD);
    if (!(fuzzy || text.includes(wanted.toLowerCase()))) missing.push(wanted);
  }
  return missing;
}

/** The goal's option types whose wanted value no chosen value matches. */
function missingOptions(selected: Readonly<Record<string, string>>, goal: ShopGoal): string[] {
  const chosen = Object.values(selected);
  const missing: string[] = [];
  for (const [type, wanted] of Object.entries(goal.options)) {
    if (!chosen.some((value) => token_set_ratio(value, wanted) > FUZZY_THRESHOLD)) missing.push(type);
  }
  return missing;
}

export function shopReward(product: Product, selected: Readonly<Record<string, string>>, goal: ShopGoal): RewardBreakdown {
  const { rType, titleScore, categoryMatch } = typeReward(product, goal);
  const attrsMissing = missingAttributes(product, goal);
  const optsMissing = missingOptions(selected, goal);
  const attrs = goal.attributes.length - attrsMissing.length;
  const opts = Object.keys(goal.options).length - optsMissing.length;
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
    missingAttributes: attrsMissing,
    missingOptions: optsMissing,
    priceMatch,
    success: reward >= 1 - 1e-9,
  };
}
