/**
 * The Buffer view's seeding goes through the seed job's spec (jobs/seed-spec.ts): absurd numbers
 * are refused before a run is recorded, naming the form's field; a sound request seeds.
 */
import { describe, expect, it } from 'vitest';
import { MemoryReplayStore } from '../../../src/replay/memory-store.ts';
import { ReplayService } from '../../../src/services/replay-service.ts';

describe("the replay service checks the Buffer view's seeding with the seed spec", () => {
  const cases: [string, { episodes: number; seed: number }, RegExp][] = [
    ['an absurd episode count', { episodes: 1e99, seed: 1 }, /^Episodes must be an integer ≥ 1 and ≤ 1,000,000/],
    ['no episodes', { episodes: 0, seed: 1 }, /^Episodes must be an integer ≥ 1/],
    ['a seed beyond 2^53', { episodes: 2, seed: 2 ** 60 }, /^Seed must be an integer ≥ 0 and ≤ 9,007,199,254,740,991/],
  ];
  for (const [what, numbers, message] of cases) {
    it(`refuses ${what} and records no run`, async () => {
      const store = new MemoryReplayStore();
      const service = new ReplayService(async () => store);
      await expect(service.seed({ env: 'shop', mix: 'oracle=0.5,random=0.5', ...numbers }, () => {})).rejects.toThrow(message);
      expect(await store.runs()).toEqual([]);
      expect(await store.count()).toBe(0);
    });
  }

  it('seeds a sound request', async () => {
    const store = new MemoryReplayStore();
    const service = new ReplayService(async () => store);
    const result = await service.seed({ env: 'shop', mix: 'oracle=0.5,random=0.5', episodes: 2, seed: 1 }, () => {});
    expect(result).toMatchObject({ episodes: 2, total: 2, stopped: false });
    expect(await store.count({ env: 'shop', source: 'real' })).toBe(result.transitions);
  });
});
