import { beforeAll, describe, expect, it } from 'vitest';
import { dreamScripted } from '../../../experiments/dream-scripted.ts';
import { envSpec, replaceEnvironment } from '../../../src/envs/registry.ts';
import type { Env } from '../../../src/core/types.ts';
import type { ExperienceInput, ExperienceModel, ExperiencePrediction } from '../../../src/experience/types.ts';
import { emptyStats } from '../../../src/experience/types.ts';
import { useBackend } from '../../../src/platform/tf.ts';

const spec = envSpec('home');

/** A model that is the real environment: it replays the history in a fresh env and takes the action. */
const mirror: ExperienceModel = {
  name: 'mirror',
  async predict(batch: readonly ExperienceInput[]): Promise<ExperiencePrediction[]> {
    return Promise.all(
      batch.map(async (input) => {
        const env = spec.createEnv();
        await env.reset(input.task);
        for (const h of input.history) await env.step(h.action);
        const result = await env.step(input.action);
        return { reasoning: '', next: result.observation, reward: result.reward, done: result.done, valid: true };
      }),
    );
  },
  stats: () => emptyStats(),
};

/** A model under which nothing ever happens: the room stays as it was. */
const still: ExperienceModel = {
  name: 'still',
  async predict(batch: readonly ExperienceInput[]): Promise<ExperiencePrediction[]> {
    return batch.map((input) => ({ reasoning: '', next: input.state, reward: 0, done: false, valid: true }));
  },
  stats: () => emptyStats(),
};

const run = (model: ExperienceModel) =>
  dreamScripted(spec, { agent: 'oracle', dream: { model, buffer: null, k: 0, offlineTransitions: 0 }, tasks: 4, split: 'train', seed: 2, trainMaxSteps: 20, backend: 'cpu' });

describe('dream-scripted', () => {
  beforeAll(async () => {
    await useBackend(['cpu']);
  });

  it('closes every real env it opened (a web env\'s pages), as the trainer\'s own runs do', async () => {
    const opened: Env[] = [];
    let closed = 0;
    const restore = replaceEnvironment({
      ...spec,
      createEnv: () => {
        const env = spec.createEnv();
        opened.push(env);
        return Object.assign(Object.create(env) as Env, { close: async () => void closed++ });
      },
    });
    try {
      await dreamScripted(envSpec('home'), { agent: 'oracle', dream: { model: still, buffer: null, k: 0, offlineTransitions: 0 }, tasks: 2, split: 'train', seed: 2, trainMaxSteps: 20, backend: 'cpu' });
    } finally {
      restore();
    }
    expect(opened.length).toBeGreaterThan(0);
    expect(closed).toBe(opened.length);
  });

  it('finds no divergence and every win inside a model that is the environment', async () => {
    const report = await run(mirror);
    expect(report.tasks).toBe(4);
    expect(report.successRate).toEqual({ real: 1, model: 1 });
    expect(report.meanScore).toEqual({ real: 1, model: 1 });
    expect(report.wonBothOfRealWins).toBe(1);
    expect(report.firstDivergence).toEqual({ meanStep: null, tasks: 0 });
    for (const row of report.rows) expect(row.model.steps).toBe(row.real.steps);
  });

  it('reports the first step whose prediction parts from the real episode, with both texts', async () => {
    const report = await run(still);
    expect(report.successRate).toEqual({ real: 1, model: 0 });
    expect(report.meanScore).toEqual({ real: 1, model: 0 });
    expect(report.firstDivergence).toEqual({ meanStep: 0, tasks: 4 });
    for (const row of report.rows) {
      expect(row.divergence?.step).toBe(0);
      expect(row.divergence?.real).not.toBe(row.divergence?.model);
      expect(row.divergence?.action).toMatch(/^go to /);
    }
  });

  it('keeps every step of both sides with --trace, and counts an ending the model pays 0.99 a success inside it, as the fidelity does', async () => {
    /** The environment, but paying 0.99 where it pays 1. */
    const shy: ExperienceModel = { ...mirror, name: 'shy', predict: async (batch) => (await mirror.predict(batch)).map((p) => ({ ...p, reward: p.reward >= 1 ? 0.99 : p.reward })) };
    // The household's dream rounds an end reward to 0 or 1 (binaryReward): here it does not.
    const restore = replaceEnvironment({ ...spec, binaryReward: false });
    const report = await dreamScripted(envSpec('home'), { agent: 'oracle', dream: { model: shy, buffer: null, k: 0, offlineTransitions: 0 }, tasks: 4, split: 'train', seed: 2, trainMaxSteps: 20, backend: 'cpu', trace: true }).finally(restore);
    // One definition of success inside a model (experience/success.ts): a model that makes no call
    // of its own succeeds within 0.05 of 1; 0.9 is no success.
    expect(report.successRate).toEqual({ real: 1, model: 1 });
    expect(report.meanScore).toEqual({ real: 1, model: 0.99 });
    for (const row of report.rows) {
      expect(row.trace?.model.map((s) => s.action)).toEqual(row.trace?.real.map((s) => s.action));
      expect(row.trace?.model.at(-1)).toMatchObject({ reward: 0.99, done: true });
      expect(row.trace?.real.at(-1)?.observation).toBe(row.trace?.model.at(-1)?.observation);
    }
    const doubtful: ExperienceModel = { ...mirror, name: 'doubtful', predict: async (batch) => (await mirror.predict(batch)).map((p) => ({ ...p, reward: p.reward >= 1 ? 0.9 : p.reward })) };
    const undo = replaceEnvironment({ ...spec, binaryReward: false });
    const unsure = await dreamScripted(envSpec('home'), { agent: 'oracle', dream: { model: doubtful, buffer: null, k: 0, offlineTransitions: 0 }, tasks: 4, split: 'train', seed: 2, trainMaxSteps: 20, backend: 'cpu' }).finally(undo);
    expect(unsure.successRate).toEqual({ real: 1, model: 0 });
  });
});
