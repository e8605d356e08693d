/**
 * Shop task variation: recombine the constraints of tasks in the same department. Harder adds an
 * attribute or an option another task of the department asks for, or lowers the price bound by 10;
 * easier drops one or raises the bound; sideways swaps an attribute or an option value for one a
 * sibling uses. The result keeps a real goal when some train-split product satisfies it (the goal
 * then names that product, as every shop goal does); otherwise it is synthetic-only.
 */
import type { Rng } from '../../core/rng.ts';
import type { Task } from '../../core/types.ts';
import { generatedTask, usableInstruction, type TaskVariation, type VariationDirection, type VaryOptions } from '../variation.ts';
import type { Product } from './catalog.ts';
import { isShopGoal, type ShopGoal } from './goal.ts';
import { goalDifficulty, instructionText, LEADS, productSplit, satisfiesGoal } from './tasks.ts';
import { CATEGORIES } from './vocabulary.ts';
import { shopWorld, type ShopWorld } from './world.ts';

type Draft = Pick<ShopGoal, 'attributes' | 'options' | 'priceUpper'>;
type Edit = (draft: Draft, kin: readonly ShopGoal[], rng: Rng) => Draft | null;

const without = <T>(items: readonly T[], item: T): T[] => items.filter((x) => x !== item);

/** Constraint values the siblings use that the draft does not. */
function kinAttributes(draft: Draft, kin: readonly ShopGoal[]): string[] {
  return [...new Set(kin.flatMap((g) => g.attributes))].filter((a) => !draft.attributes.includes(a));
}
function kinOptions(kin: readonly ShopGoal[]): [string, string][] {
  const seen = new Map<string, [string, string]>();
  for (const g of kin) for (const pair of Object.entries(g.options)) seen.set(pair.join('\u0000'), pair);
  return [...seen.values()];
}

const EDITS: Readonly<Record<VariationDirection, readonly Edit[]>> = {
  harder: [
    (d, kin, rng) => {
      const extra = kinAttributes(d, kin);
      return extra.length > 0 && d.attributes.length < 4 ? { ...d, attributes: [...d.attributes, rng.pick(extra)] } : null;
    },
    (d, kin, rng) => {
      const extra = kinOptions(kin).filter(([name]) => !(name in d.options));
      if (extra.length === 0) return null;
      const [name, value] = rng.pick(extra);
      return { ...d, options: { ...d.options, [name]: value } };
    },
    (d) => (d.priceUpper > 10 ? { ...d, priceUpper: d.priceUpper - 10 } : null),
  ],
  easier: [
    (d, _kin, rng) => (d.attributes.length > 1 ? { ...d, attributes: without(d.attributes, rng.pick(d.attributes)) } : null),
    (d, _kin, rng) => {
      const names = Object.keys(d.options);
      if (names.length === 0) return null;
      const drop = rng.pick(names);
      return { ...d, options: Object.fromEntries(Object.entries(d.options).filter(([n]) => n !== drop)) };
    },
    (d) => ({ ...d, priceUpper: d.priceUpper + 10 }),
  ],
  sideways: [
    (d, kin, rng) => {
      const extra = kinAttributes(d, kin);
      if (extra.length === 0 || d.attributes.length === 0) return null;
      const out = rng.pick(d.attributes);
      return { ...d, attributes: d.attributes.map((a) => (a === out ? rng.pick(extra) : a)) };
    },
    (d, kin, rng) => {
      const swaps = kinOptions(kin).filter(([name, value]) => name in d.options && d.options[name] !== value);
      if (swaps.length === 0) return null;
      const [name, value] = rng.pick(swaps);
      return { ...d, options: { ...d.options, [name]: value } };
    },
  ],
};

export class ShopVariation implements TaskVariation {
  private heldOut: Set<string> | null = null;

  /** The world is looked up on first use: building the catalog and its index is not free. */
  constructor(private readonly worldOf: () => ShopWorld = shopWorld) {}

  private get world(): ShopWorld {
    return this.worldOf();
  }

  /** Every shop edit keeps the department (the task's kind), so `sameKind` changes nothing here. */
  vary(task: Task, siblings: readonly Task[], direction: VariationDirection, rng: Rng, _options?: VaryOptions): Task | null {
    const goal = task.goal;
    if (!isShopGoal(goal)) return null;
    const kin = siblings.map((s) => s.goal).filter((g): g is ShopGoal => isShopGoal(g) && g.category === goal.category && g !== goal);
    for (const edit of rng.shuffle(EDITS[direction])) {
      const draft = edit({ attributes: [...goal.attributes], options: { ...goal.options }, priceUpper: goal.priceUpper }, kin, rng);
      if (!draft) continue;
      const made = this.realise(task, goal, draft, rng);
      if (made) return made;
    }
    return null;
  }

  ground(instruction: string, parent: Task): Task | null {
    const goal = parent.goal;
    if (!usableInstruction(instruction) || !isShopGoal(goal)) return null;
    const text = instruction.trim().replace(/\s+/g, ' ').toLowerCase();
    if (text === parent.instruction || this.isHeldOut(text)) return null;
    const draft = parseInstruction(text, goal.category);
    if (!draft) return generatedTask(parent, text, undefined, parent.difficulty);
    const product = this.satisfying(goal, draft, null);
    const full = { ...goal, ...draft };
    return generatedTask(parent, text, product ? withProduct(full, product) : undefined, goalDifficulty(full, this.world.catalog));
  }

  private realise(parent: Task, goal: ShopGoal, draft: Draft, rng: Rng): Task | null {
    const product = this.satisfying(goal, draft, rng);
    const parentProduct = this.world.catalog.byId.get(goal.productId);
    const full: ShopGoal = product ? withProduct({ ...goal, ...draft }, product) : { ...goal, ...draft };
    const instruction = instructionText(full, (product ?? parentProduct)?.noun ?? goal.title, rng);
    if (instruction === parent.instruction || this.isHeldOut(instruction)) return null;
    return generatedTask(parent, instruction, product ? full : undefined, goalDifficulty(full, this.world.catalog));
  }

  /** A train-split product of the department that meets the draft (the parent's own first); null if none. */
  private satisfying(goal: ShopGoal, draft: Draft, rng: Rng | null): Product | null {
    const full = { ...goal, ...draft };
    const fits = (this.world.catalog.byCategory.get(goal.category) ?? []).filter((p) => productSplit(p) === 'train' && satisfiesGoal(p, full));
    if (fits.length === 0) return null;
    return fits.find((p) => p.id === goal.productId) ?? (rng ? rng.pick(fits) : (fits[0] as Product));
  }

  /** Held-out instructions are never generated: training on them would leak the test split. */
  private isHeldOut(instruction: string): boolean {
    this.heldOut ??= new Set(this.world.tasks.test.map((t) => t.instruction));
    return this.heldOut.has(instruction);
  }
}

function withProduct(goal: ShopGoal, product: Product): ShopGoal {
  return { ...goal, productId: product.id, title: product.title, path: product.path };
}

/**
 * Read an instruction in the shop's own form ("<lead> <attributes> <noun> with <type>: <value>, and
 * price lower than X dollars") against a department's vocabulary; null when any part is not one the
 * department has (the text may still be a fine synthetic-only task).
 */
export function parseInstruction(text: string, category: string): Draft | null {
  const spec = CATEGORIES.find((c) => c.key === category);
  const lead = LEADS.find((l) => text.startsWith(`${l} `));
  const match = /^(.*?)(?: with (.*?))?,? and price lower than (\d+(?:\.\d+)?) dollars\.?$/.exec(lead ? text.slice(lead.length + 1) : '');
  if (!spec || !match) return null;
  const [, head = '', optionText, price = ''] = match;
  const noun = [...spec.nouns].sort((a, b) => b.length - a.length).find((n) => head === n || head.endsWith(` ${n}`));
  if (!noun) return null;
  const attributes = head.slice(0, head.length - noun.length).replace(/\s+/g, ' ').split(/,| and /).map((a) => a.trim()).filter(Boolean);
  if (attributes.length === 0 || !attributes.every((a) => spec.attributes.includes(a))) return null;
  const options: Record<string, string> = {};
  for (const part of optionText ? optionText.split(/,\s*and\s+/) : []) {
    const [name = '', value = ''] = part.split(':').map((x) => x.trim());
    if (!spec.options.some((o) => o.name === name && o.values.includes(value)) || name in options) return null;
    options[name] = value;
  }
  return { attributes, options, priceUpper: Number(price) };
}
