/**
 * The Play view's demonstrations: a person's steps land in the buffer as real transitions of a
 * run of their own; a step that is not a sound transition is refused with why, and stores nothing.
 */
import { describe, expect, it } from 'vitest';
import { MemoryReplayStore } from '../../../src/replay/memory-store.ts';
import { ReplayService } from '../../../src/services/replay-service.ts';

const RUN = { id: 'demo-web-abc', env: 'web' };

function step(i: number, extra: Record<string, unknown> = {}) {
  return {
    runId: RUN.id, taskId: 'click-button:100000', episodeId: `${RUN.id}/1`, env: 'web', instruction: 'Click the OK button.',
    history: Array.from({ length: i }, (_, j) => `click[#${j + 1}]`),
    state: { text: 'title: t', actions: ['click[#1 OK]'] }, action: 'click[#1 OK]',
    next: { text: 'title: t', actions: [] }, reward: i === 1 ? 1 : 0, done: i === 1, source: 'real', createdAt: 1, ...extra,
  };
}

describe('recording a person\'s demonstration into the replay buffer', () => {
  it('stores the steps as real transitions of a demo run the Buffer view lists', async () => {
    const store = new MemoryReplayStore();
    const service = new ReplayService(async () => store);
    expect(await service.recordDemonstration(RUN, [step(0)])).toEqual({ stored: 1, runTransitions: 1 });
    expect(await service.recordDemonstration(RUN, [step(1)])).toEqual({ stored: 1, runTransitions: 2 });
    expect(await store.runs()).toMatchObject([{ id: RUN.id, env: 'web', kind: 'demo:play' }]);
    expect(await store.count({ env: 'web', source: 'real' })).toBe(2);
  });

  it('refuses a step that is not a sound real transition of the run, naming the field, and stores nothing', async () => {
    const store = new MemoryReplayStore();
    const service = new ReplayService(async () => store);
    await expect(service.recordDemonstration(RUN, [step(0, { reward: Number.NaN })])).rejects.toThrow(/step 1 of the demonstration cannot be stored: reward/);
    await expect(service.recordDemonstration(RUN, [step(0, { source: 'synthetic' })])).rejects.toThrow(/not a real transition of run demo-web-abc/);
    expect(await store.count()).toBe(0);
  });
});
