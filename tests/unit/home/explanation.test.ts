import { describe, expect, it } from 'vitest';
import type { StepResult } from '../../../src/core/types.ts';
import { rollout, type EpisodeRecord } from '../../../src/envs/episode.ts';
import { EXPLANATION_MAX, STEP_LIMIT_NOTE } from '../../../src/envs/explain.ts';
import { planGoal } from '../../../src/envs/home/agents.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { malformedActions } from '../fuzz-actions.ts';
import { fetch, firstTask, isOpenable, ofType, recName, start } from './helpers.ts';

const homeSpec = envSpec('home');

function explanationOf(result: StepResult): string {
  const text = result.info.explanation;
  expect(typeof text).toBe('string');
  return text as string;
}

function expectWellFormed(text: string): void {
  expect(text.length).toBeGreaterThan(0);
  expect(text.length).toBeLessThanOrEqual(EXPLANATION_MAX);
  expect(text).not.toMatch(/[\n\r\t]/);
}

async function episodes(policy: 'oracle' | 'random', count: number, seed: number): Promise<EpisodeRecord[]> {
  const records: EpisodeRecord[] = [];
  await rollout({ spec: homeSpec, policy, split: 'valid-unseen', episodes: count, seed, onEpisode: (_i, r) => records.push(r) });
  return records;
}

describe('home: every step explains itself', () => {
  for (const policy of ['oracle', 'random'] as const) {
    it(`${policy} episodes: a short explanation on every step; the winning step says the reward is 1`, async () => {
      let wins = 0;
      for (const record of await episodes(policy, 40, 7)) {
        const task = record.task.instruction.replace(/\.$/, '');
        for (const { result } of record.steps) {
          const text = explanationOf(result);
          expectWellFormed(text);
          if (result.reward === 1) {
            wins++;
            expect(text).toMatch(/, so the reward is 1\.$/);
            expect(text).toContain(`completes the task "${task}"`);
          } else {
            expect(text).not.toContain('reward is 1');
          }
          if (!result.info.valid) expect(text).toMatch(/^Nothing happens: ".*" does not apply here, so the reward is 0\./);
          if (result.info.truncated) expect(text.endsWith(STEP_LIMIT_NOTE)).toBe(true);
          else expect(text).not.toContain(STEP_LIMIT_NOTE);
        }
      }
      if (policy === 'oracle') expect(wins).toBe(40);
    });
  }

  it('gives the same explanations for the same seed', async () => {
    const texts = async () => (await episodes('random', 6, 3)).flatMap((r) => r.steps.map((s) => s.result.info.explanation));
    expect(await texts()).toEqual(await texts());
  });

  it('explains going to a closed receptacle, opening it, taking, and the put that completes the task', async () => {
    const task = firstTask('train', (goal, t) => goal.type === 'pick_and_place' && t.difficulty > 1);
    const ep = await start(task);
    const plan = planGoal(ep.world, ep.goal);
    const closed = ep.world.layout.receptacles.findIndex((r, i) => r.openable && plan.includes(`open ${recName(ep.world, i)}`));
    expect(closed).toBeGreaterThanOrEqual(0);
    let last: StepResult | null = null;
    for (const command of plan) {
      last = await ep.step(command);
      const text = explanationOf(last);
      if (command === `go to ${recName(ep.world, closed)}`) expect(text).toBe(`You went to ${recName(ep.world, closed)}; it is closed, so nothing inside is visible.`);
      if (command.startsWith('open ')) expect(text).toMatch(/^You opened \S+ \d+; (inside you see .+|it is empty)\.$/);
      if (command.startsWith('take ')) {
        const [, obj, rec] = /^take (.+) from (.+)$/.exec(command) as RegExpExecArray;
        expect(text).toBe(`You took ${obj} from ${rec} and now hold it.`);
      }
    }
    expect(last?.reward).toBe(1);
    expect(explanationOf(last as StepResult)).toMatch(
      new RegExp(`^The ${ep.goal.object} \\d+ was put (in|on) \\S+ \\d+, which completes the task "${task.instruction.replace(/\.$/, '')}", so the reward is 1\\.$`),
    );
  });

  it('explains a transformation and what the task still needs', async () => {
    const task = firstTask('train', ofType('pick_heat_then_place'));
    const ep = await start(task);
    const plan = planGoal(ep.world, ep.goal);
    const heatAt = plan.findIndex((c) => c.startsWith('heat '));
    for (const command of plan.slice(0, heatAt)) await ep.step(command);
    const heated = explanationOf(await ep.step(plan[heatAt] as string));
    expect(heated).toMatch(new RegExp(`^You heated ${ep.goal.object} \\d+ with microwave \\d+; it is now hot\\. It still has to be put (in|on) a ${ep.goal.target}, so the reward is 0\\.$`));
  });

  it('says why a put of the goal object in the wrong place earns nothing', async () => {
    const task = firstTask('train', (goal) => goal.type === 'pick_and_place');
    const ep = await start(task);
    const obj = ep.world.objects.findIndex((o) => o.type === ep.goal.object);
    await fetch(ep, obj);
    const elsewhere = ep.world.layout.receptacles.findIndex((r, i) => r.type !== ep.goal.target && !isOpenable(ep.world, i) && i !== ep.world.hosts[obj]);
    await ep.step(`go to ${recName(ep.world, elsewhere)}`);
    const name = (ep.world.objects[obj] as { name: string }).name;
    const put = await ep.step(`put ${name} in/on ${recName(ep.world, elsewhere)}`);
    expect(put.reward).toBe(0);
    expect(explanationOf(put)).toMatch(new RegExp(`^You put ${name} (in|on) ${recName(ep.world, elsewhere)} and hold nothing now\\. The task needs it (in|on) a ${ep.goal.target}, so the reward is 0\\.$`));
  });

  it('says so when a command does not apply, and notes the step limit', async () => {
    const task = firstTask('valid-unseen', () => true);
    const ep = await start(task, { maxSteps: 3 });
    expect(explanationOf(await ep.raw('fly to the moon'))).toBe('Nothing happens: "fly to the moon" does not apply here, so the reward is 0.');
    expect(explanationOf(await ep.raw('take apple 99 from fridge 42'))).toBe(
      'Nothing happens: "take apple 99 from fridge 42" does not apply here, so the reward is 0.',
    );
    const last = await ep.raw('look');
    expect(last.info.truncated).toBe(true);
    expect(explanationOf(last)).toBe(`You looked around; you are in the middle of the room and nothing changes.${STEP_LIMIT_NOTE}`);
  });

  it('keeps explanations of malformed commands short and printable', async () => {
    const task = firstTask('valid-unseen', () => true);
    const ep = await start(task, { maxSteps: 1_000_000 });
    for (const action of malformedActions(400, 5, ['go to cabinet 1', 'look'])) {
      const result = await ep.raw(action);
      const text = explanationOf(result);
      expectWellFormed(text);
      if (!result.info.valid) expect(text).toMatch(/^Nothing happens: ".*" does not apply here, so the reward is 0\.$/);
    }
  });
});
