/**
 * How a CLI command stops on Ctrl-C, SIGTERM (what `npm run` passes on) or SIGHUP (a closed
 * terminal). A command that can stop gracefully asks to be told (`whenStopAsked`: `train` finishes
 * its iteration and writes the policy so far; `serve` closes its server); any other command, a
 * second signal, or a graceful stop that takes longer than STOP_DEADLINE_MS ends the process at
 * once: what it started (the web env's Chromium, which runs in a process group of its own and
 * would outlive a killed CLI) is closed first, within CLEANUP_MS, and the exit code is 128 plus
 * the signal's number, as a shell reports a process ended by one.
 */
import { constants } from 'node:os';

export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type StopSignal = (typeof STOP_SIGNALS)[number];

/** How long a graceful stop may take before the command is ended anyway (an iteration stuck on a page that never answers). */
export const STOP_DEADLINE_MS = 60_000;
/** How long closing what the command started may take before the process exits regardless. */
const CLEANUP_MS = 5_000;

let graceful: ((signal: StopSignal) => void) | null = null;

/**
 * Asks to be told of the first stop signal instead of the process ending; returns the function
 * that withdraws the request (call it when the command no longer can stop gracefully).
 */
export function whenStopAsked(stop: (signal: StopSignal) => void): () => void {
  graceful = stop;
  return () => {
    if (graceful === stop) graceful = null;
  };
}

/**
 * Installs the CLI's handlers (once per process). `say` tells the person what happens; `cleanup`
 * closes what the command started.
 */
export function handleStopSignals(say: (line: string) => void, cleanup: () => Promise<void>): void {
  let asked = 0;
  const quit = (signal: StopSignal, why: string): void => {
    say(`${why}: quitting now`);
    const code = 128 + (constants.signals[signal] ?? 15);
    const ended = Promise.race([cleanup().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, CLEANUP_MS).unref())]);
    void ended.finally(() => process.exit(code));
  };
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      asked++;
      const stop = graceful;
      if (asked === 1 && stop !== null) {
        graceful = null;
        stop(signal);
        setTimeout(() => quit(signal, `the graceful stop did not end in ${STOP_DEADLINE_MS / 1000} s`), STOP_DEADLINE_MS).unref();
        return;
      }
      quit(signal, asked === 1 ? `stopped (${signal})` : `stopped again (${signal})`);
    });
  }
}
