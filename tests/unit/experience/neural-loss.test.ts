/** The transition head's loss and its event weight (an episode's last row weighs more). */
import { beforeAll, describe, expect, it } from 'vitest';
import { headLoss } from '../../../src/experience/neural/network.ts';
import { tf, useBackend } from '../../../src/platform/tf.ts';

beforeAll(async () => {
  await useBackend(['cpu']);
});

const loss = (logits: number[][], targets: number[][], weight?: number) => {
  const l = headLoss('transition', tf.tensor2d(logits), tf.tensor2d(targets), weight);
  const value = l.dataSync()[0] as number;
  l.dispose();
  return value;
};

describe('the transition loss', () => {
  // Three ordinary rows predicted right, one episode end (reward 1, done) predicted as nothing.
  const logits = [[-6, -6], [-6, -6], [-6, -6], [-6, -6]];
  const targets = [[0, 0], [0, 0], [0, 0], [1, 1]];

  it('is the plain mean at weight 1, and weighs a missed episode end more as the weight grows', () => {
    const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
    const bce = (y: number, x: number) => Math.max(x, 0) - x * y + Math.log(1 + Math.exp(-Math.abs(x)));
    const plain = (4 * (3 * sigmoid(-6) ** 2 + (sigmoid(-6) - 1) ** 2)) / 4 + (3 * bce(0, -6) + bce(1, -6)) / 4;
    expect(loss(logits, targets)).toBeCloseTo(plain, 4);
    expect(loss(logits, targets, 1)).toBe(loss(logits, targets));
    const weighted = loss(logits, targets, 9);
    // The missed row now counts 9 of 12: the loss moves toward its own (large) value.
    const missedOnly = 4 * (sigmoid(-6) - 1) ** 2 + bce(1, -6);
    expect(weighted).toBeGreaterThan(loss(logits, targets));
    expect(weighted).toBeCloseTo((3 * (4 * sigmoid(-6) ** 2 + bce(0, -6)) + 9 * missedOnly) / 12, 4);
  });

  it('leaves a batch without episode ends as it was', () => {
    const ordinary = [[0.3, -2], [-1, -3]];
    const zeros = [[0.2, 0], [0, 0]];
    expect(loss(ordinary, zeros, 20)).toBeCloseTo(loss(ordinary, zeros), 6);
  });
});
