import { describe, expect, it } from 'vitest';
import type { Transition } from '../../../src/core/types.ts';
import { EXPLANATION_MAX } from '../../../src/envs/explain.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { importJsonl, transitionLine } from '../../../src/replay/jsonl.ts';
import { validateTransition } from '../../../src/replay/schema.ts';
import { seedEpisodes } from '../../../src/replay/seed.ts';
import { transition } from './helpers.ts';

async function seeded(env: string): Promise<Transition[]> {
  const out: Transition[] = [];
  for await (const episode of seedEpisodes({ spec: envSpec(env), episodes: 6, mix: { oracle: 0.5, random: 0.5 }, seed: 2, createdAt: 0 })) {
    out.push(...episode.transitions);
  }
  return out;
}

describe('seeded transitions carry the environment\'s explanation as reasoning', () => {
  for (const env of ['shop', 'home']) {
    it(`${env}: every real transition has a short reasoning that the schema keeps and JSONL round-trips`, async () => {
      const transitions = await seeded(env);
      expect(transitions.length).toBeGreaterThan(6);
      for (const t of transitions) {
        expect(t.source).toBe('real');
        expect(typeof t.reasoning).toBe('string');
        expect((t.reasoning as string).length).toBeGreaterThan(0);
        expect((t.reasoning as string).length).toBeLessThanOrEqual(EXPLANATION_MAX);
        const checked = validateTransition(JSON.parse(JSON.stringify(t)));
        expect(checked).toMatchObject({ ok: true, transition: { reasoning: t.reasoning } });
      }
      // A rewarded step explains its reward.
      const rewarded = transitions.filter((t) => t.reward > 0);
      expect(rewarded.length).toBeGreaterThan(0);
      for (const t of rewarded) expect(t.reasoning).toContain(`the reward is ${Number(t.reward.toFixed(2))}.`);

      const landed: Transition[] = [];
      const report = await importJsonl([transitions.map((t) => transitionLine(t)).join('')], async (batch) => {
        landed.push(...batch);
      });
      expect(report).toMatchObject({ accepted: transitions.length, rejectedCount: 0 });
      expect(landed).toEqual(transitions);
    });
  }

  it('the schema accepts a reasoning string of bounded length and nothing else', () => {
    expect(validateTransition(transition(1, { reasoning: 'Opened the item page.' }))).toMatchObject({ ok: true, transition: { reasoning: 'Opened the item page.' } });
    expect(validateTransition({ ...transition(1), reasoning: 'x'.repeat(70_000) })).toMatchObject({ ok: false, problem: expect.stringMatching(/^reasoning: /) });
    expect(validateTransition({ ...transition(1), reasoning: 42 })).toMatchObject({ ok: false, problem: expect.stringMatching(/^reasoning: /) });
  });
});
