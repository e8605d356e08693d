import { beforeAll, describe, expect, it } from 'vitest';
import { fitNeuralModel } from '../../../src/experience/neural/fit.ts';
import { transitionCandidates } from '../../../src/experience/neural/transition-candidates.ts';
import { HASH_SLOTS } from '../../../src/experience/neural/model.ts';
import { Rows } from '../../../src/experience/neural/network.ts';
import { reasoningLabels } from '../../../src/experience/neural/reasoning.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { seededBuffer } from './fixtures.ts';

beforeAll(async () => {
  await useBackend(['cpu']);
});

describe('the reasoning head in fitting', () => {
  it('learns which sentences of the examples\' annotations the real annotation says', async () => {
    const buffer = await seededBuffer('home', 4, 1);
    const fit = await fitNeuralModel({ buffer, env: 'home', epochs: 3, batchSize: 64, learningRate: 0.01, validationShare: 0, seed: 2 });
    const rows = new Rows(fit.model.network.architecture.heads.reasoning, HASH_SLOTS.reasoning);
    const labels: number[] = [];
    for (const { input, real } of fit.inputs) {
      const { reasoning } = transitionCandidates(input);
      reasoningLabels(reasoning, real.reasoning, real.instruction).forEach((label, i) => {
        rows.push(reasoning[i]!.features, [label]);
        labels.push(label);
      });
    }
    const logits = await fit.model.network.logits('reasoning', rows, labels.map((_, i) => i));
    const right = labels.filter((label, i) => (logits[i]! > 0 ? 1 : 0) === label).length / labels.length;
    const majority = Math.max(...[0, 1].map((c) => labels.filter((l) => l === c).length)) / labels.length;
    expect(labels.length).toBeGreaterThan(40);
    // Examples come from other episodes: the head must judge which carried-over sentence holds here.
    expect(right).toBeGreaterThan(Math.max(0.85, majority + 0.05));
    fit.model.dispose();
  }, 120_000);

  it('a model fitted without reasoning reads no annotation', async () => {
    const buffer = await seededBuffer('home', 3, 1);
    const fit = await fitNeuralModel({ buffer, env: 'home', epochs: 2, validationShare: 0, seed: 2, reasoning: false });
    const inputs = fit.inputs.slice(0, 30).map((x) => x.input);
    // It was posed its examples without their annotations…
    expect(inputs.every((x) => x.examples.every((e) => e.reasoning === undefined))).toBe(true);
    // …and at prediction time the same examples with them give the same prediction.
    const withAnnotations = inputs.map((x, i) => ({ ...x, examples: x.examples.map((e, j) => ({ ...e, reasoning: `You did step ${i}.${j}. This completes the task, so the reward is 1.` })) }));
    const outcome = (ps: { next: unknown; reward: number; done: boolean }[]) => ps.map((p) => [p.next, p.reward, p.done]);
    expect(outcome(await fit.model.predict(withAnnotations))).toEqual(outcome(await fit.model.predict(inputs)));
    fit.model.dispose();
  }, 120_000);
});
