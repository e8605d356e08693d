import { describe, expect, it } from 'vitest';
import type { RewardBreakdown } from '../../../src/envs/shop/reward.ts';
import { missedOptions, productsOpened, purchaseKind, summarizePurchases } from '../../../experiments/purchases.ts';

const score = (over: Partial<RewardBreakdown>): RewardBreakdown => ({
  reward: 1, rType: 1, titleScore: 1, categoryMatch: true, attributeMatches: 2, optionMatches: 1, missingAttributes: [], missingOptions: [], priceMatch: true, success: true, ...over,
});

describe('purchases', () => {
  it('names why a purchase fell short, the product type first', () => {
    expect(purchaseKind(score({}))).toBe('win');
    expect(purchaseKind(score({ success: false, rType: 0.5, missingOptions: ['size'] }))).toBe('wrong type');
    expect(purchaseKind(score({ success: false, missingOptions: ['size'] }))).toBe('options');
    expect(purchaseKind(score({ success: false, missingAttributes: ['vegan'] }))).toBe('attributes');
    expect(purchaseKind(score({ success: false, missingOptions: ['size'], missingAttributes: ['vegan'] }))).toBe('options and attributes');
    expect(purchaseKind(score({ success: false, priceMatch: false }))).toBe('price');
  });

  it('summarises real and predicted reward per kind and overall, counting ±0.05 as right', () => {
    const out = summarizePurchases([
      { kind: 'win', real: 1, predicted: 0.97 },
      { kind: 'options', real: 0.75, predicted: 0.95 },
      { kind: 'options', real: 0.75, predicted: 0.75 },
    ]);
    expect(Object.keys(out)).toEqual(['all', 'win', 'options']);
    expect(out['options']).toEqual({ purchases: 2, real: 0.75, predicted: 0.85, accuracy: 0.5 });
    expect(out['all']?.purchases).toBe(3);
    expect(out['all']?.accuracy).toBeCloseTo(2 / 3, 10);
  });

  it('counts the products each episode opened from a results page, not other moves onto an item page', () => {
    const step = (from: string, to: string) => ({ state: `page: ${from}\ninstruction: x`, next: `page: ${to}\ninstruction: x` });
    const out = productsOpened([
      [step('search', 'results'), step('results', 'item'), step('item', 'done')],
      [step('search', 'results'), step('results', 'item'), step('item', 'results'), step('results', 'item')],
      // Back from the description to the item page is not a product opened.
      [step('search', 'results'), step('results', 'item'), step('item', 'description'), step('description', 'item')],
      [step('search', 'results')],
      [step('results', 'item'), step('item', 'results'), step('results', 'item'), step('item', 'results'), step('results', 'item')],
    ]);
    expect(out).toEqual({ '0': 1, '1': 2, '2': 1, '3+': 1 });
  });

  it('tells a missed option the page offered from one the product lacks, by value and kind', () => {
    const page = ['page: item', 'instruction: x', '[1] option: Black | color | selected', '[2] option: Blue | color', '[3] option: 10 | size', '[4] button: Buy Now'].join('\n');
    const out = missedOptions([
      // Blue was offered but not chosen; size 12 is not on the page.
      { state: page, goalOptions: { color: 'blue', size: '12' }, missing: ['color', 'size'] },
      // A value offered under another kind does not count as shown.
      { state: page, goalOptions: { 'pack count': '10' }, missing: ['pack count'] },
      { state: page, goalOptions: { color: 'black' }, missing: [] },
    ]);
    expect(out).toEqual({ shown: 1, absent: 2 });
  });
});
