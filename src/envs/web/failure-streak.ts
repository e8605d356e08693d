/**
 * A site none of whose episodes work: every page errors, hangs or crashes, so every episode is an
 * env failure. A run on it used to go on for minutes, each failure costing a watchdog, training on
 * nothing. The envs of one site share a streak of episodes ended by env failures; an episode that
 * ends any other way (won, lost, cut at the step limit) ends the streak. At the limit the run stops
 * with SiteFailingError, which names the site and the first failure of the streak.
 *
 * The limit: MIN_FAILED_IN_A_ROW episodes, plus one per env playing the site. Lockstep rollouts
 * run an episode in each env at once, so one stall of a loaded machine can fail a whole round
 * (32 tabs: 32 failures) on a site that works; a streak longer than a round by 8 more is no
 * longer a stall. Eight is small next to a run (a few watchdogs: under a minute one tab at a time)
 * and large next to the odd page that times out on a site that works, which a success breaks.
 */
import { DreamGymError } from '../../core/errors.ts';
import { clip } from '../explain.ts';

export const MIN_FAILED_IN_A_ROW = 8;

/** The run stops: the site's last episodes all ended by env failures (the message names the site and the first). */
export class SiteFailingError extends DreamGymError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('site-failing', message, options);
  }
}

function failingMessage(site: string, count: number, first: { task: string; error: string }): string {
  return (
    `site "${site}": the last ${count} episodes all ended by env failures (pages that errored, stopped answering or crashed) and none ended otherwise, ` +
    `so the run stops rather than train on nothing; the first: task ${first.task}: ${clip(first.error, 300)}`
  );
}

export class FailureStreak {
  private count = 0;
  private first: { task: string; error: string } | null = null;
  private readonly envs = new Set<object>();

  constructor(private readonly site: string) {}

  /** The streak's length at which the run stops, for the envs playing now. */
  get limit(): number {
    return MIN_FAILED_IN_A_ROW + this.envs.size;
  }

  /** An env plays the site (its episodes may end in the same round as the others'). */
  join(env: object): void {
    this.envs.add(env);
  }

  leave(env: object): void {
    this.envs.delete(env);
  }

  /** An episode ended otherwise than by an env failure: the site works. */
  succeeded(): void {
    this.count = 0;
    this.first = null;
  }

  /** An episode ended by an env failure; throws SiteFailingError where that makes the streak reach its limit. */
  failed(task: string, error: string): void {
    this.count++;
    this.first ??= { task, error };
    if (this.count >= this.limit) throw new SiteFailingError(failingMessage(this.site, this.count, this.first));
  }
}
