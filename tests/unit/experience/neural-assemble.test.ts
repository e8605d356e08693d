import { describe, expect, it } from 'vitest';
import type { LineCandidate } from '../../../src/experience/neural/candidates.ts';
import { stateLines } from '../../../src/experience/neural/lines.ts';
import { assembleLines } from '../../../src/experience/neural/model.ts';

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
});
