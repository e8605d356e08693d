/**
 * The episode step limit as a wrapper, after Gymnasium's `TimeLimit`: every env the registry makes,
 * real or synthetic, gets it, so no environment counts its own steps. Every `step` counts, a
 * malformed or inadmissible action included (the agent spent the turn). An episode that reaches
 * the limit without ending is cut off: `done`, `info.truncated`, and the real environments'
 * explanation says so.
 */
import { EnvStateError } from '../core/errors.ts';
import type { Env, Observation, PersonInput, StepResult, Task } from '../core/types.ts';
import { finish } from './explain.ts';

export class StepLimit implements Env {
  private steps = 0;
  /** The limit ended this episode (the inner env does not know it ended). */
  private cut = false;

  constructor(
    readonly inner: Env,
    readonly maxSteps: number,
  ) {
    if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new RangeError(`maxSteps must be a positive integer, got ${maxSteps}`);
  }

  get name(): string {
    return this.inner.name;
  }

  async reset(task: Task): Promise<Observation> {
    const observation = await this.inner.reset(task);
    this.steps = 0;
    this.cut = false;
    return observation;
  }

  /** The inner env lets go of what it holds (a web env's page). */
  async close(): Promise<void> {
    await this.inner.close?.();
  }

  /** What a person did next in the inner env (record); an env nobody acts in has no such input. */
  nextPersonInput(): Promise<PersonInput | null> {
    if (!this.inner.nextPersonInput) return Promise.reject(new EnvStateError(`${this.name}: nobody acts in this env`));
    return this.inner.nextPersonInput();
  }

  /** What the inner env shows (a web page's screenshot); null where it shows nothing. */
  async screenshot(): Promise<Uint8Array | null> {
    return (await this.inner.screenshot?.()) ?? null;
  }

  step(action: string): Promise<StepResult> {
    // A step after the cut-off is the caller's error, as a step after a natural end is.
    if (this.cut) return Promise.reject(new EnvStateError(`${this.name}: the episode is over; call reset(task) to start another`));
    this.steps++;
    // Synchronous up to the inner step: a synthetic env batches the lanes stepped in one tick.
    return this.inner.step(action).then((result) => this.limit(result));
  }

  private limit(result: StepResult): StepResult {
    if (result.done || this.steps < this.maxSteps) return result;
    this.cut = true;
    this.inner.truncate?.();
    const info: StepResult['info'] = { ...result.info, truncated: true };
    if (typeof info.explanation === 'string') info.explanation = finish(info.explanation, true);
    return { ...result, done: true, info };
  }
}

/** `env` with the step limit. */
export function withStepLimit(env: Env, maxSteps: number): StepLimit {
  return new StepLimit(env, maxSteps);
}
