/**
 * Where a web env's pages live: a host opens tabs on a site and runs the page driver in them.
 * Two hosts implement it: under Node the system Chromium through playwright-core
 * (node/chromium-host.ts), in the app a frame beside the page (the `#page-host` import picks
 * one, as `#tf-platform` picks the tfjs platform). The env (env.ts) only speaks this contract.
 */
import { DreamGymError } from '../../core/errors.ts';

/**
 * What a host serves a site from: a folder of pages a user brings (a path, served on loopback by
 * the Node host; or, in the app, the files of a folder the person opened, held by the page under
 * the site's name), or a site bundled with the project (public/web/<name>, which the build ships).
 */
export type SiteSource = { root: string } | { files: string } | { bundled: string };

/** The host cache's key of a source. */
export function sourceKey(site: SiteSource): string {
  return 'bundled' in site ? `bundled:${site.bundled}` : 'files' in site ? `files:${site.files}` : `folder:${site.root}`;
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
  /** Goes back in the tab's history; false when there is nothing to go back to. */
  goBack(): Promise<boolean>;
  close(): Promise<void>;
}

export interface PageHost {
  openTab(): Promise<PageTab>;
  /** Closes every tab and what serves them. */
  close(): Promise<void>;
}

export interface PageHostFactory {
  (site: SiteSource, timeouts: PageTimeouts): Promise<PageHost>;
  /** Lets go of what the factory shares between hosts (the Node host's browser). */
  shutdown?(): Promise<void>;
}
