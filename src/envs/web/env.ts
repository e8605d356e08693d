/**
 * WebEnv: a live page behind the `Env` contract. `reset` opens the task's page in the env's tab,
 * runs the site's start hook with the instance's seed, and reads the page; `step` checks the
 * action against what the page admitted, performs it through the driver, waits for the next page
 * where it navigated, and reads the reward and done hooks and the page again in one call.
 *
 * Bad input never throws: a malformed or inadmissible action, or one on an element that went
 * away, is invalid (reward 0) and the page is read again. A page that stops answering (a loop, a
 * crash) ends the episode with `info.error`; the env drops its tab and opens a fresh one at the
 * next reset. A page that cannot be read at reset is shown with an `error:` line and admits only
 * `wait`, which ends the episode. A site's own mistakes (a hook that throws, a reward that is not a
 * number, a page that 404s) are errors that name the task and the hook. A browser that cannot
 * start at all (BrowserStartError, not a PageError) ends no episode: every episode would fail the
 * same way, so it is thrown on and the run stops with its message.
 */
import { EnvStateError, UsageError } from '../../core/errors.ts';
import { renderState } from '../../core/state.ts';
import type { Env, Observation, PersonInput, StepResult, Task } from '../../core/types.ts';
import { clip, finish, quote, rewardText } from '../explain.ts';
import { GO_BACK, WAIT, admitPageAction, parsePageAction, type PageAction } from './actions.ts';
import { resetApp } from './app-reset.ts';
import { FailureStreak } from './failure-streak.ts';
import { PageError, type PageHost, type PageTab } from './host.ts';
import { hookOf, isWebGoal, type HookName, type SiteDefinition, type SiteTask, type WebGoal } from './site.ts';
import { admissiblePageActions, boundedPageErrors, boundedSnapshot, snapshotText, type PageSnapshot } from './snapshot.ts';

/** What a page shows at most: lines and characters (the rest is counted in a `cut:` line). */
export interface ObserveCap {
  maxElements: number;
  maxChars: number;
}
export const DEFAULT_CAP: ObserveCap = { maxElements: 150, maxChars: 12_000 };

/**
 * Waits in a row on a page that admits nothing else, after which the episode ends (`info.stalled`:
 * counted apart from failures, as the page's doing rather than the policy's).
 */
export const MAX_IDLE_WAITS = 3;

/**
 * The longest text a hook may give: an instruction is in every observation the policy reads and
 * every transition the buffer keeps; a page's 2 MB text was echoed whole into stderr.
 */
export const HOOK_TEXT_MAX = 1_000;
/**
 * The largest reward a hook may give, either way: a task's score (0 to 1 in every bundled task).
 * Past it returns and advantages lose their precision and training diverges.
 */
export const MAX_REWARD = 1_000_000;

/** A site's mistake: a hook that throws or answers the wrong type, a page that is not there. */
export class SiteError extends UsageError {
  /** What went wrong without the site and task that the message names first. */
  readonly detail: string;
  constructor(site: string, task: string, detail: string) {
    super(`site "${site}", task "${task}": ${detail}`);
    this.detail = detail;
  }
}

interface Reading {
  reward?: unknown;
  done?: unknown;
  hookError?: [hook: HookName, message: string];
  snapshot: PageSnapshot | null;
  pageErrors: string[];
}

interface Episode {
  task: Task;
  entry: SiteTask;
  instruction: string;
  /** Pages visited this episode beyond the first (what `go back` can undo). */
  depth: number;
  /** The reward so far, as the page last reported it; a step pays the difference. */
  total: number;
  observation: Observation;
  snapshot: PageSnapshot | null;
  done: boolean;
  /** Why the page could not be read at reset (the PageError's message), for the step that ends the episode. */
  failure?: string;
  /** Waits in a row after which the page still admitted nothing else. */
  idleWaits: number;
  /** The tab's count of pages loaded at the last reading (PageTab.documents): a page that went on by itself changes it. */
  documents?: number;
}

/**
 * In the page, what a hook gave as a value that crosses to the host whatever it is: a primitive
 * as it is, anything else as its description (`[object Window]`). A hook must give a number, a
 * boolean or a text, so anything else is refused by name; crossing it whole could fail (a cycle,
 * a DOM node) before anyone could say which hook was wrong.
 */
const PLAIN = `(v) => typeof v === 'string' ? (v.length > ${HOOK_TEXT_MAX} ? { tooLong: v.length, head: v.slice(0, 200) } : v) : v === null || v === undefined || typeof v === 'number' || typeof v === 'boolean' ? v : typeof v === 'object' || typeof v === 'function' ? Object.prototype.toString.call(v) : String(v).slice(0, 200)`;

/** What a hook threw, as the page gives it back: its message, at most 300 characters of it. */
const THROWN = `String(e && e.message || e).slice(0, 300)`;

/** A text a hook gave that PLAIN cut in the page, being longer than HOOK_TEXT_MAX. */
interface TooLong {
  tooLong: number;
  head: string;
}

function isTooLong(value: unknown): value is TooLong {
  return typeof value === 'object' && value !== null && typeof (value as TooLong).tooLong === 'number' && typeof (value as TooLong).head === 'string';
}

/** A hook's value (a primitive, after PLAIN) as an error names it: texts quoted and clipped, NaN as NaN. */
function shown(value: unknown): string {
  if (isTooLong(value)) return `a text of ${value.tooLong.toLocaleString('en-US')} characters (${quote(value.head)})`;
  return typeof value === 'string' ? quote(value) : String(value).slice(0, 100);
}

export class WebEnv implements Env {
  private tab: PageTab | null = null;
  private episode: Episode | null = null;

  constructor(
    readonly name: string,
    private readonly site: SiteDefinition,
    private readonly host: () => Promise<PageHost>,
    private readonly cap: ObserveCap = DEFAULT_CAP,
    /** Shared by the site's envs: enough episodes in a row ended by env failures stop the run. */
    private readonly streak: FailureStreak = new FailureStreak(site.name),
  ) {
    streak.join(this);
  }

  async reset(task: Task): Promise<Observation> {
    const goal = task.goal;
    if (!isWebGoal(goal) || goal.site !== this.site.name) throw new UsageError(`task ${task.id} is not a task of the site "${this.site.name}"`);
    const entry = this.site.tasks.find((t) => t.id === goal.task);
    if (!entry) throw new UsageError(`the site "${this.site.name}" has no task "${goal.task}"`);
    // The last episode was left unfinished (cut at the step limit) on a page that answered: the site works.
    if (this.episode !== null && !this.episode.done && this.episode.snapshot !== null) this.streak.succeeded();
    this.episode = null;
    const episode: Episode = { task, entry, instruction: task.instruction, depth: 0, total: 0, observation: { text: '', actions: [] }, snapshot: null, done: false, idleWaits: 0 };
    // A running app's episode starts in a fresh browser context (no cookie or storage of the last), after its reset.
    if (this.site.url !== undefined) await this.dropTab();
    const reuse = this.site.reusePage === true && this.tab !== null && this.tab.path() === `/${entry.page}`;
    try {
      try {
        await this.begin(episode, entry, task, reuse);
      } catch (error) {
        // The page kept from the last episode is gone (its frame closed, its tab crashed): open it afresh, once.
        if (!(reuse && error instanceof PageError)) throw error;
        await this.dropTab();
        await this.begin(episode, entry, task, false);
      }
    } catch (error) {
      // A page that failed ends this episode; anything else (a site's mistake, a browser that cannot start) stops the run.
      if (!(error instanceof PageError)) throw error;
      await this.dropTab();
      this.broken(episode, error);
    }
    this.episode = episode;
    return episode.observation;
  }

  /** Opens (or keeps) the task's page, runs the start hook, learns the instruction, and reads the page. */
  private async begin(episode: Episode, entry: SiteTask, task: Task, reuse: boolean): Promise<void> {
    const tab = await this.openTab();
    await resetApp(this.site, entry, task.goal as WebGoal, tab);
    // A page that never finishes loading is still read as it stands, as a person would (`slow`); one that is not there is the site's mistake.
    const slow = reuse ? null : await tab.load(entry.page).then(() => null, (error: unknown) => {
      if (error instanceof PageError && error.code === 'page-load') throw new SiteError(this.site.name, entry.id, error.message);
      if (error instanceof PageError && error.code === 'page-timeout') return error;
      throw error;
    });
    try {
      await this.startEpisode(tab, episode, entry, task);
    } catch (error) {
      // A hook that fails on a page that had not finished loading says nothing about the site: the
      // page was slow (a loaded machine), so the episode ends with the page's error and the run goes on.
      if (slow !== null && error instanceof SiteError) throw new PageError('page-timeout', `${slow.message}, and then ${error.detail}`, { cause: error });
      throw error;
    }
  }

  /** The start hook, the instruction, and the first reading of a page that is open. */
  private async startEpisode(tab: PageTab, episode: Episode, entry: SiteTask, task: Task): Promise<void> {
    const goal = task.goal as WebGoal;
    // The start hook, and where the instruction is known already the first reading, in one call.
    const start = hookOf(this.site, entry, 'start') ?? '';
    const readNow = episode.instruction !== '';
    const started = await inHook('start', tab.evaluate<{ thrown: string | null; reading?: Reading }>(`(async (SEED, TASK) => {
      if (window.__dreamgym) window.__dreamgym.restart();
      try { ${start}\n; } catch (e) { return { thrown: ${THROWN} }; }
      return ${readNow ? `{ thrown: null, reading: ${this.readExpression(entry)} }` : '{ thrown: null }'}; })(${goal.seed}, ${JSON.stringify(goal.data === undefined ? null : { task: goal.task, instruction: task.instruction, data: goal.data })})`));
    if (started.thrown !== null) throw this.hookError(entry, 'start', `threw: ${quote(String(started.thrown))}`);
    if (episode.instruction === '') {
      const instruction = hookOf(this.site, entry, 'instruction');
      if (instruction === undefined) throw new SiteError(this.site.name, entry.id, 'no instruction hook, and the task has no generator to make one');
      const text = await inHook('instruction', tab.evaluate<unknown>(`(() => { try { return (${PLAIN})(${instruction}\n); } catch (e) { return { thrown: ${THROWN} }; } })()`));
      if (isTooLong(text)) throw this.hookError(entry, 'instruction', `gave ${shown(text)}, over the ${HOOK_TEXT_MAX.toLocaleString('en-US')} an instruction may have`);
      if (typeof text !== 'string' || text.trim() === '') throw this.hookError(entry, 'instruction', typeof text === 'object' && text !== null && 'thrown' in text ? `threw: ${quote(String((text as { thrown: unknown }).thrown))}` : `gave ${shown(text)}, not a text`);
      episode.instruction = text.replace(/\s+/g, ' ').trim();
      // The instruction lives in the page: the task learns it here, once, for everything after (training, the buffer).
      task.instruction = episode.instruction;
    }
    const reading = started.reading ? this.checked(started.reading, entry) : await this.read(tab, entry);
    episode.total = this.rewardOf(reading, entry, this.doneOf(reading, entry));
    this.show(episode, reading);
  }

  async step(action: string): Promise<StepResult> {
    const episode = this.episode;
    if (!episode) throw new EnvStateError(`${this.name}: call reset(task) before step(action)`);
    if (episode.done) throw new EnvStateError(`${this.name}: the episode is over; call reset(task) to start another`);
    if (episode.snapshot === null) {
      // The page could not be read: whatever was asked, the episode ends.
      episode.done = true;
      const why = episode.failure === undefined ? 'the page could not be read' : `the page could not be read: ${episode.failure}`;
      this.streak.failed(episode.task.id, why);
      return this.result(episode, 0, false, `${why[0]?.toUpperCase()}${why.slice(1)}, so the episode ends.`, { error: why });
    }
    const admitted = admitPageAction(action, episode.observation.actions);
    const parsed = admitted === null ? null : parsePageAction(admitted);
    if (admitted === null || parsed === null) {
      const why = parsePageAction(typeof action === 'string' ? action : '') === null ? 'is not a page action' : 'is not one the page admits now';
      return this.result(episode, 0, false, `${quote(action)} ${why}; nothing happened.`);
    }
    const tab = this.tab as PageTab;
    const before = episode.snapshot;
    try {
      const performed = await this.perform(tab, episode, parsed);
      const reading = performed.reading ?? (await this.read(tab, episode.entry));
      // The page went on to another of the site's pages by itself (a timer's `location = …`) since it
      // was last read: a navigation of the episode too, which `go back` can undo.
      const wentOn = parsed.verb !== 'back' && ('failed' in performed || performed.moved === 'stayed') && episode.documents !== undefined && tab.documents?.() !== episode.documents;
      if (wentOn) episode.depth++;
      if ('failed' in performed) {
        this.show(episode, reading);
        const moved = wentOn ? ` The page had gone on to ${reading.snapshot?.path ?? 'another page'} by itself.` : '';
        return this.result(episode, 0, false, `${admitted} failed: ${performed.failed}; nothing happened.${moved}`);
      }
      const moved: Moved = wentOn ? 'navigated' : performed.moved;
      const done = this.doneOf(reading, episode.entry);
      const total = this.rewardOf(reading, episode.entry, done);
      const reward = total - episode.total;
      episode.total = total;
      this.show(episode, reading);
      const idle = parsed.verb === 'wait' && episode.observation.actions.every((a) => a === WAIT || a === GO_BACK);
      episode.idleWaits = idle ? episode.idleWaits + 1 : 0;
      const stalled = !done && episode.idleWaits >= MAX_IDLE_WAITS;
      episode.done = done || stalled;
      if (episode.done) this.streak.succeeded();
      const won = done && total > 0;
      const outcome = describeChange(before, reading.snapshot, moved);
      const end = done
        ? (won ? ` The task is done: reward ${rewardText(total)}.` : ` The episode is over without success (reward ${rewardText(total)}).`)
        : stalled ? ` The page offered nothing to act on after ${MAX_IDLE_WAITS} waits, so the episode ends.` : '';
      return this.result(episode, reward, true, `${admitted}: ${outcome}${end}`, { won, ...(stalled ? { stalled: true } : {}), ...(reading.pageErrors.length > 0 ? { pageErrors: reading.pageErrors } : {}), ...(moved === 'refused' ? { refused: true } : {}) });
    } catch (error) {
      if (!(error instanceof PageError)) throw error;
      // The page stopped answering: a watchdog ends the episode, and the next reset opens a fresh tab.
      await this.dropTab();
      episode.done = true;
      episode.snapshot = null;
      this.streak.failed(episode.task.id, error.message);
      return this.result(episode, 0, true, `${admitted}: the page stopped answering (${error.message}), so the episode ends.`, { error: error.message });
    }
  }

  /**
   * The page the episode is on, as PNG bytes, for a trace (PageTab.screenshot); null where no page
   * is open (it could not be read) or the host cannot picture its pages. Throws what the tab threw.
   */
  async screenshot(): Promise<Uint8Array | null> {
    return (await this.tab?.screenshot?.()) ?? null;
  }

  /** What a person did next on the page (a visible host's: record); null once they closed it. */
  async nextPersonInput(): Promise<PersonInput | null> {
    if (!this.tab?.nextPersonInput) throw new EnvStateError(`${this.name}: nobody acts on this page (it is not in a visible browser)`);
    return this.tab.nextPersonInput();
  }

  /** Closes the env's tab (the host and its browser stay for other envs). */
  async close(): Promise<void> {
    this.streak.leave(this);
    await this.dropTab();
  }

  /**
   * Performs the action; where the page stayed, the same call into the page also reads it
   * (`reading`), so a step costs one round trip.
   */
  private async perform(tab: PageTab, episode: Episode, action: PageAction): Promise<{ moved: Moved; reading?: Reading } | { failed: string; reading?: Reading }> {
    if (action.verb === 'back' && (episode.snapshot?.pushedStates ?? 0) === 0) {
      if (!(await tab.goBack())) return { failed: 'there is no page to go back to' };
      episode.depth = Math.max(0, episode.depth - 1);
      return { moved: 'navigated' };
    }
    // The latest entry is a route the page pushed itself (a single-page app): the page goes back through it.
    const call = action.verb === 'back' ? 'window.__dreamgym.back()' : `window.__dreamgym.act(${JSON.stringify(action)})`;
    type Acted = { ok: boolean; reason?: string; leaving: boolean; refused?: string; reading?: Reading };
    const { result, navigated, refused } = await tab.act<Acted>(`(async () => {
      const acted = await ${call};
      return acted.leaving ? acted : { ...acted, reading: ${this.readExpression(episode.entry)} }; })()`);
    const reading = !navigated && !refused && result?.reading ? this.checked(result.reading, episode.entry) : undefined;
    const withReading = <T extends object>(outcome: T): T & { reading?: Reading } => (reading ? { ...outcome, reading } : outcome);
    if (result !== null && !result.ok) return withReading({ failed: typeof result.reason === 'string' ? clip(result.reason, 200) : 'the page refused it' });
    if (result?.refused !== undefined) return withReading({ moved: 'refused' as Moved });
    if (navigated) {
      episode.depth++;
      return { moved: 'navigated' };
    }
    return withReading({ moved: (refused ? 'refused' : 'stayed') as Moved });
  }

  /** An expression that reads the reward and done hooks and the page, in the page. */
  private readExpression(entry: SiteTask): string {
    const hook = (name: HookName): string => {
      const code = hookOf(this.site, entry, name);
      return code === undefined ? '' : `try { out.${name} = (${PLAIN})(${code}\n); } catch (e) { out.hookError ??= ['${name}', ${THROWN}]; }`;
    };
    return `(() => { const out = {}; ${hook('reward')} ${hook('done')}
      const driver = window.__dreamgym;
      out.snapshot = driver ? driver.observe(${JSON.stringify(this.cap)}) : null;
      out.pageErrors = driver ? driver.takeErrors() : [];
      return out; })()`;
  }

  /** The reward and done hooks and the page, in one call into the page. */
  private async read(tab: PageTab, entry: SiteTask): Promise<Reading> {
    return this.checked(await tab.evaluate<Reading>(this.readExpression(entry)), entry);
  }

  /**
   * A reading as the page gave it, held to its bounds: the page's scripts can replace anything in
   * it (the driver lives in the page), so nothing of it is trusted to be small or well formed.
   */
  private checked(reading: Reading, entry: SiteTask): Reading {
    if (typeof reading !== 'object' || reading === null) throw new PageError('page-crash', 'the page gave no reading back (did its scripts replace the page driver?)');
    const hookError = reading.hookError;
    if (hookError !== undefined) {
      const hook = (['reward', 'done'] as const).find((name) => name === (Array.isArray(hookError) ? hookError[0] : undefined)) ?? 'reward';
      throw this.hookError(entry, hook, `threw: ${quote(String(Array.isArray(hookError) ? hookError[1] : hookError).slice(0, 300))}`);
    }
    if (reading.snapshot === null || reading.snapshot === undefined) throw new PageError('page-crash', 'the page driver is not in the page (was the page replaced by a download or a non-HTML file?)');
    const snapshot = boundedSnapshot(reading.snapshot, this.cap);
    if (snapshot === null) throw new PageError('page-crash', 'the page gave a reading that is not one of the driver\'s (did its scripts replace the page driver?)');
    return { ...reading, snapshot, pageErrors: boundedPageErrors(reading.pageErrors) };
  }

  /**
   * The reward so far, held to what site.json declares of it: a dream over the site trusts the
   * declaration (rounds to 0 or 1, pays nothing before the end), so a page that breaks it is the
   * site's mistake, named here rather than learned from.
   */
  private rewardOf(reading: Reading, entry: SiteTask, done: boolean): number {
    const reward = reading.reward ?? 0;
    if (typeof reward !== 'number' || !Number.isFinite(reward)) throw this.hookError(entry, 'reward', `gave ${shown(reward)}, not a number`);
    if (Math.abs(reward) > MAX_REWARD) throw this.hookError(entry, 'reward', `gave ${reward}, beyond the ±${MAX_REWARD.toLocaleString('en-US')} a reward may be (a task's score: 0 to 1 in every bundled task)`);
    if (this.site.binaryReward && reward !== 0 && reward !== 1) throw this.hookError(entry, 'reward', `gave ${reward}, but site.json declares "binaryReward": 0 or 1 only`);
    if (this.site.rewardsAtEnd && !done && reward !== 0) throw this.hookError(entry, 'reward', `gave ${reward} before the episode was over, but site.json declares "rewardsAtEnd": 0 until the end`);
    return reward;
  }

  private doneOf(reading: Reading, entry: SiteTask): boolean {
    const done = reading.done ?? false;
    if (typeof done !== 'boolean') throw this.hookError(entry, 'done', `gave ${shown(done)}, not true or false`);
    return done;
  }

  private show(episode: Episode, reading: Reading): void {
    const snapshot = reading.snapshot as PageSnapshot;
    episode.snapshot = snapshot;
    const documents = this.tab?.documents?.();
    if (documents !== undefined) episode.documents = documents;
    // Back to a page loaded before, or through a route the page pushed (a single-page app's Back button).
    const canGoBack = episode.depth > 0 || (snapshot.pushedStates ?? 0) > 0;
    episode.observation = { text: snapshotText(snapshot, { instruction: episode.instruction, canGoBack }), actions: admissiblePageActions(snapshot, canGoBack) };
  }

  private broken(episode: Episode, error: PageError): void {
    episode.snapshot = null;
    episode.failure = error.message;
    const header: [string, string][] = [['title', ''], ['url', `/${episode.entry.page}`], ['instruction', episode.instruction], ['error', error.message]];
    episode.observation = { text: renderState({ header, elements: [] }), actions: [WAIT] };
  }

  private result(episode: Episode, reward: number, valid: boolean, explanation: string, extra: Record<string, unknown> = {}): StepResult {
    const won = extra.won === true;
    return {
      observation: episode.observation,
      reward,
      done: episode.done,
      info: { valid, won, truncated: false, ...extra, explanation: finish(explanation, false) },
    };
  }

  private hookError(entry: SiteTask, hook: HookName, what: string): SiteError {
    return new SiteError(this.site.name, entry.id, `the ${hook} hook ${what}`);
  }

  private async openTab(): Promise<PageTab> {
    this.tab ??= await (await this.host()).openTab();
    return this.tab;
  }

  private async dropTab(): Promise<void> {
    const tab = this.tab;
    this.tab = null;
    await tab?.close();
  }
}

/**
 * A call into the page that ran a hook: a page that stopped answering (or went away) during it is
 * told with the hook's name, so a run's warning says which hook hung.
 */
function inHook<T>(hook: HookName, call: Promise<T>): Promise<T> {
  return call.catch((error: unknown) => {
    if (error instanceof PageError) throw new PageError(error.code, `the ${hook} hook did not finish: ${error.message}`, { cause: error });
    throw error;
  });
}

/** Where an action left the tab: on the page, on a new one, or on the page after it tried to leave the site. */
type Moved = 'stayed' | 'navigated' | 'refused';

/** One sentence on what an action did to the page, from the two snapshots. */
function describeChange(before: PageSnapshot, after: PageSnapshot | null, moved: Moved): string {
  if (after === null) return 'the page could not be read.';
  if (moved === 'refused') return 'the page tried to leave the site and was stopped there.';
  if (moved === 'navigated') return `the page ${after.path === before.path ? 'reloaded' : `went to ${after.path}`}${after.title ? ` (${after.title})` : ''}.`;
  const seen = new Set(before.elements.map((e) => lineKey(e)));
  const changed = after.elements.filter((e) => !seen.has(lineKey(e)));
  if (changed.length === 0 && after.elements.length === before.elements.length) return 'nothing on the page changed.';
  const first = changed[0];
  const shown = first ? `; first: ${first.role} ${first.id !== undefined ? `#${first.id} ` : ''}${first.name}${first.value !== undefined ? ` = ${first.value}` : ''}` : '';
  return `${changed.length} line${changed.length === 1 ? '' : 's'} of the page changed${shown}.`;
}

function lineKey(e: PageSnapshot['elements'][number]): string {
  return `${e.id ?? ''}|${e.role}|${e.name}|${e.value ?? ''}|${e.states.join(',')}`;
}

