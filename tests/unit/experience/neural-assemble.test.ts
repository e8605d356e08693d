import { describe, expect, it } from 'vitest';
import type { LineCandidate } from '../../../src/experience/neural/transition-candidates.ts';
import { stateLines } from '../../../src/experience/neural/lines.ts';
import { assembleLines } from '../../../src/experience/neural/model.ts';
import { lineLabels } from '../../../src/experience/neural/fit.ts';
import { Rng } from '../../../src/core/rng.ts';

/** A candidate line from the given sources (0: the current state, 1 + i: example i); a lone element line is numbered [1]. */
function candidate(text: string, sources: number[], origin = -1): LineCandidate {
  const [line] = stateLines(text);
  if (!line) throw new Error(`no line in ${text}`);
  return { line, features: { dense: [], hashed: [] }, positions: new Map(sources.map((s, i) => [s, i])), origin };
}

const logit = (p: number): number => Math.log(p / (1 - p));

describe('assembling a predicted state', () => {
  it("keeps the element lines a kept header line of the same example names, however unlikely each is", () => {
    const candidates = [
      candidate('location: garbagecan 1', [1, 2]),
      candidate('feedback: You arrive at garbagecan 1. On the garbagecan 1, you see a soapbottle 1, and a cloth 2.', [1]),
      candidate('feedback: You arrive at garbagecan 1. On the garbagecan 1, you see a candle 3.', [2]),
      candidate('[1] object: soapbottle 1 | in garbagecan 1', [1]),
      candidate('[1] object: cloth 2 | in garbagecan 1', [1]),
      // Named by the other example's feedback, which is not kept: left out.
      candidate('[1] object: candle 3 | in garbagecan 1', [2]),
      // Of the kept example but not named by its header: scored as it is.
      candidate('[1] object: toiletpaper 2 | in garbagecan 1', [1]),
    ];
    const scores = [0.99, 0.3, 0.2, 0.2, 0.1, 0.2, 0.2].map(logit);
    const texts = assembleLines(candidates, scores, ['location', 'feedback'], 0.35).map((l) => l.text);
    expect(texts).toContain('object: soapbottle 1 | in garbagecan 1');
    expect(texts).toContain('object: cloth 2 | in garbagecan 1');
    expect(texts).not.toContain('object: candle 3 | in garbagecan 1');
    expect(texts).not.toContain('object: toiletpaper 2 | in garbagecan 1');
    expect(texts.filter((t) => t.startsWith('feedback:'))).toEqual(['feedback: You arrive at garbagecan 1. On the garbagecan 1, you see a soapbottle 1, and a cloth 2.']);
  });

  it('reads only the headers the step says anew, not those the current state has too', () => {
    // The instruction names an option; it did before this step too, so it vouches for nothing.
    const candidates = [candidate('instruction: a single cognac brown boot', [0, 1]), candidate('[1] option: cognac brown | color', [1])];
    const texts = assembleLines(candidates, [logit(0.99), logit(0.1)], ['instruction'], 0.35).map((l) => l.text);
    expect(texts).toEqual(['instruction: a single cognac brown boot']);
  });

  it('imagining, draws the header among the plausible ones and each new element with its probability', () => {
    const room = 'feedback: You arrive at sinkbasin 2. On the sinkbasin 2, you see a dishsponge 1.';
    const empty = 'feedback: You arrive at sinkbasin 2. On the sinkbasin 2, you see nothing.';
    const inventory = 'feedback: You are not carrying anything.';
    const candidates = [
      candidate('location: sinkbasin 2', [1, 2]),
      candidate(room, [1]),
      candidate(empty, [2]),
      candidate(inventory, [3]),
      candidate('[1] object: dishsponge 1 | in sinkbasin 2', [1]),
      candidate('[1] object: cloth 1 | in sinkbasin 2', [2]),
    ];
    const scores = [0.99, 0.1, 0.3, 0.005, 0.2, 0.2].map(logit);
    // The likeliest: the empty basin, and no element line (each is below the threshold).
    expect(assembleLines(candidates, scores, ['location', 'feedback'], 0.35).map((l) => l.text)).toEqual(['location: sinkbasin 2', empty]);
    const rng = new Rng('imagine');
    const counts = new Map<string, number>();
    const draws = 2000;
    for (let i = 0; i < draws; i++) {
      const texts = assembleLines(candidates, scores, ['location', 'feedback'], 0.35, () => rng.next()).map((l) => l.text);
      expect(texts[0]).toBe('location: sinkbasin 2');
      expect(texts.filter((t) => t.startsWith('feedback:'))).toHaveLength(1);
      for (const t of texts) counts.set(t, (counts.get(t) ?? 0) + 1);
      // A drawn room brings the objects its feedback names.
      if (texts.includes(room)) expect(texts).toContain('object: dishsponge 1 | in sinkbasin 2');
    }
    const share = (t: string) => (counts.get(t) ?? 0) / draws;
    // In proportion among the plausible headers (0.1 : 0.3); the inventory's, under a tenth of the best, never.
    expect(share(room)).toBeGreaterThan(0.2);
    expect(share(room)).toBeLessThan(0.3);
    expect(share(inventory)).toBe(0);
    // An element no kept header names is drawn with its own probability.
    expect(share('object: cloth 1 | in sinkbasin 2')).toBeGreaterThan(0.17);
    expect(share('object: cloth 1 | in sinkbasin 2')).toBeLessThan(0.23);
  });

  it('keeps one line per element number: two readings of one text box compete', () => {
    const candidates = [
      candidate('[1] textbox: #23 To | empty', [0], 0),
      candidate('[1] textbox: #23 To | value: ivan.costa@example.org | focused', [1]),
      candidate('[1] textbox: #23 To | value: ivan.santos@example.org | focused', [0], 0),
      candidate('[1] button: #25 Send', [0, 1], 1),
    ];
    const texts = assembleLines(candidates, [0.1, 0.7, 0.9, 0.99].map(logit), [], 0.35).map((l) => l.text);
    expect(texts).toEqual(['textbox: #23 To | value: ivan.santos@example.org | focused', 'button: #25 Send']);
  });
});

describe('what the line head learns', () => {
  it("teaches a numbered element's other reading to stand for it when no candidate spells its line", () => {
    const candidates = [
      candidate('[1] heading: Edit Zane Ito', [1]),
      candidate('[1] combobox: #12 Role | value: admin', [1]),
      candidate('[1] combobox: #12 Role | value: auditor', [2]),
      candidate('[1] button: #14 Save', [1]),
      candidate('[1] button: #15 Cancel', [1]),
      candidate('[1] text: 12 votes', [1]),
    ];
    const next = stateLines('title: Users\n[1] heading: Edit Zane Ito\n[2] combobox: #12 Role | value: editor\n[3] button: #14 Save\n[4] text: 38 votes');
    // The Role box stands in (either reading); Cancel is not on the page; an unnumbered line is only itself.
    expect(lineLabels(candidates, next)).toEqual([1, 1, 1, 1, 0, 0]);
    // Where a candidate spells the element's line, only that one is right.
    const spelled = [...candidates, candidate('[1] combobox: #12 Role | value: editor', [0], 0)];
    expect(lineLabels(spelled, next)).toEqual([1, 0, 0, 1, 0, 0, 1]);
  });
});
