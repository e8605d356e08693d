/**
 * A site that is a running app at an address (a team's dev server, staging) instead of a folder of
 * pages: site.json's `url`, `reset`, `origins` and `storageState`, and the rules they keep.
 *
 *   { "url": "http://localhost:3000/",
 *     "reset": { "request": { "method": "POST", "url": "/__reset", "body": { "seed": "{seed}" } } },
 *     "origins": ["http://localhost:4000"], "storageState": "signed-in.json", … }
 *
 * A task's `page` is then a path relative to `url`. An app keeps its state on a server, so
 * loading a page afresh undoes nothing: the reset (a request, or a script run in the task's page)
 * comes before every episode, which starts in a browser context of its own (app-reset.ts).
 */
import * as v from 'valibot';
import { UsageError } from '../../core/errors.ts';

function httpUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** The app's address, ending in `/` so that a task's page resolves below it (`app/` + `contacts`). */
export const APP_URL = v.pipe(
  v.string(),
  v.check((text) => {
    const url = httpUrl(text);
    return url !== null && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
  }, 'must be the running app\'s address, http(s)://host:port/path, without a query or #'),
  v.transform((text) => {
    const url = new URL(text);
    if (!url.pathname.endsWith('/')) url.pathname += '/';
    return url.href;
  }),
);

const ORIGIN = v.pipe(
  v.string(),
  v.check((text) => {
    const url = httpUrl(text);
    return url !== null && url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '';
  }, 'must be an origin, http(s)://host[:port] with no path'),
  v.transform((text) => new URL(text).origin),
);

const METHOD = v.picklist(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], 'must be GET, POST, PUT, PATCH or DELETE');

const resetRequestSchema = v.strictObject({
  method: v.optional(METHOD, 'POST'),
  /** A path relative to the site's `url`, or an address on its origin or one of `origins`. */
  url: v.pipe(v.string(), v.minLength(1, 'must name the reset endpoint (a path relative to "url")')),
  headers: v.optional(v.record(v.string(), v.string('must be texts')), {}),
  /** A JSON value (sent as JSON) or a text (sent as it is); `{seed}`, `{task}` and `{split}` are filled in. */
  body: v.optional(v.unknown()),
});

export const RESET = v.pipe(
  v.strictObject({
    request: v.optional(resetRequestSchema),
    /** Statements run in the task's page before it is loaded for the episode (SEED, TASK_ID, SPLIT; may await). */
    script: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'must be JavaScript, not empty'))),
  }),
  v.check((reset) => (reset.request === undefined) !== (reset.script === undefined), 'must be either {"request": {…}} or {"script": "…"}'),
);

/** site.json's fields for a running app (site.ts spreads them into its schema). */
export const APP_FIELDS = {
  url: v.optional(APP_URL),
  reset: v.optional(RESET),
  /** Other origins the pages may load from and talk to (an API on another port, a sign-in page). */
  origins: v.optional(v.array(ORIGIN), []),
  /** A Playwright storage-state file, relative to site.json: a signed-in session every episode starts with. */
  storageState: v.optional(v.pipe(v.string(), v.minLength(1, 'must name a file beside site.json'))),
};

export type AppReset = v.InferOutput<typeof RESET>;
export type AppResetRequest = NonNullable<AppReset['request']>;

interface AppFields {
  url?: string;
  reset?: AppReset;
  origins: string[];
  storageState?: string;
  reusePage: boolean;
  tasks: readonly { id: string; page: string }[];
}

/** The origins a running app's episode may visit: its own, then `origins`. */
export function appOrigins(site: { url?: string; origins: readonly string[] }): string[] {
  return site.url === undefined ? [] : [new URL(site.url).origin, ...site.origins.filter((o) => o !== new URL(site.url as string).origin)];
}

/** The rules that tie the fields together, each refusal naming the field. */
export function checkAppFields(site: AppFields, where: string): void {
  if (site.url === undefined) {
    const given = [site.reset !== undefined && 'reset', site.origins.length > 0 && 'origins', site.storageState !== undefined && 'storageState'].filter((field) => field !== false);
    if (given.length > 0) throw new UsageError(`${where}: ${given.map((f) => `"${f}"`).join(' and ')} ${given.length === 1 ? 'is' : 'are'} for a running app at a "url"; a folder's pages are loaded afresh for each episode`);
    return;
  }
  if (site.reset === undefined) {
    throw new UsageError(`${where}: a site at a "url" needs a "reset", run before every episode so that nothing one episode did is there in the next: {"request": {"method": "POST", "url": "/__reset"}} or {"script": "…"}`);
  }
  if (site.reusePage) throw new UsageError(`${where}: "reusePage" does not go with "url": each episode of a running app starts in a fresh browser context, after its reset`);
  for (const task of site.tasks) {
    if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(task.page)) throw new UsageError(`${where}, task "${task.id}": page must be a path relative to "url" (${site.url}), not an address`);
  }
  const request = site.reset.request;
  if (request) {
    const target = new URL(request.url, site.url);
    const allowed = appOrigins(site);
    if (!allowed.includes(target.origin)) throw new UsageError(`${where}: reset.request.url ${target.href} is on neither the site's origin nor one of "origins" (${allowed.join(', ')})`);
    if (request.method === 'GET' && request.body !== undefined) throw new UsageError(`${where}: reset.request has a body, which a GET cannot send; use POST`);
  }
}

const storageStateSchema = v.looseObject({
  cookies: v.array(v.looseObject({ name: v.string(), value: v.string(), domain: v.string(), path: v.string() })),
  origins: v.array(v.looseObject({ origin: v.string(), localStorage: v.array(v.looseObject({ name: v.string(), value: v.string() })) })),
});

/** A storage-state file's content checked as Playwright will read it; `where` names the file. */
export function checkStorageState(json: unknown, where: string): void {
  const result = v.safeParse(storageStateSchema, json, { abortEarly: true });
  if (result.success) return;
  const issue = result.issues[0];
  const field = (issue.path ?? []).map((p) => String(p.key)).join('.');
  const what = issue.received === 'undefined' ? 'is required' : issue.message;
  throw new UsageError(`${where} is not a Playwright storage state ({"cookies": […], "origins": […]}, as context.storageState() writes it): ${field === '' ? '' : `${field} `}${what}`);
}
