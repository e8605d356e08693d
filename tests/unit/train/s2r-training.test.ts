import { beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../../../src/core/types.ts';
import type { TaskGenerator, VariationRequest } from '../../../src/curriculum/generator.ts';
import { BufferTaskGenerator } from '../../../src/curriculum/generator.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { generatedTask } from '../../../src/envs/variation.ts';
import { KnnExperienceModel } from '../../../src/experience/knn.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { Trainer, type TrainOptions } from '../../../src/train/trainer.ts';
import { seededBuffer } from '../experience/fixtures.ts';

/** Real variations from the env, plus one synthetic-only task per request (text no real goal states). */
class MixedGenerator implements TaskGenerator {
  readonly name = 'mixed';
  private readonly real = new BufferTaskGenerator(envSpec('shop'), envSpec('shop').tasks('train'));
  readonly syntheticOnly: Task[] = [];
  async generate(requests: readonly VariationRequest[], rng: import('../../../src/core/rng.ts').Rng): Promise<Task[]> {
    const made = await this.real.generate(requests, rng);
    const invented = requests.map((r) => generatedTask(r.parent, `${r.parent.instruction.replace(/, and price/, ' in a gift box, and price')}`, undefined, r.parent.difficulty + 1));
    this.syntheticOnly.push(...invented);
    return [...made, ...invented];
  }
  stats() {
    return this.real.stats();
  }
}

async function s2rOptions(realBudget: number, generator?: TaskGenerator): Promise<TrainOptions> {
  const buffer = await seededBuffer('shop', 40, 4);
  return {
    env: 'shop',
    mode: 's2r',
    algo: 'grpo',
    realBudget,
    seed: 3,
    backend: 'cpu',
    maxDifficulty: 4,
    finalEvalEpisodes: 10,
    dream: { model: new KnnExperienceModel(), buffer, k: 3, syntheticBudget: 300, offlineTransitions: await buffer.store.count({ source: 'real' }) },
    curriculum: { config: { lambda: 0.5 }, ...(generator ? { generator } : {}) },
    statsStore: buffer.store,
    policy: { hidden: 16, featurizer: { stateBuckets: 256, actionBuckets: 128, historyWindow: 2, maxElements: 30 } },
    algoConfig: { tasksPerIteration: 4, groupSize: 4, parallelEnvs: 16, minibatchSize: 64, epochs: 1 },
  };
}

describe('sim-to-real training', () => {
  beforeAll(async () => {
    await useBackend(['cpu']);
  });

  it('never spends more real transitions than its budget, and dreams before it touches the real env', async () => {
    for (const budget of [1, 45, 400]) {
      const result = await new Trainer(await s2rOptions(budget)).run();
      expect(result.mode).toBe('s2r');
      expect(result.realTransitions).toBeLessThanOrEqual(budget);
      expect(result.syntheticTransitions).toBeLessThanOrEqual(300);
      expect(result.syntheticTransitions).toBeGreaterThan(150);
      const phases = result.history.map((m) => m.phase);
      expect(phases[0]).toBe('dream');
      expect(phases.lastIndexOf('dream')).toBeLessThan(phases.indexOf('real') === -1 ? Infinity : phases.indexOf('real'));
      for (const m of result.history) {
        expect(m.realTransitions).toBeLessThanOrEqual(budget);
        if (m.phase === 'dream') expect(m.realTransitions).toBe(0);
      }
      if (budget === 400) {
        // (With 45, lanes start episodes that the budget cuts short: steps spent, no update made.)
        expect(result.realTransitions).toBeGreaterThan(200);
        expect(result.realPhaseFrom).toBe(phases.indexOf('real') + 1);
      }
      expect(result.eval?.episodes).toBe(10);
    }
  });

  it('keeps generated tasks under λ, starts synthetic-only ones from their parent page, and plays only real goals in the real env', async () => {
    const generator = new MixedGenerator();
    const options = await s2rOptions(200, generator);
    const store = options.statsStore!;
    const result = await new Trainer(options).run();
    expect(result.curriculum).toMatchObject({ generator: 'mixed', lambda: 0.5, grouping: 'task' });
    for (const m of result.history) {
      expect(m.curriculum).toBeDefined();
      expect(m.curriculum!.generated).toBeLessThanOrEqual(2); // ⌊0.5 × 4 tasks⌋
    }
    expect(result.history.some((m) => (m.curriculum?.generated ?? 0) > 0)).toBe(true);
    expect(generator.syntheticOnly.length).toBeGreaterThan(0);
    // A synthetic-only task was dreamt from its parent's first page with its own instruction.
    const invented = new Set(generator.syntheticOnly.map((t) => t.id));
    const dreamt = (await store.page({ filter: { source: 'synthetic' }, limit: 100_000 })).items.filter((t) => invented.has(t.taskId));
    expect(dreamt.length).toBeGreaterThan(0);
    for (const t of dreamt.filter((t) => t.history.length === 0)) expect(t.state.text).toContain('in a gift box');
    // Outcomes by policy version; none of a synthetic-only task in the real phase.
    const stats = await store.taskStats('shop');
    const realFrom = (result.realPhaseFrom ?? Infinity) - 1;
    expect(stats.some((s) => (s.versions ?? []).some((v) => v.policyVersion >= realFrom))).toBe(true);
    for (const s of stats.filter((s) => invented.has(s.taskId))) expect((s.versions ?? []).every((v) => v.policyVersion < realFrom)).toBe(true);
    // Generated tasks are kept as task records with their parent.
    const record = await store.getTask(generator.syntheticOnly[0]!.id);
    if (record) expect(record).toMatchObject({ origin: 'generated', parentId: generator.syntheticOnly[0]!.parentId });
  });

  it('refuses s2r without an experience model or without a real budget', async () => {
    const options = await s2rOptions(100);
    const { dream: _dream, ...withoutModel } = options;
    expect(() => new Trainer(withoutModel)).toThrow(/needs an experience model/);
    expect(() => new Trainer({ ...options, realBudget: 0 })).toThrow(/real budget/);
  });
});
