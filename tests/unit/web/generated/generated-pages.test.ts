/**
 * The generated pages judge what was done, not the oracle: a commit the goal does not ask for
 * loses at once, a form with a required field empty says so and waits; and an app whose pages are
 * client-side routes or documents goes back to the page before, what was typed there kept.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Env, Observation, Task } from '../../../../src/core/types.ts';
import { GO_BACK } from '../../../../src/envs/web/actions.ts';
import { closePageHosts } from '../../../../src/envs/web/hosts.ts';
import { act, Page, rowAction } from '../../../../src/envs/web/generated/oracle-tools.ts';
import type { AppData } from '../../../../src/envs/web/generated/index.ts';
import type { FormField, FormsGoal, FormsWorld } from '../../../../src/envs/web/generated/families/forms.ts';
import { dataOf, fewSeeds, fresh, limited } from './generated-play.ts';

afterAll(() => closePageHosts());

const spec = fewSeeds('pretraining', 120);
const tasks = spec.tasks('train');
const find = (test: (data: AppData) => boolean): Task => {
  const task = tasks.find((t) => test(dataOf(t)));
  if (!task) throw new Error('no instance of that kind among the first 120 seeds');
  return fresh(task);
};
const goalOf = <G>(data: AppData): G => data.goal as G;

async function step(env: Env, action: string): Promise<{ observation: Observation; done: boolean; won: boolean }> {
  const result = await env.step(action);
  expect(result.info.valid, `${action}: ${result.info.explanation ?? ''}`).toBe(true);
  return { observation: result.observation, done: result.done, won: result.info.won };
}

describe('a generated page', () => {
  it('ends the episode lost on a commit the goal does not ask for', async () => {
    const env = limited(spec);
    // Opening another record of a table than the one asked for.
    const table = find((d) => d.family === 'tables' && goalOf<{ kind: string }>(d).kind === 'named' && d.style === 'native' && (d.world as { opener: string }).opener === 'button');
    const target = goalOf<{ key: string }>(dataOf(table)).key;
    let page = new Page(await env.reset(table));
    const other = page.where((name) => name.startsWith('Open ') && name !== `Open ${target}`);
    expect(await step(env, act(other))).toMatchObject({ done: true, won: false });
    // Deleting another record than the one asked for, after its confirmation.
    const dialogs = find((d) => d.family === 'dialogs' && goalOf<{ kind: string }>(d).kind === 'delete' && d.world !== null && (d.world as { announcement: unknown }).announcement === null && d.style === 'divs');
    const keep = goalOf<{ keys: string[] }>(dataOf(dialogs)).keys;
    page = new Page(await env.reset(dialogs));
    const victim = (dataOf(dialogs).world as { items: string[] }).items.find((k) => !keep.includes(k)) as string;
    page = new Page((await step(env, act(rowAction(page, victim, 'Delete')))).observation);
    expect(page.headings()).toContain(`Delete ${victim}?`);
    expect(await step(env, act(page.find('Delete')))).toMatchObject({ done: true, won: false });
    // Saving settings with none of the asked-for changes.
    const settings = find((d) => d.family === 'settings' && (d.world as { save: string }).save === 'button');
    page = new Page(await env.reset(settings));
    expect(await step(env, act(page.find('Save changes')))).toMatchObject({ done: true, won: false });
    await env.close?.();
  });

  it('keeps a form with a required field empty open, and says which', async () => {
    const env = limited(spec);
    const form = find((d) => d.family === 'forms' && d.style === 'aria' && (d.world as { steps: { fields: { required: boolean; label: string }[] }[] }).steps[0]?.fields.some((f) => f.required) === true);
    const world = dataOf(form).world as { steps: { fields: { required: boolean; label: string }[] }[]; submit: string };
    const page = new Page(await env.reset(form));
    const button = page.find(world.steps.length > 1 ? 'Next' : world.submit);
    const after = await step(env, act(button));
    expect(after.done).toBe(false);
    const required = world.steps[0]?.fields.find((f) => f.required)?.label;
    expect(after.observation.text).toContain(`alert: ${required} is required.`);
    await env.close?.();
  });

  for (const nav of ['routes', 'pages'] as const) {
    it(`goes back to the page before when its pages are ${nav}, what was typed there kept`, async () => {
      const env = limited(spec);
      // A wizard whose first step asks for a value to type.
      const form = find((d) => {
        if (d.family !== 'forms') return false;
        const world = d.world as FormsWorld;
        const first = world.steps[0]?.fields[0];
        return d.nav === nav && world.steps.length > 1 && first !== undefined && ['text', 'email'].includes(first.kind) && goalOf<FormsGoal>(d).values[first.label] !== undefined;
      });
      const data = dataOf(form);
      const world = data.world as FormsWorld;
      const field = world.steps[0]?.fields[0] as FormField;
      const typed = goalOf<FormsGoal>(data).values[field.label] as string;
      const oracle = spec.createOracle();
      let observation = await env.reset(form);
      oracle.reset(form, observation);
      const first = new Page(observation).headings()[1];
      // The oracle fills the first step and goes on to the second.
      for (let i = 0; i < 12 && new Page(observation).headings()[1] === first; i++) observation = (await step(env, oracle.act(observation))).observation;
      expect(new Page(observation).headings()[1]).toMatch(/^Step 2 of /);
      const back = new Page((await step(env, GO_BACK)).observation);
      expect(back.headings()[1]).toBe(first);
      expect(back.find(field.label, ['textbox'])?.value).toBe(typed);
      await env.close?.();
    });
  }
});
