import { describe, expect, it } from 'vitest';
import { replayEpisodes } from '../../../src/envs/replay-episodes.ts';
import type { Task } from '../../../src/core/types.ts';
import { runEpisode } from '../../../src/envs/episode.ts';
import { envSpec } from '../../../src/envs/registry.ts';

describe('replayEpisodes', () => {
  it('plays the actions again and returns every state, what followed, and the history with its states', async () => {
    const spec = envSpec('shop');
    const task = spec.tasks('test')[3] as Task;
    const played = await runEpisode(spec.createEnv(), spec.createOracle(), task);
    const [episode] = await replayEpisodes(spec, [{ task, steps: played.steps.map((s) => ({ action: s.action })) }]);
    expect(episode?.steps.map((s) => s.result)).toEqual(played.steps.map((s) => s.result));
    expect(episode?.steps[0]?.state).toEqual(played.first);
    episode?.steps.forEach((step, i) => {
      if (i > 0) expect(step.state).toEqual(played.steps[i - 1]?.result.observation);
      expect(step.history.map((h) => h.action)).toEqual(played.steps.slice(0, i).map((s) => s.action));
      expect(step.history.map((h) => h.state)).toEqual(episode.steps.slice(0, i).map((s) => s.state));
    });
  });
});
