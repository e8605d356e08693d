import { describe, expect, it } from 'vitest';
import type { Task } from '../../../src/core/types.ts';
import { Rng } from '../../../src/core/rng.ts';
import { expandActions } from '../../../src/core/queries.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { KnnExperienceModel, adaptToTask } from '../../../src/experience/knn.ts';
import { SyntheticWorld } from '../../../src/experience/synthetic-env.ts';
import type { ExperienceInput, ExperienceModel, ExperiencePrediction } from '../../../src/experience/types.ts';
import { emptyStats } from '../../../src/experience/types.ts';
import { seededBuffer } from './fixtures.ts';

/** Counts the batches it is asked for, then answers as kNN does. */
class CountingModel implements ExperienceModel {
  readonly name = 'counting-knn';
  readonly batches: number[] = [];
  private readonly knn = new KnnExperienceModel();
  async predict(batch: readonly ExperienceInput[]): Promise<ExperiencePrediction[]> {
    this.batches.push(batch.length);
    return this.knn.predict(batch);
  }
  stats() {
    return emptyStats();
  }
}

describe('the synthetic environment over kNN', () => {
  const spec = envSpec('shop');
  const tasks = spec.tasks('train').slice(0, 4) as Task[];

  it('steps lanes in one batch, retrieves real examples, and writes synthetic transitions back', async () => {
    const buffer = await seededBuffer('shop', 40);
    const realBefore = await buffer.store.count({ source: 'real' });
    const model = new CountingModel();
    const starter = spec.createEnv();
    const world = new SyntheticWorld({ env: 'shop', model, buffer, k: 3, runId: 'test', initialObservation: (t) => starter.reset(t) });
    const envs = tasks.map(() => world.createEnv());
    const firsts = [];
    for (const [i, env] of envs.entries()) firsts.push(await env.reset(tasks[i] as Task));
    const results = await Promise.all(envs.map((env, i) => env.step(`search[${(tasks[i] as Task).instruction.split(' ').slice(3, 6).join(' ')}]`)));
    expect(model.batches).toEqual([4]);
    for (const [i, r] of results.entries()) {
      expect(r.info.valid).toBe(true);
      expect(r.observation.text).toMatch(/^page: results/);
      // The neighbour's instruction is replaced by this task's.
      expect(r.observation.text).toContain(`instruction: ${(tasks[i] as Task).instruction}`);
      expect(r.observation.actions.length).toBeGreaterThan(0);
      expect(String(r.info.reasoning)).toMatch(/^kNN: copied the outcome of the most similar real transition/);
    }
    expect(await buffer.store.count({ source: 'real' })).toBe(realBefore);
    const synthetic = await buffer.store.page({ filter: { source: 'synthetic' }, limit: 10 });
    expect(synthetic.items).toHaveLength(4);
    expect(synthetic.items[0]).toMatchObject({ source: 'synthetic', env: 'shop', runId: 'test', history: [], state: firsts[0] });
    expect(world.stats()).toMatchObject({ steps: 4, episodes: 4, writtenBack: 4, inadmissibleActions: 0 });
  });

  it('ends the episode in the failure state, without asking the model, for an action that is not admissible', async () => {
    const model = new CountingModel();
    const starter = spec.createEnv();
    const world = new SyntheticWorld({ env: 'shop', model, buffer: null, runId: 'test', initialObservation: (t) => starter.reset(t) });
    const env = world.createEnv();
    await env.reset(tasks[0] as Task);
    const result = await env.step('click[Buy Now]');
    expect(result).toMatchObject({ reward: 0, done: true, info: { valid: false, won: false } });
    expect(result.observation.text).toMatch(/^status: failure\nreason: "click\[Buy Now\]" is not an admissible action here/);
    expect(model.batches).toEqual([]);
    await expect(env.step('search[x]')).rejects.toThrow(/after the episode ended/);
    await expect(world.createEnv().step('search[x]')).rejects.toThrow(/before reset/);
  });

  it('counts an ending as a success by the model\'s own call, else by a reward within the tolerance of 1', async () => {
    /** Ends every episode at once with the reward and success call it is given. */
    class EndingModel implements ExperienceModel {
      readonly name = 'ending';
      constructor(private readonly ending: { reward: number; won?: boolean }) {}
      async predict(batch: readonly ExperienceInput[]): Promise<ExperiencePrediction[]> {
        return batch.map(() => ({ reasoning: '', next: { text: 'page: done', actions: [] }, done: true, valid: true, ...this.ending }));
      }
      stats() {
        return emptyStats();
      }
    }
    const starter = spec.createEnv();
    const ending = async (e: { reward: number; won?: boolean }) => {
      const world = new SyntheticWorld({ env: 'shop', model: new EndingModel(e), buffer: null, runId: 'test', initialObservation: (t) => starter.reset(t) });
      const env = world.createEnv();
      await env.reset(tasks[0] as Task);
      return (await env.step('search[anything]')).info.won;
    };
    // A neural model's calibrated call (its fit found 0.9 separates real successes from the rest).
    expect(await ending({ reward: 0.91, won: true })).toBe(true);
    expect(await ending({ reward: 0.97, won: false })).toBe(false);
    // A model that makes no call: within REWARD_TOLERANCE of 1, as the fidelity scores it.
    expect(await ending({ reward: 0.96 })).toBe(true);
    expect(await ending({ reward: 0.9 })).toBe(false);
  });

  it('without a similar real transition, kNN gives the failure state rather than inventing one', async () => {
    const starter = spec.createEnv();
    const world = new SyntheticWorld({ env: 'shop', model: new KnnExperienceModel(), buffer: null, runId: 'test', initialObservation: (t) => starter.reset(t) });
    const env = world.createEnv();
    await env.reset(tasks[1] as Task);
    const result = await env.step('search[anything]');
    expect(result).toMatchObject({ reward: 0, done: true, info: { valid: false } });
    expect(result.observation.text).toMatch(/no similar real transition in the buffer/);
    expect(world.stats().modelFailures).toBe(1);
  });

  it('truncates an episode at the real environment\'s step limit', async () => {
    const loop: ExperienceModel = {
      name: 'loop',
      stats: emptyStats,
      predict: async (batch) => batch.map((input) => ({ reasoning: 'same page', next: input.state, reward: 0, done: false, valid: true })),
    };
    const starter = spec.createEnv();
    const world = new SyntheticWorld({ env: 'shop', model: loop, buffer: null, runId: 'test', initialObservation: (t) => starter.reset(t), maxSteps: 3 });
    const env = world.createEnv();
    await env.reset(tasks[2] as Task);
    const steps = [await env.step('search[a]'), await env.step('search[b]'), await env.step('search[c]')];
    expect(steps.map((s) => s.done)).toEqual([false, false, true]);
    expect(steps[2]?.info.truncated).toBe(true);
  });

  it('adapts a neighbour\'s next state to the current task, leaving other states alone', () => {
    expect(adaptToTask({ text: 'page: item\ninstruction: old words\n[1] button: Buy Now', actions: ['click[Buy Now]'] }, 'new words').text).toBe('page: item\ninstruction: new words\n[1] button: Buy Now');
    const failure = { text: 'not a state', actions: [] };
    expect(adaptToTask(failure, 'new')).toBe(failure);
  });
});

describe('the synthetic environment: what the model gets and what it may leave', () => {
  const spec = envSpec('shop');
  const task = spec.tasks('train')[0] as Task;

  /** Answers every step with a page that lists no action, not done; remembers the examples it saw. */
  class DeadEndModel implements ExperienceModel {
    readonly name = 'dead-end';
    readonly seen: ExperienceInput[] = [];
    async predict(batch: readonly ExperienceInput[]): Promise<ExperiencePrediction[]> {
      this.seen.push(...batch);
      return batch.map(() => ({ reasoning: 'nowhere to go', next: { text: 'page: results\n[1] text: nothing', actions: [] }, reward: 0.25, done: false, valid: true }));
    }
    stats() {
      return emptyStats();
    }
  }

  it('ends the episode at a predicted state with no admissible action, keeps its reward, and counts it', async () => {
    const model = new DeadEndModel();
    const starter = spec.createEnv();
    const world = new SyntheticWorld({ env: 'shop', model, buffer: null, runId: 'dead', initialObservation: (t) => starter.reset(t) });
    const env = world.createEnv();
    await env.reset(task);
    const result = await env.step('search[shoes]');
    expect(result).toMatchObject({ done: true, reward: 0.25, info: { valid: true, truncated: false } });
    expect(world.stats().deadEnds).toBe(1);
  });

  it('ends the episode where every admissible action is a template the instruction fills with nothing', async () => {
    // A web page whose one field is a text box: the policy chooses among the fills the instruction
    // proposes, and a request that quotes no value proposes none (no Chromium: the pages are the test's).
    const web = envSpec('web');
    const task = { ...(web.tasks('train')[0] as Task), instruction: 'Reply to the latest message' };
    expect(expandActions({ text: 'title: Reply', actions: ['type[#7 Reply | ...]'] }, task.instruction, web.proposeQueries)).toEqual([]);
    const field = (actions: string[]): ExperienceModel => ({
      name: 'one-field',
      async predict(batch) {
        return batch.map(() => ({ reasoning: '', next: { text: 'title: Reply\n[7] textbox "Reply"', actions }, reward: 0, done: false, valid: true }));
      },
      stats: emptyStats,
    });
    const play = async (actions: string[], instruction: string) => {
      const world = new SyntheticWorld({ env: 'web', model: field(actions), buffer: null, runId: 'field', initialObservation: async () => ({ text: 'title: Inbox', actions: ['click[#1 Reply]'] }) });
      const env = world.createEnv();
      await env.reset({ ...task, instruction });
      return { result: await env.step('click[#1 Reply]'), deadEnds: world.stats().deadEnds };
    };
    expect(await play(['type[#7 Reply | ...]'], task.instruction)).toMatchObject({ result: { done: true, info: { valid: true } }, deadEnds: 1 });
    // The same page goes on where the instruction names a value to type, or beside something to click.
    expect(await play(['type[#7 Reply | ...]'], 'Reply "see you at noon" to the latest message')).toMatchObject({ result: { done: false }, deadEnds: 0 });
    expect(await play(['type[#7 Reply | ...]', 'click[#8 Send]'], task.instruction)).toMatchObject({ result: { done: false }, deadEnds: 0 });
  });

  it('pays nothing before the end where the real environment rewards only the end, and counts what it withheld', async () => {
    // A model that leaks a little reward on every step and ends the episode on a purchase.
    const leaky: ExperienceModel = {
      name: 'leaky',
      async predict(batch) {
        return batch.map((input) => {
          const buys = input.action.startsWith('click[buy');
          return { reasoning: '', next: { text: 'page: results\n[1] text: something', actions: ['click[buy now]', 'click[back to search]'] }, reward: buys ? 0.8 : 0.03, done: buys, valid: true };
        });
      },
      stats: () => emptyStats(),
    };
    expect(spec.rewardsAtEnd).toBe(true);
    const starter = spec.createEnv();
    const world = new SyntheticWorld({ env: 'shop', model: leaky, buffer: null, runId: 'leak', initialObservation: (t) => starter.reset(t) });
    const env = world.createEnv();
    await env.reset(task);
    expect(await env.step('search[shoes]')).toMatchObject({ reward: 0, done: false });
    expect(await env.step('click[back to search]')).toMatchObject({ reward: 0, done: false });
    expect(await env.step('click[buy now]')).toMatchObject({ reward: 0.8, done: true });
    expect(world.stats().rewardsBeforeEnd).toBe(2);
  });

  it('imagining, hands the model its draws; where the environment pays only 0 or 1 and its dream rounds (home), rounds a fractional end reward to the likelier', async () => {
    const home = envSpec('home');
    expect(home.binaryReward).toBe(true);
    expect(spec.binaryReward).not.toBe(true);
    const given: (() => number)[] = [];
    // Ends every episode at its first step with the reward it is told.
    const ending = (reward: number): ExperienceModel => ({
      name: 'ending',
      async predict(batch, options) {
        if (options?.random) given.push(options.random);
        return batch.map(() => ({ reasoning: '', next: { text: 'location: sofa 1\nfeedback: done', actions: ['look'] }, reward, done: true, valid: true }));
      },
      stats: () => emptyStats(),
    });
    const rng = new Rng('draws');
    const paid = async (env: string, reward: number, random?: () => number): Promise<{ reward: number; rounded: number }> => {
      const envSpecOf = envSpec(env);
      const starter = envSpecOf.createEnv();
      const world = new SyntheticWorld({ env, model: ending(reward), buffer: null, runId: 'round', ...(random ? { random } : {}), initialObservation: (t) => starter.reset(t) });
      const synthetic = world.createEnv();
      await synthetic.reset(envSpecOf.tasks('train')[0] as Task);
      const result = await synthetic.step(env === 'home' ? 'look' : 'search[shoes]');
      return { reward: result.reward, rounded: world.stats().rewardsRounded };
    };
    expect(await paid('home', 0.3)).toEqual({ reward: 0, rounded: 1 });
    expect(await paid('home', 0.7, () => rng.next())).toEqual({ reward: 1, rounded: 1 });
    expect(await paid('home', 1)).toEqual({ reward: 1, rounded: 0 });
    // The shop pays fractions (a purchase's attribute score): they are paid as they are.
    expect(await paid('shop', 0.3)).toEqual({ reward: 0.3, rounded: 0 });
    // The web suite pays only 0 or 1 too, but its dream pays the model's doubt as it is (no Chromium:
    // the first page is one the test writes).
    const web = envSpec('web');
    expect(web.binaryReward).toBe(true);
    const world = new SyntheticWorld({ env: 'web', model: ending(0.7), buffer: null, runId: 'web', initialObservation: async () => ({ text: 'title: Inbox', actions: ['click[#1 Star]'] }) });
    const synthetic = world.createEnv();
    await synthetic.reset(web.tasks('train')[0] as Task);
    expect((await synthetic.step('click[#1 Star]')).reward).toBe(0.7);
    expect(world.stats().rewardsRounded).toBe(0);
    // The model is handed draws only when the world imagines.
    expect(given).toHaveLength(1);
  });

  it('without reasoning, hides the examples\' reasoning from the model and returns none', async () => {
    const buffer = await seededBuffer('shop', 20);
    const model = new DeadEndModel();
    const starter = spec.createEnv();
    const world = new SyntheticWorld({ env: 'shop', model, buffer, k: 3, runId: 'plain', reasoning: false, initialObservation: (t) => starter.reset(t) });
    const env = world.createEnv();
    await env.reset(task);
    const result = await env.step('search[shoes]');
    expect(model.seen[0]?.examples.length).toBe(3);
    expect(model.seen[0]?.examples.every((e) => e.reasoning === undefined)).toBe(true);
    expect(result.info.reasoning).toBe('');
    const withReasoning = new DeadEndModel();
    const world2 = new SyntheticWorld({ env: 'shop', model: withReasoning, buffer, k: 3, runId: 'full', initialObservation: (t) => starter.reset(t) });
    const env2 = world2.createEnv();
    await env2.reset(task);
    await env2.step('search[shoes]');
    expect(withReasoning.seen[0]?.examples.some((e) => typeof e.reasoning === 'string' && e.reasoning.length > 0)).toBe(true);
  });
});
