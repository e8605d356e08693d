import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/rng.ts';
import { generateCatalog } from '../../../src/envs/shop/catalog.ts';
import type { ShopGoal } from '../../../src/envs/shop/goal.ts';
import { priceBound } from '../../../src/envs/shop/tasks.ts';
import { world } from './helpers.ts';

describe('shop catalog and task splits', () => {
  it('has at least 8 categories and 2,000 products with every field', () => {
    const { products } = world.catalog;
    expect(new Set(products.map((p) => p.category)).size).toBeGreaterThanOrEqual(8);
    expect(products.length).toBeGreaterThanOrEqual(2000);
    expect(new Set(products.map((p) => p.id)).size).toBe(products.length);
    for (const p of products) {
      expect(p.id).toMatch(/^b0[0-9a-z]{8}$/);
      expect(p.title.length).toBeGreaterThan(0);
      expect(p.attributes.length).toBeGreaterThanOrEqual(3);
      expect(p.options.length).toBeGreaterThanOrEqual(1);
      expect(p.price).toBeGreaterThan(0);
      expect(p.reviews.length).toBeGreaterThan(0);
    }
  });

  it('is the same for the same seed and different for another', () => {
    expect(generateCatalog('s', 30).products).toEqual(generateCatalog('s', 30).products);
    expect(generateCatalog('t', 30).products[0]!.id).not.toBe(generateCatalog('s', 30).products[0]!.id);
  });

  it('builds price bounds from the multiples of 10 just above the price', () => {
    const rng = new Rng(1);
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++) seen.add(priceBound(45.99, rng));
    expect([...seen].sort()).toEqual([60, 70, 80]);
  });

  it('has ≥ 1,000 train and ≥ 500 test tasks whose goals never overlap', () => {
    const { train, test } = world.tasks;
    expect(train.length).toBeGreaterThanOrEqual(1000);
    expect(test.length).toBeGreaterThanOrEqual(500);
    const trainProducts = new Set(train.map((t) => (t.goal as ShopGoal).productId));
    const trainTexts = new Set(train.map((t) => t.instruction));
    for (const t of test) {
      expect(trainProducts.has((t.goal as ShopGoal).productId)).toBe(false);
      expect(trainTexts.has(t.instruction)).toBe(false);
    }
    expect(new Set([...train, ...test].map((t) => t.id)).size).toBe(train.length + test.length);
  });

  it('writes instructions as WebShop does, with a difficulty the curriculum can read', () => {
    for (const t of world.tasks.test) {
      const goal = t.goal as ShopGoal;
      const product = world.catalog.byId.get(goal.productId)!;
      expect(t.instruction).toMatch(/, and price lower than \d+\.00 dollars$/);
      expect(t.instruction).toContain(product.noun);
      for (const a of goal.attributes) expect(product.attributes).toContain(a);
      for (const [name, value] of Object.entries(goal.options)) {
        expect(t.instruction).toContain(`${name}: ${value}`);
        expect(product.options.find((o) => o.name === name)!.values).toContain(value);
      }
      expect(product.price).toBeLessThanOrEqual(goal.priceUpper);
      const constraints = goal.attributes.length + Object.keys(goal.options).length + 1;
      expect(t.difficulty).toBeGreaterThanOrEqual(constraints);
      expect(t.difficulty).toBeLessThan(constraints + 1);
      expect(t.origin).toBe('seed');
      expect(t.env).toBe('shop');
    }
  });
});
