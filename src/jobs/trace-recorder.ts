/**
 * Recording a rollout as a trace (trace-report.ts), as wrappers around what the rollout already
 * plays, after Gymnasium's RecordVideo: `spec` gives envs that record every state, picture, action
 * and reward of the episodes they play, and `actor` a policy that remembers the probabilities it
 * chose with. The rollout itself (its tasks, its lanes, its digests) is the same with or without it.
 *
 * A trace is bounded, so that a long rollout cannot fill a disk: at most `episodes` episodes (the
 * first ones begun, in task order), `stepsPerEpisode` steps of each and `steps` in all, and
 * `pictureBytes` of pictures; what it left out is counted and said in the report.
 */
import { errorMessage } from '../core/errors.ts';
import type { Env, Observation, StepResult, Task } from '../core/types.ts';
import type { EnvSpec } from '../envs/spec.ts';
import type { Actor } from '../policy/policy.ts';
import { tracedChoice, UNSCORED_CHOICE, type TracedChoice, type TracedEpisode, type TracePicture, type TraceReport } from './trace-report.ts';

export interface TraceLimits {
  episodes: number;
  stepsPerEpisode: number;
  steps: number;
  pictureBytes: number;
}

export const TRACE_LIMITS: TraceLimits = { episodes: 50, stepsPerEpisode: 100, steps: 1_000, pictureBytes: 32 * 1024 * 1024 };

const MIB = 1024 * 1024;

/** The env's picture now (a web page's screenshot); undefined where it shows none, and why where taking one failed. */
export async function envPicture(env: Env): Promise<TracePicture | undefined> {
  try {
    const png = await env.screenshot?.();
    return png ? { png } : undefined;
  } catch (error) {
    return { missing: errorMessage(error) };
  }
}

export class TraceRecorder {
  readonly episodes: TracedEpisode[] = [];
  private untraced = 0;
  private steps = 0;
  private untracedSteps = 0;
  private pictureBytes = 0;
  private picturesLeftOut = 0;
  /**
   * The policy's choice for each observation it was shown. A rollout hands the policy the very
   * observation its env returned (rl/rollout.ts), so the traced env finds the choice behind the
   * action it is asked to take by the observation it gave.
   */
  private readonly choices = new WeakMap<Observation, { action: string; choice: TracedChoice }>();

  constructor(readonly limits: TraceLimits = TRACE_LIMITS) {}

  /** Episodes begun after the trace was full: played, not traced. */
  get untracedEpisodes(): number {
    return this.untraced;
  }

  /** `spec`, whose envs record the episodes they play. */
  spec(spec: EnvSpec): EnvSpec {
    return { ...spec, createEnv: (options) => new TracedEnv(spec.createEnv(options), this) };
  }

  /** `policy`, remembering the probability of every candidate it chose among. */
  actor(policy: Actor): Actor {
    return {
      act: async (inputs, options) => {
        const choices = await policy.act(inputs, options);
        choices.forEach((choice, i) => {
          const input = inputs[i];
          if (!input) return;
          const scored = choice.candidates.map((action, k) => ({ action, probability: Math.exp(choice.logProbs[k] as number) }));
          this.choices.set(input.observation, { action: choice.action, choice: tracedChoice(choice.action, scored) });
        });
        return choices;
      },
    };
  }

  /** The report of what was recorded; `probabilityNote` where the policy gives no probabilities. */
  report(about: { env: string; policy: string; split: string; probabilityNote?: string }): TraceReport {
    const notes: string[] = [];
    const { limits } = this;
    if (this.untraced > 0) {
      notes.push(`The trace keeps the first ${limits.episodes} episodes: ${this.untraced} more were played (they count in the rollout's figures) and not traced.`);
    }
    if (this.untracedSteps > 0) {
      notes.push(`${this.untracedSteps} steps were played and not traced: the trace keeps at most ${limits.stepsPerEpisode} steps of an episode and ${limits.steps} in all.`);
    }
    if (this.picturesLeftOut > 0) notes.push(`${this.picturesLeftOut} pictures were left out: the trace keeps at most ${limits.pictureBytes / MIB} MiB of pictures.`);
    return { ...about, episodes: this.episodes, notes, createdAt: new Date().toISOString() };
  }

  /** A new episode to record, or null when the trace already holds all it keeps. */
  begin(task: Task, first: Observation): TracedEpisode | null {
    if (this.episodes.length >= this.limits.episodes) {
      this.untraced++;
      return null;
    }
    const episode: TracedEpisode = { index: this.episodes.length, taskId: task.id, instruction: task.instruction, steps: [], untracedSteps: 0, last: { state: first.text }, outcome: null };
    this.episodes.push(episode);
    return episode;
  }

  /** Whether the trace has room for another step of `episode`. */
  hasRoom(episode: TracedEpisode): boolean {
    return episode.steps.length < this.limits.stepsPerEpisode && this.steps < this.limits.steps;
  }

  /** Whether the trace keeps another step of `episode`; a step it does not keep is counted. */
  keepsStep(episode: TracedEpisode): boolean {
    if (this.hasRoom(episode)) {
      this.steps++;
      return true;
    }
    episode.untracedSteps++;
    this.untracedSteps++;
    return false;
  }

  /** The env's picture now, within the trace's budget; undefined where the env shows none. */
  async picture(env: Env): Promise<TracePicture | undefined> {
    if (!env.screenshot) return undefined;
    if (this.pictureBytes >= this.limits.pictureBytes) {
      this.picturesLeftOut++;
      return { missing: `left out: the trace already holds ${this.limits.pictureBytes / MIB} MiB of pictures` };
    }
    const picture = await envPicture(env);
    if (picture && 'png' in picture) this.pictureBytes += picture.png.length;
    return picture;
  }

  /** What the policy chose `action` with, where it was a policy that says (null: a scripted one). */
  choiceFor(observation: Observation, action: string): TracedChoice {
    const known = this.choices.get(observation);
    return known && known.action === action ? known.choice : UNSCORED_CHOICE;
  }
}

/** An env that records its episodes into a trace while the trace keeps them. */
class TracedEnv implements Env {
  private episode: TracedEpisode | null = null;
  private observation: Observation | null = null;
  private seen: TracePicture | undefined;
  private total = 0;

  constructor(
    private readonly inner: Env,
    private readonly recorder: TraceRecorder,
  ) {}

  get name(): string {
    return this.inner.name;
  }

  async reset(task: Task): Promise<Observation> {
    const observation = await this.inner.reset(task);
    this.episode = this.recorder.begin(task, observation);
    this.observation = observation;
    this.total = 0;
    this.seen = this.episode ? await this.recorder.picture(this.inner) : undefined;
    return observation;
  }

  async step(action: string): Promise<StepResult> {
    const result = await this.inner.step(action);
    const episode = this.episode;
    const before = this.observation;
    this.observation = result.observation;
    this.total += result.reward;
    if (!episode || !before) return result;
    if (this.recorder.keepsStep(episode)) {
      const explanation = result.info.explanation;
      episode.steps.push({
        state: before.text,
        actions: before.actions,
        ...(this.seen ? { picture: this.seen } : {}),
        action,
        choice: this.recorder.choiceFor(before, action),
        reward: result.reward,
        valid: result.info.valid,
        ...(typeof explanation === 'string' ? { explanation } : {}),
      });
    }
    // The picture of the state the step led to: the next step's (where the trace keeps it), or the episode's last.
    this.seen = result.done || this.recorder.hasRoom(episode) ? await this.recorder.picture(this.inner) : undefined;
    episode.last = { state: result.observation.text, ...(this.seen ? { picture: this.seen } : {}) };
    if (result.done) {
      const envError = result.info.error;
      episode.outcome = { won: result.info.won, totalReward: this.total, truncated: result.info.truncated, ...(typeof envError === 'string' ? { envError } : {}) };
      this.episode = null;
    }
    return result;
  }

  truncate(): void {
    this.inner.truncate?.();
  }

  async close(): Promise<void> {
    await this.inner.close?.();
  }

  screenshot(): Promise<Uint8Array | null> {
    return this.inner.screenshot?.() ?? Promise.resolve(null);
  }
}
