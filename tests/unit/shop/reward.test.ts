import { describe, expect, it } from 'vitest';
import type { Product } from '../../../src/envs/shop/catalog.ts';
import type { ShopGoal } from '../../../src/envs/shop/goal.ts';
import { shopReward, typeReward } from '../../../src/envs/shop/reward.ts';

const product: Product = {
  id: 'b0test0001',
  title: 'strideon non-slip breathable running shoes for men',
  category: 'shoes',
  path: ['clothing, shoes & jewelry', 'shoes', 'athletic shoes', 'running shoes'],
  noun: 'running shoes',
  attributes: ['non-slip', 'breathable', 'arch support', 'rubber sole'],
  options: [{ name: 'size', values: ['9', '10'] }, { name: 'color', values: ['black', 'white'] }],
  price: 45.99,
  rating: 4.5,
  description: 'strideon running shoes: built for daily miles. arch support.',
  features: ['rubber sole design'],
  reviews: [{ rating: 5, text: 'great' }],
};

const goal: ShopGoal = {
  productId: product.id,
  category: 'shoes',
  path: product.path,
  title: product.title,
  attributes: ['non-slip', 'arch support'],
  options: { size: '10', color: 'black' },
  priceUpper: 60,
};

describe('WebShop reward', () => {
  it('is 1 for the right product with every option and the price under the bound', () => {
    const r = shopReward(product, { size: '10', color: 'black' }, goal);
    expect(r.reward).toBe(1);
    expect(r.success).toBe(true);
  });

  it('loses one share per missed option: (2 attrs + 1 option + price) / 5', () => {
    const r = shopReward(product, { size: '10', color: 'white' }, goal);
    expect(r.optionMatches).toBe(1);
    expect(r.missingOptions).toEqual(['color']);
    expect(r.missingAttributes).toEqual([]);
    expect(r.reward).toBeCloseTo(4 / 5);
    expect(r.success).toBe(false);
    expect(shopReward(product, {}, goal).reward).toBeCloseTo(3 / 5);
  });

  it('loses one share per missing attribute; a fuzzy or text match still counts', () => {
    const lacking = { ...product, attributes: ['breathable'], description: 'plain', features: [] };
    expect(shopReward(lacking, { size: '10', color: 'black' }, goal).reward).toBeCloseTo(4 / 5); // non-slip is in the title
    expect(shopReward(lacking, { size: '10', color: 'black' }, goal).missingAttributes).toEqual(['arch support']);
    const fuzzy = { ...product, attributes: ['Non Slip', 'arch-support'] };
    expect(shopReward(fuzzy, { size: '10', color: 'black' }, goal).attributeMatches).toBe(2);
  });

  it('loses the price share over the bound', () => {
    const r = shopReward({ ...product, price: 60.49 }, { size: '10', color: 'black' }, goal);
    expect(r.priceMatch).toBe(false);
    expect(r.reward).toBeCloseTo(4 / 5);
  });

  it('reduces r_type to 0.5, 0.1 and 0 as the product drifts from the goal type', () => {
    const otherPath = ['home & kitchen', 'furniture', 'living room furniture', 'accent chairs'];
    // Same category: 1 even with little title overlap.
    expect(typeReward({ ...product, title: 'velotrek running sneakers' }, goal).rType).toBe(1);
    // Different category, but more than 20% of the goal's content words: 1.
    expect(typeReward({ ...product, path: otherPath, title: 'strideon breathable running chair' }, goal).rType).toBe(1);
    // Different category, 1 of 6 content words (≈ 0.17): 0.5.
    expect(typeReward({ ...product, path: otherPath, title: 'velvet running chair' }, goal).rType).toBe(0.5);
    // Different category, 0 shared words: 0.
    expect(typeReward({ ...product, path: otherPath, title: 'velvet accent chair' }, goal).rType).toBe(0);
    const long: ShopGoal = { ...goal, title: 'a b c d e f g h i j k l shoes'.replace(/\b(\w)\b/g, '$1$1') };
    // 1 shared of 13 words (< 0.1): 0.1.
    expect(typeReward({ ...product, path: otherPath, title: 'aa chair' }, long).rType).toBe(0.1);
    const r = shopReward({ ...product, path: otherPath, title: 'velvet running chair' }, { size: '10', color: 'black' }, goal);
    expect(r.rType).toBe(0.5);
    expect(r.reward).toBeCloseTo(0.5); // every constraint met, but the wrong type of product halves it
  });
});
