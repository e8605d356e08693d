/**
 * One person's play session with a real environment: list environments and tasks, start an
 * episode, step it by hand, or let the oracle choose the next action. The page calls it through
 * comlink in `workers/env.worker.ts`; tests call the very same class in-process.
 */
import { UsageError, errorMessage } from '../core/errors.ts';
import type { Agent, Env, Observation, StepResult, Task } from '../core/types.ts';
import { ENVIRONMENTS, describeEnv, envSpec, type EnvSummary } from '../envs/registry.ts';
import type { EnvSpec } from '../envs/spec.ts';
import { OpenedSite } from './opened-site.ts';
import { WEB_ENV } from '../envs/web/index.ts';
import { attachPageFrames } from '../envs/web/page-frames.ts';

export type { EnvSummary };

/** A task as the page sees it: the goal stays in the worker, as it would stay inside a real site. */
export interface PublicTask {
  id: string;
  env: string;
  instruction: string;
  difficulty: number;
  origin: Task['origin'];
}

export interface EpisodeStart {
  task: PublicTask;
  split: string;
  index: number;
  observation: Observation;
}

export interface PlayedStep {
  action: string;
  result: StepResult;
}

/** The task without its goal, for anything that leaves the worker. */
export function publicTask(task: Task): PublicTask {
  return { id: task.id, env: task.env, instruction: task.instruction, difficulty: task.difficulty, origin: task.origin };
}

/** Task `index` of an env's split; a UsageError that gives the valid range otherwise. */
export function taskAt(envName: string, split: string, index: number): Task {
  const tasks = envSpec(envName).tasks(split);
  if (!Number.isInteger(index) || index < 0 || index >= tasks.length) {
    throw new UsageError(`task number must be between 0 and ${tasks.length - 1} for ${envName}/${split}`);
  }
  return tasks[index] as Task;
}

export class EnvSession {
  private env: Env | null = null;
  private oracle: Agent | null = null;
  private last: Observation | null = null;
  private done = false;
  private envSpec: EnvSpec | null = null;
  private noOracle: string | null = null;
  private readonly opened = new OpenedSite();

  /** The page's frames, where web pages live (the app attaches them when it starts this worker). */
  attachPages(port: MessagePort): void {
    attachPageFrames(port);
  }

  /**
   * A folder the person opened becomes the `web` environment (`OpenedSite`). Answers the site's
   * name (the page keeps its files under it) and the environment as the env list shows it.
   */
  openSite(json: unknown, files: readonly string[], folder: string): { site: string; env: EnvSummary } {
    const site = this.opened.open(json, files, folder);
    return { site, env: describeEnv(envSpec(WEB_ENV)) };
  }

  /** The bundled suite is the `web` environment again. */
  closeSite(): void {
    this.opened.close();
  }

  listEnvs(): EnvSummary[] {
    return ENVIRONMENTS.map(describeEnv);
  }

  listTasks(envName: string, split: string, offset = 0, limit = 50): { total: number; tasks: PublicTask[] } {
    const tasks = envSpec(envName).tasks(split);
    return { total: tasks.length, tasks: tasks.slice(offset, offset + limit).map(publicTask) };
  }

  async start(envName: string, split: string, index: number): Promise<EpisodeStart> {
    const spec = envSpec(envName);
    const task = taskAt(envName, split, index);
    // One env per environment, kept from episode to episode (a web env keeps its page's frame).
    if (this.envSpec !== spec) {
      await this.env?.close?.();
      this.env = spec.createEnv();
      this.envSpec = spec;
    }
    const env = this.env as Env;
    const observation = await env.reset(task);
    // A site a person brings has no oracle: the episode plays on, and asking for one says why.
    this.oracle = null;
    this.noOracle = null;
    try {
      const oracle = spec.createOracle();
      oracle.reset(task, observation);
      this.oracle = oracle;
    } catch (error) {
      this.noOracle = errorMessage(error);
    }
    this.last = observation;
    this.done = false;
    return { task: publicTask(task), split, index, observation };
  }

  async step(action: string): Promise<PlayedStep> {
    if (!this.env || !this.last) throw new UsageError('start an episode first');
    if (this.done) throw new UsageError('the episode is over; start another one');
    const result = await this.env.step(action);
    if (result.info.valid) this.last = result.observation;
    this.done = result.done;
    return { action, result };
  }

  /**
   * The oracle's next action from the current state. The household oracle plans from the start of
   * the episode, so after a person's own moves its advice may not apply; the page restarts the
   * episode when a person asks to watch the oracle.
   */
  oracleAction(): string {
    if (!this.last) throw new UsageError('start an episode first');
    if (!this.oracle) throw new UsageError(this.noOracle ?? 'start an episode first');
    return this.oracle.act(this.last);
  }

  async oracleStep(): Promise<PlayedStep> {
    return this.step(this.oracleAction());
  }
}
