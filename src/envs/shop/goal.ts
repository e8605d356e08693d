/** What an instruction asks for. Known only to the real environment and its oracle. */
export interface ShopGoal {
  /** The product the instruction was written from; other products may satisfy it too. */
  productId: string;
  category: string;
  path: readonly string[];
  title: string;
  attributes: string[];
  /** Option type → wanted value, one per chosen option type. */
  options: Record<string, string>;
  /** WebShop's price bound: the purchase must cost at most this. */
  priceUpper: number;
}

export function isShopGoal(value: unknown): value is ShopGoal {
  if (typeof value !== 'object' || value === null) return false;
  const g = value as Partial<ShopGoal>;
  return typeof g.productId === 'string' && typeof g.title === 'string' && Array.isArray(g.attributes) &&
    typeof g.options === 'object' && g.options !== null && typeof g.priceUpper === 'number' && Array.isArray(g.path);
}
