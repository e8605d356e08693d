import { beforeAll, describe, expect, it } from 'vitest';
import { CLAUSE_FEATURES, CLAUSE_SLOTS, EVIDENCE_WIDTH } from '../../../src/experience/neural/requirement-evidence.ts';
import { transitionCandidates } from '../../../src/experience/neural/transition-candidates.ts';
import { disposeBatch, headBatch, NeuralNetwork, Rows, type NeuralArchitecture } from '../../../src/experience/neural/network.ts';
import type { ExperienceInput } from '../../../src/experience/types.ts';
import { useBackend } from '../../../src/platform/tf.ts';

beforeAll(async () => {
  await useBackend(['cpu']);
});

const instruction = 'find me cushioned running shoes with size: 12, and color: black, and price lower than 110.00 dollars';

function itemPage(selectedSize: string, price: string): ExperienceInput {
  const sizes = ['10', '12'].map((s) => `[${s === '10' ? 4 : 5}] option: ${s} | size${s === selectedSize ? ' | selected' : ''}`);
  const text = ['page: item', `instruction: ${instruction}`, '[1] button: Back to Search', '[2] text: terrafit cushioned running shoes', `[3] text: Price: $${price}`, ...sizes, '[6] option: black | color', '[7] button: Buy Now'].join('\n');
  return {
    task: { id: 't', env: 'shop', instruction, difficulty: 0, origin: 'seed' },
    history: [],
    state: { text, actions: ['click[Buy Now]'] },
    action: 'click[Buy Now]',
    examples: [],
  };
}

/** The requirement rows at the end of the transition's dense features, one array per slot. */
function requirementRows(input: ExperienceInput): number[][] {
  const dense = transitionCandidates(input).transition.dense;
  const block = dense.slice(dense.length - CLAUSE_SLOTS * CLAUSE_FEATURES);
  return Array.from({ length: CLAUSE_SLOTS }, (_, i) => block.slice(i * CLAUSE_FEATURES, (i + 1) * CLAUSE_FEATURES));
}

const bucketShares = (row: number[]): number[] => row.slice(2, 2 + EVIDENCE_WIDTH);

describe('requirement rows', () => {
  it('lists the bound first, then one row per clause, and leaves the other slots empty', () => {
    const rows = requirementRows(itemPage('12', '76.99'));
    expect(rows[0]?.slice(0, 2)).toEqual([1, 1]);
    const clauses = rows.slice(1).filter((r) => r[0] === 1);
    // "find me cushioned running shoes", "size: 12", "color: black", "price lower than dollars": without
    // retrieved examples no word is known to be boilerplate, so the price phrase's words stay a clause.
    expect(clauses.length).toBe(4);
    for (const r of clauses) expect(r[1]).toBe(0);
    for (const r of rows.slice(1 + clauses.length)) expect(r.every((x) => x === 0)).toBe(true);
  });

  it('counts a wanted number as a wanted word: the marked line with 10 does not meet "size: 12"', () => {
    const right = requirementRows(itemPage('12', '76.99'))[2] as number[];
    const wrong = requirementRows(itemPage('10', '76.99'))[2] as number[];
    // Some bucket (the marked option lines') holds the clause's value in one state and none of it in
    // the other; the name "size" is not a word to meet, so it does not make the wrong line half right.
    const changed = bucketShares(right).map((x, b) => [x, bucketShares(wrong)[b]]).filter(([a, b]) => a !== b);
    expect(changed).toContainEqual([1, 0]);
    expect(changed).not.toContainEqual([1, 0.5]);
  });

  it('flags a named clause, and whether a line of the state is labelled by its name', () => {
    const named = (r: number[]) => r.slice(2 + 3 * EVIDENCE_WIDTH + 3);
    const rows = requirementRows(itemPage('12', '76.99'));
    // "find me cushioned running shoes" is plain; "size: 12" and "color: black" name fields the option lines carry.
    expect(named(rows[1] as number[])).toEqual([0, 0]);
    expect(named(rows[2] as number[])).toEqual([1, 1]);
    expect(named(rows[3] as number[])).toEqual([1, 1]);
    // Without a colour line the name labels nothing, and the value is nowhere.
    const input = itemPage('12', '76.99');
    const noColour = { ...input, state: { ...input.state, text: input.state.text.replace('[6] option: black | color\n[7]', '[6]') } };
    const colour = requirementRows(noColour)[3] as number[];
    expect(named(colour)).toEqual([1, 0]);
    expect(bucketShares(colour).every((x) => x === 0)).toBe(true);
  });

  it('marks a price over the bound where the bound row looks for numbers above it', () => {
    const under = requirementRows(itemPage('12', '76.99'))[0] as number[];
    const over = requirementRows(itemPage('12', '176.99'))[0] as number[];
    const above = (r: number[]) => r.slice(2 + 2 * EVIDENCE_WIDTH, 2 + 3 * EVIDENCE_WIDTH).reduce((a, b) => a + b, 0);
    expect(above(under)).toBe(0);
    expect(above(over)).toBeGreaterThan(0);
  });
});

describe('the transition head with requirements', () => {
  const arch: NeuralArchitecture = {
    kind: 'candidate-mlp',
    heads: {
      line: { dense: 2, buckets: 2, hidden: 4, outputs: 1 },
      action: { dense: 2, buckets: 2, hidden: 4, outputs: 1 },
      transition: { dense: 2 + 2 * 3, buckets: 4, hidden: 4, outputs: 2, requirements: { slots: 2, features: 3, hidden: 2 } },
      reasoning: { dense: 2, buckets: 2, hidden: 4, outputs: 1 },
    },
  };
  // Two own dense values, two requirement slots of 3 (valid flag first), one hashed string.
  const rows = new Rows(arch.heads.transition, 1);
  rows.push({ dense: [0.5, 1, 1, 0.2, 0.3, 1, 0.9, 0.1], hashed: ['a'] }, [0, 0]);
  rows.push({ dense: [0.5, 1, 0, 0, 0, 0, 0, 0], hashed: ['a'] }, [0, 0]);

  async function rewards(network: NeuralNetwork): Promise<number[]> {
    const batch = headBatch(rows.batch([0, 1], false), rows.shape);
    const logits = network.forward('transition', batch);
    const out = Array.from(await logits.data());
    disposeBatch(batch);
    logits.dispose();
    return [0, 1].map((i) => 1 / (1 + Math.exp(-(out[2 * i] as number))));
  }

  it('scales the reward by the requirements the rows say are unmet, and leaves a row without requirements alone', async () => {
    const seeded = new NeuralNetwork(arch, { seed: 3 });
    const before = await rewards(seeded);
    // Requirement scores pinned near 0: every requirement unmet.
    const weights = (await seeded.getWeights()).map((w) => (w.name === 'transition/rb2' ? { ...w, data: new Float32Array([-40]) } : w.name === 'transition/r2' ? { ...w, data: new Float32Array(w.data.length) } : w));
    const unmet = new NeuralNetwork(arch, { weights });
    const after = await rewards(unmet);
    expect(after[0]).toBeLessThan(1e-4);
    expect(after[1]).toBeCloseTo(before[1] as number, 6);
    seeded.dispose();
    unmet.dispose();
  });
});
