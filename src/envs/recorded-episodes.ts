/**
 * Envs that keep the episodes they play, whole: every state, the action taken in it, what followed,
 * and the history with its states. `evaluatePolicy` keeps only a policy's actions and rewards;
 * scoring an experience model on a policy's own steps (`experience eval --policy`) needs the states
 * the policy saw, as the model is asked in a dream.
 *
 * Kept as they were played, not played again afterwards: a web page that answers late on a loaded
 * machine can end or change a second play of the same actions, and then the states scored would not
 * be the episode the policy played (after Minari's DataCollector: a wrapper around the envs the
 * rollout already plays, so the rollout itself is unchanged).
 */
import type { Env, Observation, StepResult, Task } from '../core/types.ts';
import { endedByEnv } from './episode.ts';
import type { EnvSpec } from './spec.ts';

/** An earlier step of the episode with the state it was taken in (the experience model's `HistoryStep`). */
export interface HistoryStep {
  state: Observation;
  action: string;
}

export interface RecordedStep {
  state: Observation;
  action: string;
  result: StepResult;
  /** The earlier steps of the episode, each with the state it was taken in. */
  history: HistoryStep[];
}

export interface RecordedEpisode {
  task: Task;
  steps: RecordedStep[];
}

/** `spec`, whose envs record into `episodes` every episode they begin, in the order begun. */
export function recordingSpec(spec: EnvSpec): { spec: EnvSpec; episodes: RecordedEpisode[] } {
  const episodes: RecordedEpisode[] = [];
  return { spec: { ...spec, createEnv: (options) => new RecordingEnv(spec.createEnv(options), episodes) }, episodes };
}

/**
 * The recording of each played episode (a task and its actions), in `played`'s order: lanes finish
 * out of order, and the same task can be played more than once, so each recording is matched once,
 * by its task and its actions. A recording the env ended is never matched: an evaluation plays such
 * an episode again (`retryEnvErrors`), and the failed play can hold the same actions as the one
 * kept. An episode without a recording was not played by `recordingSpec`'s envs.
 */
export function recordingsOf(recorded: readonly RecordedEpisode[], played: readonly { task: Task; steps: readonly { action: string }[] }[]): RecordedEpisode[] {
  // The recordings not yet matched, by task: a search among a task's own plays, not all of them.
  const byTask = new Map<string, RecordedEpisode[]>();
  for (const e of recorded) {
    if (endedByEnv(e)) continue;
    const plays = byTask.get(e.task.id);
    if (plays) plays.push(e);
    else byTask.set(e.task.id, [e]);
  }
  return played.map(({ task, steps }) => {
    const open = byTask.get(task.id) ?? [];
    const at = open.findIndex((e) => e.steps.length === steps.length && e.steps.every((s, i) => s.action === steps[i]?.action));
    if (at < 0) throw new Error(`no recording of the episode of task ${task.id} that was played (${steps.length} steps): was it played by recordingSpec's envs?`);
    return open.splice(at, 1)[0] as RecordedEpisode;
  });
}

class RecordingEnv implements Env {
  private episode: RecordedEpisode | null = null;
  private state: Observation | null = null;

  constructor(
    private readonly inner: Env,
    private readonly episodes: RecordedEpisode[],
  ) {}

  get name(): string {
    return this.inner.name;
  }

  async reset(task: Task): Promise<Observation> {
    const state = await this.inner.reset(task);
    this.episode = { task, steps: [] };
    this.episodes.push(this.episode);
    this.state = state;
    return state;
  }

  async step(action: string): Promise<StepResult> {
    const result = await this.inner.step(action);
    const { episode, state } = this;
    if (episode && state) episode.steps.push({ state, action, result, history: episode.steps.map((s) => ({ state: s.state, action: s.action })) });
    this.state = result.observation;
    return result;
  }

  truncate(): void {
    this.inner.truncate?.();
  }

  async close(): Promise<void> {
    await this.inner.close?.();
  }
}
