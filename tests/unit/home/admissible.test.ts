import type { Env } from '../../../src/core/types.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/rng.ts';
import { parseState } from '../../../src/core/state.ts';
import type { Observation, Task } from '../../../src/core/types.ts';
import { HomeOracle } from '../../../src/envs/home/agents.ts';
import { TASK_TYPES } from '../../../src/envs/home/goal.ts';
import { goalOf, tasksWhere } from './helpers.ts';

/** Two tasks of each type, so every kind of admissible command shows up. */
function sampleTasks(): Task[] {
  return TASK_TYPES.flatMap((type) => tasksWhere('valid-unseen', (g) => g.type === type).slice(0, 2));
}

/** A mixed trajectory: the oracle's plan interleaved with seeded random admissible commands. */
async function trajectory(task: Task, rng: Rng): Promise<string[]> {
  const env = envSpec('home').createEnv({ maxSteps: 1000 });
  const oracle = new HomeOracle();
  let observation = await env.reset(task);
  oracle.reset(task, observation);
  const commands: string[] = [];
  for (let i = 0; i < 14; i++) {
    const command = i % 2 === 0 ? oracle.act(observation) : rng.pick(observation.actions);
    commands.push(command);
    const result = await env.step(command);
    observation = result.observation;
    if (result.done) break;
  }
  return commands;
}

async function replay(task: Task, commands: readonly string[]): Promise<{ env: Env; observation: Observation }> {
  const env = envSpec('home').createEnv({ maxSteps: 1000 });
  let observation = await env.reset(task);
  for (const command of commands) observation = (await env.step(command)).observation;
  return { env, observation };
}

describe('home admissible commands', () => {
  it('every observation lists distinct admissible commands, including inventory and look', async () => {
    const rng = new Rng('home-admissible-list');
    for (const task of sampleTasks()) {
      const commands = await trajectory(task, rng);
      const env = envSpec('home').createEnv({ maxSteps: 1000 });
      const observations = [await env.reset(task)];
      for (const command of commands) observations.push((await env.step(command)).observation);
      for (const observation of observations) {
        expect(observation.actions.length).toBeGreaterThan(2);
        expect(new Set(observation.actions).size).toBe(observation.actions.length);
        expect(observation.actions).toContain('inventory');
        expect(observation.actions).toContain('look');
        expect(() => parseState(observation.text)).not.toThrow();
      }
    }
  });

  it('every listed command is valid when stepped', async () => {
    const rng = new Rng('home-admissible-valid');
    let checked = 0;
    for (const task of sampleTasks()) {
      const commands = await trajectory(task, rng);
      for (let k = 0; k <= commands.length; k++) {
        const prefix = commands.slice(0, k);
        const { observation } = await replay(task, prefix);
        for (const action of observation.actions) {
          const { env } = await replay(task, prefix);
          const result = await env.step(action);
          expect(result.info.valid, `${task.id} after [${prefix.join('; ')}]: ${action}`).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('the oracle only says admissible commands, and they cover open, take, put, heat, cool, clean and use', async () => {
    const seen = new Set<string>();
    for (const task of sampleTasks()) {
      const env = envSpec('home').createEnv();
      const oracle = new HomeOracle();
      let observation = await env.reset(task);
      oracle.reset(task, observation);
      for (;;) {
        const action = oracle.act(observation);
        // The oracle only ever says what is admissible.
        expect(observation.actions, `${task.id} (${goalOf(task).type})`).toContain(action);
        seen.add(action.split(' ')[0] as string);
        const result = await env.step(action);
        observation = result.observation;
        if (result.done) break;
      }
    }
    expect([...seen].sort()).toEqual(['clean', 'cool', 'go', 'heat', 'open', 'put', 'take', 'use']);
  });
});
