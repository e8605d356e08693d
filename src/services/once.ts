/**
 * A start that runs once and is shared by every caller while it runs or after it succeeded, and
 * that forgets a failure, so the next caller tries again (a store that could not open because
 * another tab held an upgrade, a backend that failed to initialise). The services open their
 * stores and backends through it.
 */
export class Once<T> {
  private running: Promise<T> | null = null;

  constructor(private readonly start: () => Promise<T>) {}

  get(): Promise<T> {
    this.running ??= this.start().catch((error: unknown) => {
      this.running = null;
      throw error;
    });
    return this.running;
  }

  /** The next get() starts again (a failure forgets itself; this forgets a success too). */
  forget(): void {
    this.running = null;
  }

  /** The start running or done, if any (to close what it opened). */
  current(): Promise<T> | null {
    return this.running;
  }
}
