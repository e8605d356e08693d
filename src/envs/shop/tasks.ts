/**
 * Instructions and task splits. An instruction is written from a target product as WebShop's are:
 * its category noun, a subset of its attributes, one value per chosen option type, and a price
 * bound from the multiples of 10 just above its price (take the first 4, sample 2, use the larger).
 *
 * Splits have disjoint goals: each product belongs to exactly one split, and an instruction text
 * that could be written for two splits is dropped.
 *
 * Difficulty = number of constraints (attributes + options + price) + the share of products in the
 * same category that do not satisfy the goal (distractors), in [0, 1).
 */
import type { Task } from '../../core/types.ts';
import { Rng, hashString, type Seed } from '../../core/rng.ts';
import type { Catalog, Product } from './catalog.ts';
import type { ShopGoal } from './goal.ts';

export const SHOP_SPLITS = { train: 1500, test: 500 } as const;
export type ShopSplit = keyof typeof SHOP_SPLITS;

export const LEADS: readonly string[] = ['i need', 'i am looking for', 'find me', 'i want to buy', "i'm looking for", 'get me'];

/** WebShop's price-bound rule. */
export function priceBound(price: number, rng: Rng): number {
  const first = Math.floor(price / 10) * 10 + 10;
  const candidates = [first, first + 10, first + 20, first + 30];
  const [a, b] = rng.sample(candidates, 2) as [number, number];
  return Math.max(a, b);
}

export function joinWithAnd(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export function makeGoal(product: Product, rng: Rng): ShopGoal {
  const attributes = rng.sample(product.attributes, rng.range(1, Math.min(3, product.attributes.length)));
  const chosenTypes = product.options.filter(() => rng.chance(0.75));
  if (chosenTypes.length === 0 && product.options.length > 0) chosenTypes.push(rng.pick(product.options));
  const options: Record<string, string> = {};
  for (const type of chosenTypes) options[type.name] = rng.pick(type.values);
  return {
    productId: product.id,
    category: product.category,
    path: product.path,
    title: product.title,
    attributes,
    options,
    priceUpper: priceBound(product.price, rng),
  };
}

export function instructionText(goal: ShopGoal, noun: string, rng: Rng): string {
  const optionText = Object.entries(goal.options).map(([name, value]) => `${name}: ${value}`).join(', and ');
  return `${rng.pick(LEADS)} ${joinWithAnd(goal.attributes)} ${noun}` +
    (optionText ? ` with ${optionText}` : '') +
    `, and price lower than ${goal.priceUpper.toFixed(2)} dollars`;
}

/** Exact-match test used for difficulty (the reward's fuzzy test is more lenient). */
export function satisfiesGoal(product: Product, goal: ShopGoal): boolean {
  if (product.price > goal.priceUpper) return false;
  const text = `${product.title} ${product.description} ${product.features.join(' ')}`;
  if (!goal.attributes.every((a) => product.attributes.includes(a) || text.includes(a))) return false;
  return Object.entries(goal.options).every(([name, value]) => product.options.some((o) => o.name === name && o.values.includes(value)));
}

export function goalDifficulty(goal: ShopGoal, catalog: Catalog): number {
  const sameCategory = catalog.byCategory.get(goal.category) ?? [];
  const distractors = sameCategory.filter((p) => !satisfiesGoal(p, goal)).length;
  const constraints = goal.attributes.length + Object.keys(goal.options).length + 1;
  return Math.round((constraints + distractors / Math.max(1, sameCategory.length)) * 1000) / 1000;
}

/** Which split a product's goals belong to: a fixed hash, so splits never share a target. */
export function productSplit(product: Product): ShopSplit {
  return hashString(`split:${product.id}`) % 4 === 0 ? 'test' : 'train';
}

export function buildShopTasks(catalog: Catalog, seed: Seed = 'shop-tasks-v1'): Record<ShopSplit, Task[]> {
  const rng = new Rng(seed);
  const drafts: Record<ShopSplit, { goal: ShopGoal; instruction: string }[]> = { train: [], test: [] };
  const textSplit = new Map<string, ShopSplit | 'both'>();
  // Up to three passes over the shuffled products: the test split has fewer products than goals it needs.
  for (let pass = 0; pass < 3; pass++) {
    for (const product of rng.shuffle(catalog.products)) {
      const split = productSplit(product);
      if (drafts[split].length >= SHOP_SPLITS[split] * 1.05) continue;
      const goal = makeGoal(product, rng);
      const instruction = instructionText(goal, product.noun, rng);
      const seen = textSplit.get(instruction);
      textSplit.set(instruction, seen === undefined || seen === split ? split : 'both');
      if (seen === undefined) drafts[split].push({ goal, instruction });
    }
  }
  const result = {} as Record<ShopSplit, Task[]>;
  for (const split of Object.keys(SHOP_SPLITS) as ShopSplit[]) {
    const kept = drafts[split].filter((d) => textSplit.get(d.instruction) === split).slice(0, SHOP_SPLITS[split]);
    if (kept.length < SHOP_SPLITS[split]) throw new Error(`shop: only ${kept.length} ${split} goals; the catalog is too small`);
    result[split] = kept.map((d, i) => ({
      id: `shop-${split}-${String(i).padStart(4, '0')}`,
      env: 'shop',
      instruction: d.instruction,
      difficulty: goalDifficulty(d.goal, catalog),
      origin: 'seed' as const,
      goal: d.goal,
    }));
  }
  return result;
}
