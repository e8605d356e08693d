import { describe, expect, it } from 'vitest';
import { MemoryReplayStore } from '../../../src/replay/memory-store.ts';
import { KEPT_VERSIONS, versionVariance } from '../../../src/replay/store.ts';

describe('task statistics by policy version', () => {
  it('keeps totals and the newest policy versions, each with its outcome variance', async () => {
    const store = new MemoryReplayStore();
    const outcome = (policyVersion: number, won: boolean) => ({ taskId: 't', env: 'shop', won, return: won ? 1 : 0, policyVersion });
    await store.recordOutcomes([outcome(0, true), outcome(0, false), outcome(0, false), outcome(0, false), outcome(1, true), outcome(1, true)]);
    const [stats] = await store.taskStats('shop');
    expect(stats).toMatchObject({ attempts: 6, successes: 3 });
    expect(stats?.versions?.map((v) => [v.policyVersion, v.attempts, v.successes])).toEqual([[0, 4, 1], [1, 2, 2]]);
    expect(versionVariance(stats!.versions![0]!)).toBeCloseTo(0.1875);
    expect(versionVariance(stats!.versions![1]!)).toBe(0);
    await store.recordOutcomes(Array.from({ length: 20 }, (_, v) => outcome(v + 2, v % 2 === 0)));
    const [later] = await store.taskStats('shop');
    expect(later?.versions).toHaveLength(KEPT_VERSIONS);
    expect(later?.versions?.[0]?.policyVersion).toBe(21 - KEPT_VERSIONS + 1);
    expect(later?.attempts).toBe(26);
  });

  it('leaves outcomes without a policy version as totals only (seeding)', async () => {
    const store = new MemoryReplayStore();
    await store.recordOutcomes([{ taskId: 't', env: 'home', won: true, return: 1 }]);
    const [stats] = await store.taskStats();
    expect(stats?.versions).toBeUndefined();
    expect(stats).toMatchObject({ attempts: 1, successes: 1 });
  });
});
