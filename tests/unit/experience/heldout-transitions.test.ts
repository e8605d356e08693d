import { describe, expect, it } from 'vitest';
import { envSpec } from '../../../src/envs/registry.ts';
import { heldoutTransitions } from '../../../src/experience/fidelity.ts';
import { failingOn } from '../envs/failing-env.ts';

describe('heldoutTransitions', () => {
  it('leaves out and counts the episodes the environment ended, keeping the others as played', async () => {
    const shop = envSpec('shop');
    const mix = { oracle: 1 };
    const clean = await heldoutTransitions(shop, 40, mix, 3);
    expect(clean.envErrors).toBe(0);
    expect(clean.heldout).toHaveLength(40);
    const tasks = [...new Set(clean.heldout.map((h) => h.task.id))];
    const failed = tasks.slice(0, 2);
    const failing = await heldoutTransitions(failingOn(shop, new Set(failed)), 40, mix, 3);
    expect(failing.envErrors).toBe(2);
    expect(failing.firstEnvError).toEqual({ taskId: failed[0], error: 'the page did not answer in 10 s' });
    expect(failing.heldout.some((h) => failed.includes(h.task.id))).toBe(false);
    const kept = (h: (typeof clean.heldout)[number]) => `${h.task.id} ${h.transition.action} ${h.transition.reward}`;
    expect(failing.heldout.map(kept).slice(0, 20)).toEqual(clean.heldout.filter((h) => !failed.includes(h.task.id)).map(kept).slice(0, 20));
    expect(failing.episodes).toBe(new Set(failing.heldout.map((h) => h.task.id)).size);
    expect(failing.retried).toBeGreaterThan(0);
    expect(clean).not.toHaveProperty('retried');
  });

  it('plays again, and counts, an episode a page ended once: the steps are those played without failures', async () => {
    const shop = envSpec('shop');
    const clean = await heldoutTransitions(shop, 40, { oracle: 1 }, 3);
    // Every task's first play hangs at its first step.
    const slowOnce = await heldoutTransitions(failingOn(shop, () => true, 1, 1), 40, { oracle: 1 }, 3);
    const kept = (h: (typeof clean.heldout)[number]) => `${h.task.id} ${h.transition.action} ${h.transition.reward} ${h.transition.next.text}`;
    expect(slowOnce.heldout.map(kept)).toEqual(clean.heldout.map(kept));
    expect(slowOnce).toMatchObject({ envErrors: 0, episodes: clean.episodes, retried: clean.episodes });
  });
});
