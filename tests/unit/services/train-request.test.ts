/**
 * The Train view's request goes through the train job's spec (jobs/train-spec.ts APP_TRAIN_SPECS):
 * absurd numbers are refused before any run starts, naming the form's field, and the service stays
 * idle and keeps nothing of the refused run.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '../../../src/platform/tf.ts';
import { MemoryReplayStore } from '../../../src/replay/memory-store.ts';
import { MemoryNeuralModelStore } from '../../../src/services/neural-model-store.ts';
import { TrainerService, type TrainRequest } from '../../../src/services/trainer-service.ts';

const real: TrainRequest = { env: 'shop', algo: 'ppo', mode: 'real', realBudget: 100, seed: 1 };

describe("the trainer service checks the Train view's numbers with the train spec", () => {
  beforeAll(async () => {
    await useBackend(['cpu']);
  });

  const cases: [string, Partial<TrainRequest>, RegExp][] = [
    ['a seed beyond 2^53', { seed: 2 ** 60 }, /^Seed must be an integer ≥ 0 and ≤ 9,007,199,254,740,991/],
    ['an absurd real budget', { realBudget: 1e99 }, /^Real-transition budget must be an integer ≥ 1 and ≤ 100,000,000/],
    // An empty number field reads as NaN in the page: said in words, not JSON's "got null".
    ['an empty real budget field', { realBudget: Number.NaN }, /^Real-transition budget must be an integer ≥ 1 and ≤ 100,000,000, but it is empty or not a number$/],
    ['a fractional evaluation period', { evalEvery: 1.5 }, /^Evaluate every N iterations must be an integer/],
    ['λ above 1', { curriculum: { lambda: 2 } }, /^λ \(largest share of generated tasks\) must be a number in \[0, 1\]/],
    ['a dream run without a synthetic budget', { mode: 'dream', realBudget: 0 }, /^Synthetic-transition budget is required/],
    ['a negative checkpoint interval', { checkpointEverySeconds: -1 }, /^Save the run every N seconds must be a number in \[0, 86400\]/],
    ['a dream run with k past MAX_K', { mode: 'dream', realBudget: 0, syntheticBudget: 100, k: 99 }, /^Retrieved examples \(k\) must be an integer ≥ 0 and ≤ 16/],
  ];
  for (const [what, change, message] of cases) {
    it(`refuses ${what}`, async () => {
      const service = new TrainerService({ openReplayStore: async () => new MemoryReplayStore(), openModelStore: async () => new MemoryNeuralModelStore() });
      await service.init(['cpu']);
      await expect(service.train({ ...real, ...change }, () => {})).rejects.toThrow(message);
      expect(service.status().state).toBe('idle');
      await expect(service.exportPolicy()).rejects.toThrow(/nothing to export yet/);
    });
  }
});
