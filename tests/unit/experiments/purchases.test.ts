import { describe, expect, it } from 'vitest';
import type { RewardBreakdown } from '../../../src/envs/shop/reward.ts';
import { missedOptions, productsOpened, purchaseEvidence, purchaseKind, summarizeEvidence, summarizePurchases } from '../../../experiments/purchases.ts';

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

describe('purchaseEvidence', () => {
  const results = (page: number, ids: string[]) =>
    ['page: results', 'instruction: x', 'query: soap', '[1] button: Back to Search', `[2] text: Page ${page} (Total results: 30)`, ...ids.map((id, i) => `[${i + 3}] link: ${id} | Soap ${id} | $5.00`)].join('\n');
  const item = (title: string) => ['page: item', 'instruction: x', '[1] button: < Prev', `[2] text: ${title}`, '[3] text: Price: $5.00', '[4] button: Buy Now'].join('\n');

  it('ranks the bought product in the results it was last opened from, later pages counted', () => {
    const steps = [
      { state: results(1, ['A1', 'B2', 'C3']), action: 'click[b2]', next: item('Soap B2') },
      { state: item('Soap B2'), action: 'click[< Prev]', next: results(2, ['D4', 'E5']) },
      { state: results(2, ['D4', 'E5']), action: 'click[E5]', next: item('Vegan lavender soap') },
      { state: item('Vegan lavender soap'), action: 'click[Buy Now]', next: 'page: done\ninstruction: x' },
    ];
    expect(purchaseEvidence(steps, ['vegan', 'Lavender'])).toEqual({ rank: 12, attributesShown: true });
    expect(purchaseEvidence(steps, ['vegan', 'unscented'])).toEqual({ rank: 12, attributesShown: false });
    expect(purchaseEvidence(steps.slice(0, 1).concat([{ state: item('Soap B2'), action: 'click[Buy Now]', next: 'page: done\ninstruction: x' }]), [])).toEqual({ rank: 2, attributesShown: true });
  });

  it('has no rank when the product was not opened from a results page', () => {
    expect(purchaseEvidence([{ state: item('Soap'), action: 'click[Buy Now]', next: 'page: done\ninstruction: x' }], ['vegan'])).toEqual({ rank: null, attributesShown: false });
  });

  it('summarises, per kind, the share of first results and of pages naming every wanted attribute', () => {
    const out = summarizeEvidence([
      { kind: 'win', rank: 1, attributesShown: true },
      { kind: 'attributes', rank: 3, attributesShown: false },
      { kind: 'attributes', rank: 1, attributesShown: false },
    ]);
    expect(out).toEqual({ all: { firstResult: 2 / 3, attributesShown: 1 / 3 }, win: { firstResult: 1, attributesShown: 1 }, attributes: { firstResult: 0.5, attributesShown: 0 } });
  });
});
