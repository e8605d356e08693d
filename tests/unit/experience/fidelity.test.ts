import { describe, expect, it } from 'vitest';
import type { Task, Transition } from '../../../src/core/types.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { measureFidelity, setF1, tokenF1 } from '../../../src/experience/fidelity.ts';
import { KnnExperienceModel } from '../../../src/experience/knn.ts';
import type { ExperienceModel } from '../../../src/experience/types.ts';
import { emptyStats } from '../../../src/experience/types.ts';
import { seededBuffer, seededTransitions } from './fixtures.ts';

async function heldout(env: string, episodes: number): Promise<{ transition: Transition; task: Task }[]> {
  const spec = envSpec(env);
  const tasks = new Map(spec.tasks(spec.testSplit).map((t) => [t.id, t]));
  return (await seededTransitions(env, episodes, 9, spec.testSplit)).map((transition) => ({ transition, task: tasks.get(transition.taskId) as Task }));
}

describe('fidelity measures', () => {
  it('computes token and set F1 as hand-computed', () => {
    expect(tokenF1(['a', 'b', 'b', 'c'], ['a', 'b', 'd'])).toBeCloseTo((2 * 0.5 * (2 / 3)) / (0.5 + 2 / 3), 10);
    expect(tokenF1([], [])).toBe(1);
    expect(tokenF1(['a'], [])).toBe(0);
    expect(setF1(['click[A]', 'click[b]'], ['click[a]', 'click[c]', 'click[d]'])).toBeCloseTo(0.4, 10);
  });

  it('gives a model that knows what really happens full marks, and one that repeats the state poor ones', async () => {
    const cases = await heldout('shop', 20);
    const key = (history: readonly string[], text: string, action: string): string => [...history, text, action].join('\u0000');
    const byKey = new Map(cases.map(({ transition: t }) => [key(t.history, t.state.text, t.action), t]));
    const perfect: ExperienceModel = {
      name: 'oracle-of-truth',
      stats: emptyStats,
      predict: async (batch) =>
        batch.map((input) => {
          const t = byKey.get(key(input.history.map((h) => h.action), input.state.text, input.action)) as Transition;
          return { reasoning: '', next: t.next, reward: t.reward, done: t.done, valid: true };
        }),
    };
    const { report } = await measureFidelity({ model: perfect, buffer: null, k: 0, heldout: cases });
    expect(report).toMatchObject({ nextStateF1: 1, actionSetF1: 1, rewardAccuracy: 1, rewardMae: 0, doneAccuracy: 1, epsilonR: 0, epsilonP: 0, invalidOutputRate: 0 });

    const still: ExperienceModel = { name: 'still', stats: emptyStats, predict: async (batch) => batch.map((i) => ({ reasoning: '', next: i.state, reward: 0, done: false, valid: true })) };
    const stuck = (await measureFidelity({ model: still, buffer: null, k: 0, heldout: cases })).report;
    expect(stuck.epsilonP).toBeGreaterThan(0.8);
    expect(stuck.doneAccuracy).toBeLessThan(1);

    // The events a policy learns from: the perfect model predicts every success and episode end and
    // nothing else; the still one predicts none, which its near-perfect reward accuracy hides.
    const successes = cases.filter(({ transition: t }) => t.done && t.reward === 1).length;
    // Episode ends of their own: the real ends at the step limit (unrewarded) are left out and counted apart.
    const atLimit = (t: Transition): boolean => t.done && t.reward === 0 && t.history.length + 1 >= envSpec('shop').maxSteps;
    const ends = cases.filter(({ transition: t }) => t.done && !atLimit(t)).length;
    const cutOffs = cases.filter(({ transition: t }) => atLimit(t)).length;
    expect(cutOffs).toBeGreaterThan(0);
    expect(report.cutOffEnds).toBe(cutOffs);
    expect(successes).toBeGreaterThan(0);
    expect(report.success).toEqual({ real: successes, predicted: successes, precision: 1, recall: 1 });
    expect(report.done).toEqual({ real: ends, predicted: ends, precision: 1, recall: 1 });
    expect(report.terminalRewardMae).toBe(0);
    expect(stuck.success).toEqual({ real: successes, predicted: 0, precision: null, recall: 0 });
    expect(stuck.done.recall).toBe(0);
    expect(stuck.terminalRewardMae).toBeGreaterThan(0.3);
    // What a step reveals: every action the real step made admissible, found by the perfect model;
    // the still one offers only the actions of the state before, so it finds none of them.
    const revealed = cases.reduce((a, { transition: t }) => a + t.next.actions.filter((x) => !t.state.actions.includes(x)).length, 0);
    expect(revealed).toBeGreaterThan(0);
    expect(report.revealedActions).toEqual({ real: revealed, found: revealed, recall: 1 });
    expect(stuck.revealedActions).toEqual({ real: revealed, found: 0, recall: 0 });
    // A model that calls every step a success: recall 1, precision the events' share.
    const eager: ExperienceModel = { name: 'eager', stats: emptyStats, predict: async (batch) => batch.map((i) => ({ reasoning: '', next: i.state, reward: 1, done: true, valid: true })) };
    const yes = (await measureFidelity({ model: eager, buffer: null, k: 0, heldout: cases })).report;
    expect(yes.success.recall).toBe(1);
    expect(yes.success.precision).toBeCloseTo(successes / cases.length, 3);
  });

  it('measures kNN on held-out shop and home transitions, above a model that predicts no change', async () => {
    for (const env of ['shop', 'home']) {
      const buffer = await seededBuffer(env, 120);
      const cases = await heldout(env, 12);
      const knn = (await measureFidelity({ model: new KnnExperienceModel(), buffer, k: 3, heldout: cases })).report;
      const still: ExperienceModel = { name: 'still', stats: emptyStats, predict: async (batch) => batch.map((i) => ({ reasoning: '', next: i.state, reward: 0, done: false, valid: true })) };
      const floor = (await measureFidelity({ model: still, buffer: null, k: 0, heldout: cases })).report;
      expect(knn.transitions).toBe(cases.length);
      expect(knn.invalidOutputRate).toBe(0);
      expect(knn.nextStateF1).toBeGreaterThan(floor.nextStateF1);
      // Not on home: there a neighbour from another layout lists other places to go, and "nothing
      // changes" keeps the right list. kNN is a floor, and this is where it is one.
      if (env === 'shop') expect(knn.actionSetF1).toBeGreaterThan(floor.actionSetF1);
      expect(knn.rewardMae).toBeLessThan(floor.rewardMae);
      expect(knn.actionSetF1).toBeGreaterThan(0.3);
      expect(Object.values(knn.byStateKind).reduce((a, g) => a + g.transitions, 0)).toBe(cases.length);
    }
  });
});
