/**
 * A running app's reset, before every episode (site.json's `reset`; app-site.ts): an app keeps its
 * state on its server, so an episode's edits would still be there in the next one. WebEnv calls
 * `resetApp` in a tab of a fresh browser context, before it loads the task's page.
 *
 * - `{"request": …}` is sent with that context's cookies (the signed-in session of `storageState`),
 *   and a cookie its answer sets stays for the episode: an app that gives each session a database
 *   of its own keeps the envs of a run that play at once apart.
 * - `{"script": "…"}` runs in the task's page (SEED, TASK_ID and SPLIT are the instance's; it may
 *   await), which the env then loads afresh.
 *
 * A reset the app refuses (a status outside 2xx), one that cannot reach it, and a script that
 * throws are the site's failures, named with the task, the address and the status: every episode
 * would meet them, so they stop the run (AppResetError). One that does not answer in time ends
 * only its episode (a PageError, as a page that hangs), since a loaded machine can cause it.
 */
import { DreamGymError } from '../../core/errors.ts';
import type { AppResetRequest } from './app-site.ts';
import { PageError, type PageTab } from './host.ts';
import type { SiteDefinition, SiteTask, WebGoal } from './site.ts';

/** How long the reset request may take. */
export const RESET_TIMEOUT_MS = 10_000;

/** A reset that failed in a way every episode would meet: the run stops with this message. */
export class AppResetError extends DreamGymError {
  constructor(site: string, task: string, detail: string, options?: { cause?: unknown }) {
    super('site-reset', `site "${site}", task "${task}": ${detail}`, options);
  }
}

export async function resetApp(site: SiteDefinition, entry: SiteTask, goal: WebGoal, tab: PageTab): Promise<void> {
  const reset = site.reset;
  if (reset === undefined || site.url === undefined) return;
  if (reset.request) await sendReset(site, site.url, entry, goal, reset.request, tab);
  else if (reset.script !== undefined) await runResetScript(site, site.url, entry, goal, reset.script, tab);
}

/** `{seed}`, `{task}` and `{split}` filled in with the instance's. */
function filled(text: string, goal: WebGoal): string {
  return text.replace(/\{(seed|task|split)\}/g, (_, name: string) => String(name === 'seed' ? goal.seed : name === 'task' ? goal.task : goal.split));
}

/** A JSON body with its texts filled in; a text that is `{seed}` alone becomes the number. */
function filledBody(value: unknown, goal: WebGoal): unknown {
  if (value === '{seed}') return goal.seed;
  if (typeof value === 'string') return filled(value, goal);
  if (Array.isArray(value)) return value.map((item) => filledBody(item, goal));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, filledBody(item, goal)]));
  return value;
}

async function sendReset(site: SiteDefinition, base: string, entry: SiteTask, goal: WebGoal, request: AppResetRequest, tab: PageTab): Promise<void> {
  const url = new URL(filled(request.url, goal), base).href;
  const what = `the reset ${request.method} ${url}`;
  if (!tab.request) throw new AppResetError(site.name, entry.id, `${what} cannot be sent from here: a running app is played under Node (the CLI)`);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = filled(value, goal);
  let body: string | undefined;
  if (typeof request.body === 'string') {
    body = filled(request.body, goal);
    headers['content-type'] ??= 'text/plain; charset=utf-8';
  } else if (request.body !== undefined) {
    body = JSON.stringify(filledBody(request.body, goal));
    headers['content-type'] ??= 'application/json';
  }
  let response;
  try {
    response = await tab.request({ method: request.method, url, headers, ...(body !== undefined ? { body } : {}), timeoutMs: RESET_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof PageError && error.code === 'page-timeout') throw new PageError('page-timeout', `${what} did not answer in ${RESET_TIMEOUT_MS / 1000} s`, { cause: error });
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new AppResetError(site.name, entry.id, `${what} could not reach the app (${why}); is it running at ${base}?`, { cause: error });
  }
  if (response.status < 200 || response.status > 299) {
    const said = response.text.replace(/<[^<>]*>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 200);
    throw new AppResetError(site.name, entry.id, `${what} answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}${said ? `: ${said}` : ''}`);
  }
}

async function runResetScript(site: SiteDefinition, base: string, entry: SiteTask, goal: WebGoal, script: string, tab: PageTab): Promise<void> {
  const page = new URL(entry.page.replace(/^\/+/, ''), base).href;
  try {
    await tab.load(entry.page);
  } catch (error) {
    if (error instanceof PageError && error.code === 'page-load') throw new AppResetError(site.name, entry.id, `the reset script's page ${page} could not be loaded: ${error.message}`, { cause: error });
    throw error;
  }
  let thrown: string | null;
  try {
    thrown = await tab.evaluate<string | null>(`(async (SEED, TASK_ID, SPLIT) => {
      try { ${script}\n; } catch (e) { return String(e && e.message || e); }
      return null; })(${goal.seed}, ${JSON.stringify(goal.task)}, ${JSON.stringify(goal.split)})`);
  } catch (error) {
    if (error instanceof PageError) throw new PageError(error.code, `the reset script did not finish on ${page}: ${error.message}`, { cause: error });
    throw new AppResetError(site.name, entry.id, `the reset script failed on ${page}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (thrown !== null) throw new AppResetError(site.name, entry.id, `the reset script threw on ${page}: ${thrown}`);
}
