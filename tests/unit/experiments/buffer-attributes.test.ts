import { describe, expect, it } from 'vitest';
import { tallyAttributes } from '../../../experiments/buffer-attributes.ts';
import type { Product } from '../../../src/envs/shop/catalog.ts';
import type { ShopGoal } from '../../../src/envs/shop/goal.ts';
import { goalOf, targetOf, world } from '../shop/helpers.ts';

describe('buffer-attributes', () => {
  it('splits purchases by target and chosen options, and counts hidden attributes met', () => {
    const task = world.tasks.train.find((t) => goalOf(t).attributes.some((a) => !targetOf(t).title.includes(a)) && Object.keys(goalOf(t).options).length > 0);
    if (!task) throw new Error('no train task with an attribute its title hides');
    const goal: ShopGoal = goalOf(task);
    const target = targetOf(task);
    // A product of the same category that has none of the wanted attributes anywhere.
    const other = world.catalog.products.find((p) => p.category === goal.category && p.id !== target.id &&
      goal.attributes.every((a) => !p.attributes.includes(a) && ![p.title, p.description, ...p.features].join(' ').includes(a))) as Product;
    expect(other).toBeDefined();
    const hiddenInTarget = goal.attributes.filter((a) => !target.title.includes(a)).length;

    const out = tallyAttributes([
      { product: target, selected: goal.options, goal },
      { product: target, selected: {}, goal },
      { product: other, selected: goal.options, goal },
    ]);
    expect(out.groups['target, options chosen']).toEqual({ purchases: 1, inTitle: goal.attributes.length - hiddenInTarget, hidden: hiddenInTarget, hiddenMet: hiddenInTarget });
    expect(out.groups['target, an option missed'].purchases).toBe(1);
    expect(out.groups['other, options chosen']).toEqual({ purchases: 1, inTitle: 0, hidden: goal.attributes.length, hiddenMet: 0 });
    expect(out.groups['other, an option missed'].purchases).toBe(0);
    expect(out.hiddenMetShareWithOptions).toBeCloseTo(hiddenInTarget / (hiddenInTarget + goal.attributes.length), 10);
    expect(out.hiddenMetShare).toBeCloseTo((2 * hiddenInTarget) / (2 * hiddenInTarget + goal.attributes.length), 10);
  });
});
