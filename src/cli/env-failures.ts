/**
 * What the CLI says about episodes an env failure ended (a web page that hung or crashed): they count
 * as failures, so a success figure beside them understates the policy. `train` and `rollout` say it
 * the same way; the counts come from the jobs (`envErrors` of an evaluation or a rollout).
 */
import type { CommandIO } from './io.ts';
import type { FirstEnvError } from '../replay/seed.ts';

/** The note after a success figure: ` (2 ended by env failures)`, or nothing. */
export function envErrorText(counted: { envErrors?: number; stalled?: number; retried?: number }): string {
  const notes = [
    ...(counted.envErrors ? [`${counted.envErrors} ended by env failures`] : []),
    ...(counted.retried ? [`${counted.retried} played again after a failing page`] : []),
    ...(counted.stalled ? [`${counted.stalled} ended on a page with nothing to act on`] : []),
  ];
  return notes.length > 0 ? ` (${notes.join(', ')})` : '';
}

/** What an evaluation's figure does with the episodes the environment ended. */
const COUNTED_AS_FAILURES = 'they count as failures, so the success figure understates the policy';

/**
 * The warning on stderr, where any episode was ended by the environment; `first` is the first such
 * episode's task and error; `consequence` says what the command did with them (an evaluation
 * counts them as failures; seeding, fidelity and training leave them out).
 */
export function warnEnvErrors(io: CommandIO, counted: { envErrors?: number; episodes: number }, which: string, first?: FirstEnvError | null, consequence = COUNTED_AS_FAILURES): void {
  if (!counted.envErrors) return;
  io.progress(
    `warning: the environment failed in ${counted.envErrors} of the ${counted.episodes} ${which} (pages that stopped answering or could not be read${first ? `; first: task ${first.taskId}: ${first.error}` : ''}); ` +
      consequence,
  );
}
