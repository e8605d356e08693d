/**
 * The Experience view's step while an endpoint does not answer: the store says since when it has
 * waited (the view counts the seconds beside Stop and the endpoint's time limit), and when the
 * request is given up at that limit its message becomes the view's alert, the wait ends, and the
 * real environment does not move.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ExperienceStart } from '../../../src/services/experience-protocol.ts';

const TIMEOUT = 'http://127.0.0.1:8080/v1/chat/completions did not answer within 60 s. The server may be busy or the model (slow) too slow for this prompt: raise the timeout, lower the concurrency, or use a smaller model.';

// The experience worker, faked: its step waits until the test gives it up, as the endpoint's time limit would.
let giveUp: (error: Error) => void = () => undefined;
const step = vi.fn(() => new Promise((_, reject) => { giveUp = reject; }));
vi.mock('../../../src/app/experience-client.ts', () => ({
  experienceClient: () => ({ step }),
  onExperienceCrash: () => () => undefined,
}));
// The env worker's frames for live pages need a document; the shop needs none.
vi.mock('../../../src/app/page-frames.ts', () => ({ givePageFrames: () => undefined }));

const state = await import('../../../src/app/experience/experience-state.ts');
const store = await import('../../../src/app/experience/experience-store.ts');

describe('a step waiting on an endpoint that does not answer', () => {
  it('counts from when it was asked, then shows the time limit\'s message and stops waiting', async () => {
    state.active.value = { kind: 'http', name: 'llm:http/slow@127.0.0.1:8080', predictsOnPage: false, requestTimeoutMs: 60_000 };
    store.episode.value = { observation: { text: 'page: search', actions: ['search[...]'] } } as unknown as ExperienceStart;
    const before = Date.now();
    const stepping = store.act('search[shoes]');
    expect(step).toHaveBeenCalledWith('search[shoes]');
    expect(store.stepping.value).toBe(true);
    expect(store.steppingSince.value).toBeGreaterThanOrEqual(before);
    expect(state.error.value).toBeNull();

    giveUp(new Error(TIMEOUT));
    await stepping;
    expect(state.error.value).toBe(TIMEOUT);
    expect(state.note.value).toBeNull();
    expect(store.stepping.value).toBe(false);
    expect(store.steppingSince.value).toBeNull();
    expect(store.steps.value).toEqual([]);
  });
});
