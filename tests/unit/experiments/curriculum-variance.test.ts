import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { curriculumVariance, pearson, ranks, spearman, varianceFigures, type CurriculumVarianceReport, type TaskRow } from '../../../experiments/curriculum-variance.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { KnnExperienceModel } from '../../../src/experience/knn.ts';
import type { ExperienceModel, ExperiencePrediction } from '../../../src/experience/types.ts';
import { seedBuffer } from '../../../src/jobs/seed-buffer.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { MemoryReplayStore } from '../../../src/replay/memory-store.ts';
import { ReplayBuffer } from '../../../src/replay/retrieval.ts';

const spec = envSpec('home');
let buffer: ReplayBuffer;
let offlineTransitions: number;

/** Every figure recomputed from the rows, the way the report says it is made. */
function checkAgainstRows(report: CurriculumVarianceReport, tasks: number, group: number): void {
  expect(report.rows).toHaveLength(tasks);
  expect(new Set(report.rows.map((r) => r.task)).size).toBe(tasks);
  for (const row of report.rows) {
    for (const side of [row.model, row.real]) {
      expect(side.episodes).toBe(group);
      expect(side.successRate).toBeGreaterThanOrEqual(0);
      expect(side.successRate).toBeLessThanOrEqual(1);
      expect(side.successVariance).toBeGreaterThanOrEqual(0);
      expect(side.successVariance).toBeLessThanOrEqual(0.25);
      // The population variance of 0/1 outcomes is p(1 − p).
      expect(side.successVariance).toBeCloseTo(side.successRate * (1 - side.successRate), 10);
      expect(side.meanSteps).toBeGreaterThanOrEqual(1);
      expect(side.meanSteps).toBeLessThanOrEqual(report.maxSteps);
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
  expect(report.successRate.model).toBeCloseTo(mean(report.rows.map((r) => r.model.successRate)), 10);
  expect(report.successRate.real).toBeCloseTo(mean(report.rows.map((r) => r.real.successRate)), 10);
  const s = report.success;
  expect(s.meanRealVariance).toBeCloseTo(mean(report.rows.map((r) => r.real.successVariance)), 10);
  expect(s.topQuarter.tasks).toBe(Math.ceil(tasks / 4));
  // No task outside the top quarter has a higher in-model variance than the quarter's lowest.
  const modelVariances = report.rows.map((r) => r.model.successVariance).sort((a, b) => b - a);
  expect(s.topQuarter.lowestModelVariance).toBe(modelVariances[s.topQuarter.tasks - 1]);
  expect(s.topQuarter.varying).toBe(modelVariances.slice(0, s.topQuarter.tasks).filter((v) => v > 0).length);
  expect(s.topQuarter.meanModelVariance).toBeCloseTo(mean(modelVariances.slice(0, s.topQuarter.tasks)), 10);
  const share = (test: (r: TaskRow) => boolean) => report.rows.filter(test).length / tasks;
  expect(s.realVariesModelNever).toBeCloseTo(share((r) => r.real.successVariance > 0 && r.model.successVariance === 0), 10);
  expect(s.modelVariesRealNever).toBeCloseTo(share((r) => r.model.successVariance > 0 && r.real.successVariance === 0), 10);
  expect(s.modelVaries.tasks).toBe(report.rows.filter((r) => r.model.successVariance > 0).length);
  for (const r of [s.pearson, s.spearman, report.return.pearson, report.return.spearman]) if (r !== null) expect(Math.abs(r)).toBeLessThanOrEqual(1 + 1e-9);
}

describe('curriculum-variance', () => {
  beforeAll(async () => {
    await useBackend(['cpu']);
    const store = new MemoryReplayStore();
    buffer = await ReplayBuffer.open(store);
    await seedBuffer(spec, { episodes: 24, mix: 'oracle=0.5,random=0.5', seed: 1 }, { store, write: (t) => buffer.add(t) });
    offlineTransitions = await store.count({ env: 'home', source: 'real' });
  });

  it('ranks ties by their mean rank, and correlations are null where a side is constant', () => {
    expect(ranks([0.2, 0, 0.2, 0.1])).toEqual([3.5, 1, 3.5, 2]);
    expect(spearman([1, 2, 3], [10, 40, 90])).toBeCloseTo(1, 10);
    expect(pearson([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 10);
    expect(pearson([0, 0, 0], [1, 2, 3])).toBeNull();
  });

  it('puts the top quarter by in-model variance against all tasks, and counts the tasks that vary on one side only', () => {
    const side = (v: number) => ({ episodes: 4, successRate: 0, successVariance: v, meanReturn: 0, returnVariance: v, meanSteps: 10 });
    const rows: TaskRow[] = [
      [0.25, 0.1875],
      [0.1875, 0],
      [0, 0.25],
      [0, 0],
      [0, 0.1875],
    ].map(([m, r], i) => ({ task: `t${i}`, instruction: '', model: side(m as number), real: side(r as number) }));
    const f = varianceFigures(rows, 'successVariance');
    expect(f.topQuarter).toEqual({ tasks: 2, varying: 2, meanModelVariance: (0.25 + 0.1875) / 2, meanRealVariance: 0.1875 / 2, lowestModelVariance: 0.1875 });
    expect(f.meanRealVariance).toBeCloseTo((0.1875 + 0.25 + 0.1875) / 5, 12);
    expect(f.modelVaries).toEqual({ tasks: 2, meanRealVariance: 0.1875 / 2 });
    expect(f.realVariesModelNever).toBeCloseTo(2 / 5, 12);
    expect(f.modelVariesRealNever).toBeCloseTo(1 / 5, 12);
    // Ranked by one outcome inside the model, judged by another in the real env.
    const mixed: TaskRow[] = rows.map((r, i) => ({ ...r, model: { ...r.model, returnVariance: i === 3 ? 0.3 : 0 }, real: { ...r.real, returnVariance: 0 } }));
    const cross = varianceFigures(mixed, 'returnVariance', 'successVariance');
    expect(cross.topQuarter).toMatchObject({ tasks: 2, varying: 1, meanModelVariance: 0.15, meanRealVariance: 0.1875 / 2 });
    expect(varianceFigures(mixed, 'returnVariance').meanRealVariance).toBe(0);
  });

  it('plays each task group times in the dream and in the real env, and its figures follow from its rows', async () => {
    // A short step limit keeps the test quick; training's limit is what a measurement uses.
    const dream = { model: new KnnExperienceModel(), buffer, k: 3, offlineTransitions };
    const report = await curriculumVariance(spec, { policy: 'untrained', dream, tasks: 4, group: 3, split: 'train', seed: 1, backend: 'cpu', trainMaxSteps: 10 });
    expect(report).toMatchObject({ env: 'home', split: 'train', tasks: 4, group: 3, maxSteps: 10 });
    checkAgainstRows(report, 4, 3);
    // The same seed chooses the same tasks.
    const again = await curriculumVariance(spec, { policy: 'untrained', dream, tasks: 4, group: 2, split: 'train', seed: 1, backend: 'cpu', trainMaxSteps: 2 });
    expect(again.rows.map((r) => r.task)).toEqual(report.rows.map((r) => r.task));
  }, 60_000);

  it('the dream side is the model\'s: a model that calls every first step a success never varies, and every real variance is missed', async () => {
    const predicted: ExperiencePrediction = { reasoning: '', next: { text: 'done', actions: [] }, reward: 1, done: true, valid: true };
    let predictions = 0;
    const alwaysWins: ExperienceModel = {
      name: 'always-wins',
      predict: async (batch) => {
        predictions += batch.length;
        return batch.map(() => predicted);
      },
      stats: () => ({ predictions, invalidOutputs: 0, retries: 0 }) as ReturnType<ExperienceModel['stats']>,
    };
    const report = await curriculumVariance(spec, { policy: 'untrained', dream: { model: alwaysWins, buffer, k: 3, offlineTransitions }, tasks: 8, group: 2, split: 'train', seed: 2, backend: 'cpu', trainMaxSteps: 10 });
    checkAgainstRows(report, 8, 2);
    expect(predictions).toBe(8 * 2);
    expect(report.maxSteps).toBe(10);
    expect(report.successRate.model).toBe(1);
    for (const row of report.rows) {
      expect(row.model.meanSteps).toBe(1);
      expect(row.real.meanSteps).toBeLessThanOrEqual(10);
    }
    expect(report.success.modelVaries.tasks).toBe(0);
    expect(report.success.spearman).toBeNull();
    expect(report.success.modelVariesRealNever).toBe(0);
    expect(report.success.realVariesModelNever).toBeCloseTo(report.rows.filter((r) => r.real.successVariance > 0).length / 8, 12);
  }, 60_000);

  it('refuses a damaged policy file in one line', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dg-cv-'));
    const policy = path.join(dir, 'bad.dgp');
    writeFileSync(policy, 'not a policy');
    const run = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'experiments/run.ts', 'curriculum-variance', '--env', 'home', ...args], { cwd: path.resolve(import.meta.dirname, '../../..'), encoding: 'utf8' });
    const bad = run(['--policy', policy, '--model', path.join(dir, 'none.dgx'), '--buffer', path.join(dir, 'none.jsonl')]);
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim()).toMatch(/^error: .*/m);
    expect(bad.stderr).toContain('policy');
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
