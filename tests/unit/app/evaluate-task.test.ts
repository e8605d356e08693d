/**
 * The Evaluate view's Task field: a number the split does not have (too large, negative, a fraction,
 * the field left empty) is said in words, and Start (or Enter in the field) does not ask the trainer
 * worker for an episode until the number names a task.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { describeEnv, envSpec } from '../../../src/envs/registry.ts';
import type { PolicyFileHeader } from '../../../src/policy/dgp.ts';

// The trainer worker's player, faked: the store's only way to start an episode.
const startEpisodeInWorker = vi.fn((split: string, index: number) => Promise.resolve({ split, index, observation: null }));
vi.mock('../../../src/app/trainer-client.ts', () => ({
  playerClient: () => ({ startEpisode: startEpisodeInWorker }),
  onTrainerCrash: () => () => undefined,
}));
// The env worker's frames for live pages need a document; the shop needs none.
vi.mock('../../../src/app/page-frames.ts', () => ({ givePageFrames: () => undefined }));

const { envs } = await import('../../../src/app/env-client.ts');
const store = await import('../../../src/app/evaluate/evaluate-store.ts');

const shop = describeEnv(envSpec('shop'));
const testSize = shop.splits.find((s) => s.name === 'test')?.size ?? 0;
const sizeText = testSize.toLocaleString('en-US');

describe('the Evaluate view\'s task number', () => {
  beforeEach(() => {
    startEpisodeInWorker.mockClear();
    envs.value = [shop];
    store.header.value = { env: 'shop' } as PolicyFileHeader;
    store.split.value = 'test';
    store.episode.value = null;
    store.episodeError.value = null;
  });

  it.each([
    [99999, 'got 99999'],
    [-5, 'got -5'],
    [1.5, 'got 1.5'],
    [testSize, `got ${testSize}`],
    [Number.NaN, 'the field is empty'],
  ])('refuses %s in words and starts no episode', async (typed, said) => {
    expect(testSize).toBeGreaterThan(1);
    store.taskIndex.value = typed;
    expect(store.taskProblem.value).toBe(`Task: a whole number from 0 to ${(testSize - 1).toLocaleString('en-US')} (the test split has ${sizeText} tasks); ${said}.`);
    await store.startEpisode();
    expect(startEpisodeInWorker).not.toHaveBeenCalled();
    expect(store.episode.value).toBeNull();
  });

  it('starts the episode for a task the split has', async () => {
    for (const index of [0, testSize - 1]) {
      store.taskIndex.value = index;
      expect(store.taskProblem.value).toBeNull();
      await store.startEpisode();
      expect(startEpisodeInWorker).toHaveBeenLastCalledWith('test', index);
    }
    expect(store.episodeError.value).toBeNull();
  });
});
