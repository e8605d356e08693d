/**
 * Give the event loop one turn. A worker training on wasm or cpu never awaits real I/O, so
 * without this its message port is never read and pause, stop and export wait for the whole run.
 * MessageChannel avoids setTimeout's 4 ms clamp in browsers; Node has setImmediate.
 */
export function yieldToEventLoop(): Promise<void> {
  if (typeof setImmediate === 'function') return new Promise((resolve) => setImmediate(resolve));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

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
