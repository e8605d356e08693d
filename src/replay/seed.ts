/**
 * Offline seeding, as the paper seeds its buffer: real trajectories from an expert (the oracle) and
 * from a random agent, in a chosen mix. The expert shows what success looks like; the random agent
 * covers the mistakes and dead ends a learning policy will make, which the experience model must
 * also predict. The noisy expert and the shop's shopper add the near misses in between.
 */
import { realTransition } from '../core/transition.ts';
import { UsageError } from '../core/errors.ts';
import { excerpt } from '../core/text.ts';
import { Rng } from '../core/rng.ts';
import type { Task, Transition } from '../core/types.ts';
import { closeEnvs, createAgent, envErrorOf, episodeTasks, runEpisodeThroughFailures, SCRIPTED_POLICIES, scriptedPoliciesOf, type EpisodeRecord, type ScriptedPolicy } from '../envs/episode.ts';
import type { EnvOptions, EnvSpec } from '../envs/spec.ts';
import { taskRecord, type ReplayStore } from './store.ts';

export type SeedMix = Partial<Record<ScriptedPolicy, number>>;

/** Parse `oracle=0.6,random=0.4` into weights that sum to 1. */
export function parseMix(text: string): SeedMix {
  const mix: SeedMix = {};
  for (const part of text.split(',')) {
    const [name, value, ...extra] = part.split('=').map((s) => s.trim());
    if (!name || value === undefined || extra.length > 0) throw new UsageError(`--mix must look like oracle=0.6,random=0.4; got ${excerpt(text, 60)}`);
    if (!(SCRIPTED_POLICIES as readonly string[]).includes(name)) {
      throw new UsageError(`--mix names ${excerpt(name, 60)}; the seeding agents are: ${SCRIPTED_POLICIES.join(', ')}`);
    }
    const weight = Number(value);
    if (!Number.isFinite(weight) || weight < 0) throw new UsageError(`--mix weight for ${name} must be a number ≥ 0, got ${excerpt(value, 60)}`);
    if (name in mix) throw new UsageError(`--mix names ${name} twice; give each agent one weight`);
    mix[name as ScriptedPolicy] = weight;
  }
  // Weights near the largest number (1e308) add up to Infinity: they are scaled by the largest first.
  const largest = Math.max(...Object.values(mix));
  if (!(largest > 0)) throw new UsageError(`--mix needs a positive weight, got ${excerpt(text, 60)}`);
  const scale = Number.isFinite(Object.values(mix).reduce((a, b) => a + b, 0)) ? 1 : largest;
  const total = Object.values(mix).reduce((a, b) => a + b / scale, 0);
  for (const key of Object.keys(mix) as ScriptedPolicy[]) mix[key] = (mix[key] as number) / scale / total;
  return mix;
}

/** Which agent plays each episode: exact proportions (largest remainder), in a seeded order. */
export function agentSchedule(mix: SeedMix, episodes: number, rng: Rng): ScriptedPolicy[] {
  const names = (Object.keys(mix) as ScriptedPolicy[]).filter((n) => (mix[n] as number) > 0);
  const exact = names.map((n) => (mix[n] as number) * episodes);
  const counts = exact.map(Math.floor);
  let left = episodes - counts.reduce((a, b) => a + b, 0);
  const byRemainder = names.map((_, i) => i).sort((a, b) => (exact[b] as number) - (counts[b] as number) - ((exact[a] as number) - (counts[a] as number)));
  for (const i of byRemainder) {
    if (left === 0) break;
    counts[i] = (counts[i] as number) + 1;
    left--;
  }
  return rng.shuffle(names.flatMap((n, i) => Array.from({ length: counts[i] as number }, () => n)));
}

export interface SeedOptions {
  spec: EnvSpec;
  episodes: number;
  mix: SeedMix;
  seed: number;
  /** Tasks come from this split (default: the env's first, its training split). */
  split?: string;
  /**
   * At most this many episodes of each of the environment's tasks (`EnvSpec.taskKind`), the tasks
   * taken in turn: a seed of N demonstrations per task, as a team records them.
   */
  perTask?: number;
  runId?: string;
  envOptions?: EnvOptions;
  /** Every transition gets this time (default: now). */
  createdAt?: number;
}

/** The first of a run's episodes the environment ended: its task and the env's error, to say where. */
export interface FirstEnvError {
  taskId: string;
  error: string;
}

/** What a run says of the episodes its environment ended: how many, the first, how many were played again. */
export interface EnvFailures {
  envErrors: number;
  firstEnvError?: FirstEnvError;
  /** Plays a failing page ended that were played again (each episode at most ENV_FAILURE_REPLAYS times), present when any were. */
  retried?: number;
}

/**
 * The tally of a run's episodes as they come, for every job that plays episodes and reports
 * EnvFailures (seeding, held-out play, on-policy play): one place that counts the replays too.
 */
export class EnvFailureTally {
  private envErrors = 0;
  private firstEnvError: FirstEnvError | undefined;
  private retried = 0;

  /** Counts the episode; true where the environment ended it (its steps are the failure's, not the agent's). */
  count(episode: { task: { id: string }; envError?: string | undefined; retried?: number | undefined }): boolean {
    this.retried += episode.retried ?? 0;
    if (episode.envError === undefined) return false;
    this.envErrors++;
    this.firstEnvError ??= { taskId: episode.task.id, error: episode.envError };
    return true;
  }

  /** Plays made again outside an episode's own count (an evaluation reports them for the whole run). */
  addRetried(plays: number): void {
    this.retried += plays;
  }

  summary(): EnvFailures {
    return { envErrors: this.envErrors, ...(this.firstEnvError ? { firstEnvError: this.firstEnvError } : {}), ...(this.retried > 0 ? { retried: this.retried } : {}) };
  }
}

export interface SeededEpisode {
  index: number;
  agent: ScriptedPolicy;
  task: Task;
  won: boolean;
  transitions: Transition[];
  /** What ended the episode where the env failed rather than the agent (a page that stopped answering: the last step's `info.error`). */
  envError?: string;
  /** Plays of it a failing page ended before this one (present when any did). */
  retried?: number;
}

/**
 * `episodes` instances of the split, at most `perTask` of each task: round after round, one
 * instance of every task (tasks and their instances in a seeded order), so any prefix is balanced.
 */
export function tasksPerKind(spec: EnvSpec, split: string, episodes: number, perTask: number, seed: number): Task[] {
  const kindOf = spec.taskKind;
  if (!kindOf) throw new UsageError(`--per-task counts episodes by task, and ${spec.name} has no fixed list of tasks (web has: its site's)`);
  if (!Number.isInteger(perTask) || perTask < 1) throw new UsageError(`--per-task must be a positive integer, got ${perTask}`);
  const all = spec.tasks(split);
  const byKind = new Map<string, Task[]>();
  for (const task of episodeTasks(all, all.length, seed)) {
    const kind = kindOf(task);
    const list = byKind.get(kind) ?? [];
    if (list.length < perTask) list.push(task);
    byKind.set(kind, list);
  }
  const most = [...byKind.values()].reduce((sum, list) => sum + list.length, 0);
  if (episodes > most) throw new UsageError(`--episodes ${episodes} is more than --per-task ${perTask} allows: ${byKind.size} tasks in ${split}, ${most} episodes at most`);
  const kinds = new Rng(`per-task:${seed}`).shuffle([...byKind.keys()].sort());
  const order: Task[] = [];
  for (let round = 0; round < perTask; round++) for (const kind of kinds) {
    const task = byKind.get(kind)?.[round];
    if (task) order.push(task);
  }
  return order.slice(0, episodes);
}

/** A played episode as the real transitions a store keeps, step by step with the history before each. */
export function episodeTransitions(record: EpisodeRecord, runId: string, episodeId: string, createdAt: number): Transition[] {
  const transitions: Transition[] = [];
  let state = record.first;
  record.steps.forEach(({ action, result }, step) => {
    const history = record.steps.slice(0, step).map((s) => s.action);
    transitions.push(realTransition({ runId, episodeId, task: record.task, history, state, action, result, createdAt }));
    state = result.observation;
  });
  return transitions;
}

/** Play the seeding episodes one by one; each yields its transitions, ready for a store or a file. */
export async function* seedEpisodes(options: SeedOptions): AsyncGenerator<SeededEpisode> {
  const { spec, episodes, seed } = options;
  if (!Number.isInteger(episodes) || episodes < 1) throw new UsageError(`--episodes must be a positive integer, got ${episodes}`);
  // An agent this environment lacks is refused before the first episode, not when its turn comes.
  const lacking = (Object.keys(options.mix) as ScriptedPolicy[]).find((name) => (options.mix[name] ?? 0) > 0 && !scriptedPoliciesOf(spec).includes(name));
  if (lacking) throw new UsageError(`${spec.name} has no ${lacking} agent; its seeding agents are: ${scriptedPoliciesOf(spec).join(', ')}`);
  const split = options.split ?? spec.splits[0]?.name ?? 'train';
  const tasks = options.perTask === undefined ? episodeTasks(spec.tasks(split), episodes, seed) : tasksPerKind(spec, split, episodes, options.perTask, seed);
  const rng = new Rng(`seed-buffer:${spec.name}:${seed}`);
  const schedule = agentSchedule(options.mix, episodes, rng.fork('schedule'));
  const runId = options.runId ?? `seed-${spec.name}-${seed}`;
  const createdAt = options.createdAt ?? Date.now();
  const env = spec.createEnv(options.envOptions);
  // A generator's finally runs when its consumer stops early too (return() on break).
  try {
    for (let i = 0; i < episodes; i++) {
      const agentName = schedule[i] as ScriptedPolicy;
      const task = tasks[i] as Task;
      // Played again while a failing page ends it (the same agent, from the same fork), so a buffer seeded on a loaded machine is the one seeded on an idle one.
      const { record, replayed } = await runEpisodeThroughFailures(env, () => createAgent(spec, agentName, rng.fork(`agent:${i}`)), task);
      const envError = envErrorOf(record);
      yield { index: i, agent: agentName, task, won: record.won, transitions: episodeTransitions(record, runId, `${runId}/${i}`, createdAt), ...(envError !== undefined ? { envError } : {}), ...(replayed > 0 ? { retried: replayed } : {}) };
    }
  } finally {
    await closeEnvs([env]);
  }
}

/**
 * Store what the curriculum reads about seeded episodes: their tasks and outcomes. Call it after
 * their transitions are stored, so statistics never count episodes whose transitions are missing.
 */
export async function recordSeededEpisodes(store: ReplayStore, episodes: readonly SeededEpisode[]): Promise<void> {
  await store.putTasks(episodes.map((e) => taskRecord(e.task, 0)));
  await store.recordOutcomes(episodes.map((e) => ({ taskId: e.task.id, env: e.task.env, won: e.won, return: e.transitions.reduce((a, t) => a + t.reward, 0) })));
}
