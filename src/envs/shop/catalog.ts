/**
 * The generated product catalog. Deterministic given a seed: the same seed gives the same products,
 * ids and texts on every platform. Products mention only their own attributes, so WebShop's
 * "attribute appears in title, features or description" test never fires by accident.
 */
import { Rng, type Seed } from '../../core/rng.ts';
import { CATEGORIES, type CategorySpec } from './vocabulary.ts';

export interface ProductOption {
  name: string;
  values: string[];
}

export interface Review {
  rating: number;
  text: string;
}

export interface Product {
  /** ASIN-like, lowercase: `b0` and eight base-36 characters. */
  id: string;
  title: string;
  category: string;
  path: readonly string[];
  noun: string;
  attributes: string[];
  options: ProductOption[];
  price: number;
  rating: number;
  description: string;
  features: string[];
  reviews: Review[];
}

export interface Catalog {
  seed: Seed;
  products: Product[];
  byId: ReadonlyMap<string, Product>;
  byCategory: ReadonlyMap<string, Product[]>;
}

export const DEFAULT_CATALOG_SEED = 'shop-catalog-v1';
export const DEFAULT_PRODUCTS_PER_CATEGORY = 220;

const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const REVIEW_TEMPLATES: readonly [number, string][] = [
  [5, 'exactly as described, would buy again'],
  [5, 'great value for the price'],
  [4, 'good quality, arrived quickly'],
  [4, 'works well, minor packaging issue'],
  [3, 'it is okay, not quite what i expected'],
  [2, 'quality could be better'],
  [1, 'did not meet my expectations'],
];

function productId(rng: Rng, taken: Set<string>): string {
  for (;;) {
    let id = 'b0';
    for (let i = 0; i < 8; i++) id += ID_ALPHABET[rng.int(ID_ALPHABET.length)];
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

/** Prices end in .99 or .49 like a real store, and are spread over the category's range. */
function productPrice(rng: Rng, [low, high]: readonly [number, number]): number {
  // Skewed toward the cheaper end, as real price distributions are.
  const whole = Math.floor(low + (high - low) * rng.next() ** 1.6);
  return whole + (rng.chance(0.7) ? 0.99 : 0.49);
}

function makeProduct(spec: CategorySpec, rng: Rng, taken: Set<string>): Product {
  const attributes = rng.sample(spec.attributes, rng.range(3, 6));
  const inTitle = attributes.slice(0, rng.range(1, Math.min(3, attributes.length)));
  const noun = rng.pick(spec.nouns);
  const brand = rng.pick(spec.brands);
  const audience = rng.chance(0.6) ? ` ${rng.pick(spec.audiences)}` : '';
  const title = `${brand} ${inTitle.join(' ')} ${noun}${audience}`;
  const options = spec.options
    .filter((_, i) => i === 0 || rng.chance(0.85))
    .map((type) => ({ name: type.name, values: rng.sample(type.values, rng.range(2, Math.min(6, type.values.length))) }));
  // Description and features name a subset of the attributes; the rest live only in the attribute list.
  const described = attributes.filter(() => rng.chance(0.5));
  const description = `${brand} ${noun}: ${rng.pick(spec.blurbs)}.` + (described.length ? ` ${described.join(', ')}.` : '');
  const features = attributes.filter(() => rng.chance(0.5)).map((a) => `${a} design`);
  features.push(`ships from ${rng.pick(['our warehouse', 'the manufacturer', 'a partner store'])}`);
  const reviews = rng.sample(REVIEW_TEMPLATES, rng.range(1, 3)).map(([rating, text]) => ({ rating, text }));
  const rating = Math.round((reviews.reduce((s, r) => s + r.rating, 0) / reviews.length) * 2) / 2;
  return {
    id: productId(rng, taken),
    title,
    category: spec.key,
    path: spec.path,
    noun,
    attributes,
    options,
    price: productPrice(rng, spec.price),
    rating,
    description,
    features,
    reviews,
  };
}

export function generateCatalog(seed: Seed = DEFAULT_CATALOG_SEED, perCategory = DEFAULT_PRODUCTS_PER_CATEGORY): Catalog {
  const root = new Rng(seed);
  const taken = new Set<string>();
  const products: Product[] = [];
  const byCategory = new Map<string, Product[]>();
  for (const spec of CATEGORIES) {
    const rng = root.fork(spec.key);
    const list: Product[] = [];
    for (let i = 0; i < perCategory; i++) list.push(makeProduct(spec, rng, taken));
    byCategory.set(spec.key, list);
    products.push(...list);
  }
  return { seed, products, byId: new Map(products.map((p) => [p.id, p])), byCategory };
}

export function formatPrice(price: number): string {
  return `$${price.toFixed(2)}`;
}
