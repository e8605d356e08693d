/**
 * Where a web env's pages live: a host opens tabs on a site and runs the page driver in them.
 * Two hosts implement it: under Node the system Chromium through playwright-core
 * (node/chromium-host.ts), in the app a frame beside the page (the `#page-host` import picks
 * one, as `#tf-platform` picks the tfjs platform). The env (env.ts) only speaks this contract.
 */
import { DreamGymError } from '../../core/errors.ts';
import type { PersonInput } from './driver/person-capture.ts';

/**
 * What a host serves a site from: a folder of pages a user brings (a path, served on loopback by
 * the Node host; or, in the app, the files of a folder the person opened, held by the page under
 * the site's name), a site bundled with the project (public/web/<name>, which the build ships), or
 * a running app at an address (the Node host only; app-site.ts).
 */
export type SiteSource = { root: string } | { files: string } | { bundled: string } | AppSource;

/**
 * A running app: its address (ending in `/`), the origins its pages may visit (its own first), and
 * the storage-state file (an absolute path) every episode's fresh browser context starts from.
 */
export interface AppSource {
  url: string;
  origins: readonly string[];
  storageState?: string;
}

/** The host cache's key of a source. */
export function sourceKey(site: SiteSource): string {
  if ('url' in site) return `app:${site.url}|${site.origins.join(',')}|${site.storageState ?? ''}`;
  return 'bundled' in site ? `bundled:${site.bundled}` : 'files' in site ? `files:${site.files}` : `folder:${site.root}`;
}

/** An HTTP request a tab sends as its browser context does (a running app's reset, app-reset.ts). */
export interface ContextRequest {
  method: string;
  /** An absolute address. */
  url: string;
  headers: Readonly<Record<string, string>>;
  body?: string;
  timeoutMs: number;
}

export interface ContextResponse {
  status: number;
  statusText: string;
  text: string;
}

export type PageErrorCode = 'page-load' | 'page-timeout' | 'page-crash';

/** A page that failed: it did not load, it stopped answering, it crashed. The env ends the episode with it. */
export class PageError extends DreamGymError {
  declare readonly code: PageErrorCode;
  constructor(code: PageErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/**
 * The host itself could not start (under Node: the system Chromium would not launch), so no page
 * of the run can open. Not a PageError on purpose: the env ends an episode with a PageError and the
 * run goes on, where this one is thrown on, and the command stops with its message.
 */
export class BrowserStartError extends DreamGymError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('browser-start', message, options);
  }
}

/** How long a page may take before the host gives up on it (a watchdog, not a target). */
export interface PageTimeouts {
  /** Loading a page, to its `load` event. */
  loadMs: number;
  /** One call into the page (the driver, a hook). A page that spins in a loop is ended after it. */
  callMs: number;
}

export const DEFAULT_PAGE_TIMEOUTS: PageTimeouts = { loadMs: 10_000, callMs: 5_000 };

export interface PageTab {
  /** Opens `path` (relative to the site's root) and waits for its `load` event; throws PageError. */
  load(path: string): Promise<void>;
  /** The value of a JavaScript expression evaluated in the page (JSON-cloneable), under the call watchdog. */
  evaluate<T>(expression: string): Promise<T>;
  /**
   * Evaluates an expression that acts on the page and resolves to `{ leaving }` (the driver's
   * `act`). When the page began to leave (or went away during the call), waits for the next
   * page's `load`. `result` is null when the page went away before answering; `navigated` says a
   * new page loaded, `refused` that the navigation was refused (another origin) and the page stayed.
   */
  act<T extends { leaving: boolean }>(expression: string): Promise<{ result: T | null; navigated: boolean; refused: boolean }>;
  /** The open page's path and query (`/pages/a.html?x=1`), without the origin. */
  path(): string;
  /**
   * How many pages the tab has loaded so far: one that changed between two readings went on to
   * another page by itself (a timer's `location = …`). Optional: a host that cannot tell leaves it out.
   */
  documents?(): number;
  /**
   * What a person did next on the page (a host whose pages a person sees and acts in: the CLI's
   * `record`), or null once they closed it. Hosts nobody acts in leave it out.
   */
  nextPersonInput?(): Promise<PersonInput | null>;
  /** Goes back in the tab's history; false when there is nothing to go back to. */
  goBack(): Promise<boolean>;
  /**
   * The page as it is shown now (its viewport, down to its lowest element: picture.ts), as PNG
   * bytes, for a trace a person reads; throws (a PageError where the page does not give one in
   * time). Optional: a host that cannot picture its pages leaves it out. Taking one does not
   * change the page.
   */
  screenshot?(): Promise<Uint8Array>;
  /**
   * Sends an HTTP request with the tab's cookies, keeping the cookies its answer sets (not from the
   * page: no CORS, no navigation). Any status is an answer; an unreachable server is a PageError
   * `page-load`, no answer in `timeoutMs` a `page-timeout`. Optional: only a host that can play a
   * running app has it.
   */
  request?(request: ContextRequest): Promise<ContextResponse>;
  close(): Promise<void>;
}

export interface PageHost {
  openTab(): Promise<PageTab>;
  /** Closes every tab and what serves them. */
  close(): Promise<void>;
}

/** How a host shows its pages. */
export interface HostOptions {
  /** In a window a person sees and acts in (the CLI's `record`), rather than unseen. */
  visible?: boolean;
}

export interface PageHostFactory {
  (site: SiteSource, timeouts: PageTimeouts, options?: HostOptions): Promise<PageHost>;
  /** Lets go of what the factory shares between hosts (the Node host's browser). */
  shutdown?(): Promise<void>;
}
