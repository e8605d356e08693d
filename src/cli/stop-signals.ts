/**
 * How a CLI command stops on Ctrl-C, SIGTERM (what `npm run` passes on) or SIGHUP (a closed
 * terminal). A command that can stop gracefully asks to be told (`whenStopAsked`: `train` finishes
 * its iteration and writes the policy so far; `serve` closes its server); any other command, a
 * second signal, or a graceful stop that takes longer than STOP_DEADLINE_MS ends the process at
 * once: what it started (the web env's Chromium, which runs in a process group of its own and
 * would outlive a killed CLI) is closed first, within CLEANUP_MS, and the exit code is 128 plus
 * the signal's number, as a shell reports a process ended by one. A command whose work a signal
 * cut short (`endsAsStopped`) exits with that code too, once it has written what it finished.
 */
import { constants } from 'node:os';

export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** How long a graceful stop may take before the command is ended anyway (an iteration stuck on a page that never answers). */
export const STOP_DEADLINE_MS = 60_000;
/** How long closing what the command started may take before the process exits regardless. */
const CLEANUP_MS = 5_000;
/** How long a command's last save (`GracefulStop.atDeadline`) may take when the deadline ends it. */
export const LAST_SAVE_MS = 2_000;
/**
 * The same signal again within this time is the same request, not a second one: Ctrl-C in a
 * terminal reaches `npm run` and the command alike, and npm passes its own on to the command too.
 */
export const REPEAT_MS = 1_000;

/** What a command that stops gracefully asks for. */
export interface GracefulStop {
  /** Told of the first signal: finish the work in flight, write what is done, return. */
  stop: (signal: StopSignal) => void;
  /**
   * When the graceful stop passes its deadline: write what can be written at once (a finished
   * iteration's policy), within LAST_SAVE_MS, before the process ends.
   */
  atDeadline?: () => Promise<void>;
}

let graceful: GracefulStop | null = null;
/** The command's last save, until it withdraws (it then writes its results itself). */
let lastSave: (() => Promise<void>) | null = null;
/** The signal that cut the command's work short (`endsAsStopped`). */
let stoppedBy: StopSignal | null = null;

const signalCode = (signal: StopSignal): number => 128 + (constants.signals[signal] ?? 15);

/**
 * Asks to be told of the first stop signal instead of the process ending; returns the function
 * that withdraws the request (call it when the command no longer can stop gracefully).
 */
export function whenStopAsked(request: GracefulStop | ((signal: StopSignal) => void)): () => void {
  const asked = typeof request === 'function' ? { stop: request } : request;
  graceful = asked;
  lastSave = asked.atDeadline ?? null;
  return () => {
    if (graceful === asked) graceful = null;
    if (lastSave === asked.atDeadline) lastSave = null;
  };
}

/**
 * The command's work was cut short by `signal`: once it has written what it finished and returned,
 * the process exits with the signal's code rather than 0, so a script can tell a stopped run from
 * a finished one. A command that fails afterwards keeps its own code.
 */
export function endsAsStopped(signal: StopSignal): void {
  stoppedBy = signal;
}

/** Settles when `work` does or after `ms`, whichever comes first; never rejects. */
const within = (work: () => Promise<void>, ms: number): Promise<unknown> =>
  Promise.race([Promise.resolve().then(work).catch(() => undefined), new Promise((resolve) => setTimeout(resolve, ms).unref())]);

/**
 * Installs the CLI's handlers (once per process). `say` tells the person what happens; `cleanup`
 * closes what the command started; `deadlineMs` is STOP_DEADLINE_MS but where a test waits less.
 */
export function handleStopSignals(say: (line: string) => void, cleanup: () => Promise<void>, deadlineMs = STOP_DEADLINE_MS): void {
  let asked = 0;
  let first: { signal: StopSignal; at: number } | null = null;
  const quit = (signal: StopSignal, why: string, save: (() => Promise<void>) | null = null): void => {
    say(`${why}: quitting now`);
    const code = signalCode(signal);
    const saved = save ? within(save, LAST_SAVE_MS) : Promise.resolve();
    void saved.then(() => within(cleanup, CLEANUP_MS)).finally(() => process.exit(code));
  };
  // Set here, not where main sets it: main answers 0 for a command that returned, stopped or not.
  process.on('exit', () => {
    if (stoppedBy !== null && !process.exitCode) process.exitCode = signalCode(stoppedBy);
  });
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      const now = performance.now();
      if (first !== null && first.signal === signal && now - first.at < REPEAT_MS) return;
      first ??= { signal, at: now };
      asked++;
      const stop = graceful;
      if (asked === 1 && stop !== null) {
        graceful = null;
        stop.stop(signal);
        setTimeout(() => {
          const save = lastSave;
          lastSave = null;
          quit(signal, `the graceful stop did not end in ${deadlineMs / 1000} s`, save);
        }, deadlineMs).unref();
        return;
      }
      quit(signal, asked === 1 ? `stopped (${signal})` : `stopped again (${signal})`);
    });
  }
}
