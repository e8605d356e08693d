/**
 * Shared set-up for the household tests: find tasks by what they ask, start an episode with the
 * world it was built from (a pure function of the goal, so tests can look inside), and drive it.
 */
import type { Env } from '../../../src/core/types.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { expect } from 'vitest';
import { headerValue, parseState } from '../../../src/core/state.ts';
import type { Agent, Observation, StepResult, Task } from '../../../src/core/types.ts';
import { runEpisode } from '../../../src/envs/episode.ts';
import type { EnvOptions } from '../../../src/envs/spec.ts';
import type { HomeGoal, TaskType } from '../../../src/envs/home/goal.ts';
import { homeTasks } from '../../../src/envs/home/tasks.ts';
import { buildWorld, type World } from '../../../src/envs/home/world.ts';

export function goalOf(task: Task): HomeGoal {
  return task.goal as HomeGoal;
}

export function tasksWhere(split: string, test: (goal: HomeGoal, task: Task) => boolean): Task[] {
  return homeTasks(split).filter((t) => test(goalOf(t), t));
}

export function firstTask(split: string, test: (goal: HomeGoal, task: Task) => boolean): Task {
  const task = tasksWhere(split, test)[0];
  if (!task) throw new Error(`no ${split} task matches`);
  return task;
}

export function ofType(type: TaskType): (goal: HomeGoal) => boolean {
  return (goal) => goal.type === type;
}

export interface Episode {
  env: Env;
  world: World;
  goal: HomeGoal;
  first: Observation;
  last: Observation;
  /** Step a command that must be admissible; returns the result. */
  step(command: string): Promise<StepResult>;
  /** Step anything; returns the result. */
  raw(command: string): Promise<StepResult>;
}

export async function start(task: Task, options: EnvOptions = {}): Promise<Episode> {
  const env = envSpec('home').createEnv(options);
  const first = await env.reset(task);
  const episode: Episode = {
    env,
    world: buildWorld(goalOf(task)),
    goal: goalOf(task),
    first,
    last: first,
    async raw(command) {
      const result = await env.step(command);
      episode.last = result.observation;
      return result;
    },
    async step(command) {
      expect(episode.last.actions, `"${command}" should be admissible`).toContain(command);
      const result = await episode.raw(command);
      expect(result.info.valid).toBe(true);
      return result;
    },
  };
  return episode;
}

export function recName(world: World, rec: number): string {
  return (world.layout.receptacles[rec] as { name: string }).name;
}

export function objIndex(world: World, name: string): number {
  const i = world.objects.findIndex((o) => o.name === name);
  if (i < 0) throw new Error(`no object ${name}`);
  return i;
}

/** Where an object starts. */
export function hostName(world: World, obj: number): string {
  return recName(world, world.hosts[obj] as number);
}

export function isOpenable(world: World, rec: number): boolean {
  return (world.layout.receptacles[rec] as { openable: boolean }).openable;
}

/** Names of the objects that start in a receptacle, in listing order. */
export function startContents(world: World, rec: number): string[] {
  return world.objects.flatMap((o, i) => (world.hosts[i] === rec ? [o.name] : []));
}

export function recIndex(world: World, name: string): number {
  const i = world.layout.receptacles.findIndex((r) => r.name === name);
  if (i < 0) throw new Error(`no receptacle ${name}`);
  return i;
}

/** Go to where the object lies, open its receptacle if needed, pick it up. */
export async function fetch(ep: Episode, obj: number): Promise<StepResult> {
  const host = ep.world.hosts[obj] as number;
  await ep.step(`go to ${recName(ep.world, host)}`);
  if (isOpenable(ep.world, host)) await ep.step(`open ${recName(ep.world, host)}`);
  return ep.step(`take ${(ep.world.objects[obj] as { name: string }).name} from ${recName(ep.world, host)}`);
}

export function header(observation: Observation, key: string): string | undefined {
  return headerValue(parseState(observation.text), key);
}

export interface Outcome {
  won: boolean;
  steps: number;
  transcript: string[];
}

/** Play one episode to the end. */
export async function play(env: Env, agent: Agent, task: Task): Promise<Outcome> {
  const record = await runEpisode(env, agent, task);
  const transcript = [record.first.text];
  for (const { action, result } of record.steps) transcript.push(`> ${action}`, result.observation.text);
  return { won: record.won, steps: record.steps.length, transcript };
}
