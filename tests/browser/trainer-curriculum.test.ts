/**
 * The trainer service with the curriculum, in a page (the same class the trainer worker exposes):
 * the Curriculum view's rows come from the live run's curriculum, and with `recordStats` every
 * episode's outcome lands in the IndexedDB replay store by policy version.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { IdbReplayStore } from '../../src/replay/idb-store.ts';
import { TrainerService, type TrainRequest } from '../../src/services/trainer-service.ts';

const DB = `test-trainer-stats-${Date.now()}`;

const REQUEST: TrainRequest = {
  env: 'shop',
  algo: 'grpo',
  // Two iterations of 8 episodes (4 tasks, a group of 2 each): variance of every group played, and a
  // few generated tasks, as twice the size gives.
  realBudget: 240,
  seed: 4,
  finalEvalEpisodes: 5,
  maxDifficulty: 4,
  algoConfig: { tasksPerIteration: 4, groupSize: 2, parallelEnvs: 8, minibatchSize: 64, epochs: 1 },
};

describe('the trainer service with a curriculum (real Chromium, real IndexedDB)', () => {
  const service = new TrainerService({ openReplayStore: () => IdbReplayStore.open({ name: DB }) });
  afterAll(() => IdbReplayStore.destroy(DB));

  it('has no curriculum rows before a run and after a run without one', async () => {
    expect(service.curriculumRows()).toEqual([]);
    expect(service.curriculumSnapshot()).toBeNull();
    await service.init(['cpu']);
    const result = await service.train({ ...REQUEST, realBudget: 100, curriculum: null }, () => {});
    expect(result.curriculum).toBeUndefined();
    expect(service.curriculumRows()).toEqual([]);
  }, 120_000);

  it('trains with the curriculum: rows with attempts and group variance, outcomes stored by policy version', async () => {
    const iterations: number[] = [];
    const midRun: number[] = [];
    const result = await service.train({ ...REQUEST, curriculum: { lambda: 0.5 }, recordStats: true }, (event) => {
      if (event.kind !== 'iteration') return;
      iterations.push(event.metrics.iteration);
      // Asked mid-run, as the view does: the live curriculum's rows.
      midRun.push(service.curriculumRows().filter((r) => r.attempts > 0).length);
      expect(event.metrics.curriculum?.pool).toBeGreaterThan(0);
    });
    expect(iterations.length).toBeGreaterThan(1);
    expect(midRun[0]).toBeGreaterThan(0);
    expect(result.curriculum).toMatchObject({ lambda: 0.5, grouping: 'task' });

    const snapshot = service.curriculumSnapshot();
    expect(snapshot).not.toBeNull();
    expect(snapshot?.summary.lambda).toBe(0.5);
    expect(snapshot?.iterations).toBe(result.iterations);
    expect(snapshot?.total).toBe(snapshot?.rows.length);
    const rows = service.curriculumRows();
    const attempted = rows.filter((r) => r.attempts > 0);
    expect(attempted.length).toBeGreaterThan(0);
    // GRPO plays each task twice: a group's variance is known once it has two outcomes (the budget
    // may cut the last group short), and returns in [0, 1] vary by at most 1/4.
    expect(attempted.filter((r) => r.variance !== null).length).toBeGreaterThan(attempted.length / 2);
    expect(attempted.every((r) => r.variance === null || (r.variance >= 0 && r.variance <= 0.25))).toBe(true);
    expect(attempted.every((r) => r.policyVersion !== null && r.policyVersion < result.iterations)).toBe(true);
    expect(attempted.every((r) => r.successRate !== null && r.successRate >= 0 && r.successRate <= 1)).toBe(true);
    // A generated task names its parent, whose instruction comes with it.
    for (const row of rows.filter((r) => r.origin === 'generated')) {
      expect(row.parentId).not.toBeNull();
      expect(row.parentInstruction).toEqual(expect.any(String));
    }
    expect(service.curriculumRows(3)).toEqual(rows.slice(0, 3));

    const store = await IdbReplayStore.open({ name: DB });
    const stats = await store.taskStats('shop');
    await store.close();
    const attempts = stats.reduce((n, s) => n + s.attempts, 0);
    expect(attempts).toBe(result.history.reduce((n, m) => n + m.episodes, 0));
    const versions = new Set(stats.flatMap((s) => (s.versions ?? []).map((v) => v.policyVersion)));
    expect([...versions].sort((a, b) => a - b)).toEqual(result.history.map((_, i) => i));
  }, 180_000);

  it('keeps the last run readable when a request is refused', async () => {
    const before = service.curriculumRows();
    await expect(service.train({ ...REQUEST, curriculum: { lambda: 2 } }, () => {})).rejects.toThrow(/^λ \(largest share of generated tasks\) must be a number in \[0, 1\], got 2/);
    expect(service.curriculumRows()).toEqual(before);
  });
});
