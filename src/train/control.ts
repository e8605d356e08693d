import { yieldToEventLoop } from '../core/event-loop.ts';

/** Pause / resume / stop for a long run, checked by the trainer between rounds and iterations. */
export class TrainControl {
  private paused = false;
  private stopped = false;
  private wake: (() => void) | null = null;

  pause(): void {
    if (!this.stopped) this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.wake?.();
    this.wake = null;
  }

  stop(): void {
    this.stopped = true;
    this.resume();
  }

  get isPaused(): boolean {
    return this.paused;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Lets pending messages in, then resolves unless paused; if paused, when resumed or stopped. */
  async checkpoint(): Promise<void> {
    await yieldToEventLoop();
    while (this.paused && !this.stopped) await new Promise<void>((resolve) => (this.wake = resolve));
  }
}
