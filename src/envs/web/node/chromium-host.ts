/**
 * The web env's Node host: the system Chromium through playwright-core (no browser download),
 * the site's folder served on loopback, the page driver injected into every page before the
 * page's own scripts. One browser per process, started on first use; one context per site, whose
 * requests to any other origin are refused (a page cannot leave the site); one tab per env, so
 * lockstep rollouts run several pages at once. A running app at a URL (app-site.ts) is not
 * served but visited, and each of its tabs has a context of its own, made afresh with the site's
 * storage state: the env opens one per episode, so no cookie or storage carries over, and the
 * app's reset request (sent with the tab's cookies) can give each env a session of its own.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, CDPSession, Page, Route } from 'playwright-core';
import { CHROMIUM_ARGS, PAGE_MEMORY_ARGS, chromiumPath } from '../../../platform/chromium.ts';
import { BrowserStartError, PageError, type ContextRequest, type ContextResponse, type PageHost, type PageHostFactory, type PageTab, type PageTimeouts } from '../host.ts';
import { clip } from '../../explain.ts';
import { HOST_NUMBER_TAG } from '../host-value.ts';
import { isPicturedArea, PICTURED_AREA } from '../picture.ts';
import type { PersonInput } from '../driver/person-capture.ts';
import { pageDriverScript } from './driver-bundle.ts';
import { crashError, crashWatch, type CrashWatch } from './renderer-crash.ts';
import { serveFolder } from './static-server.ts';

let browser: Promise<Browser> | null = null;

/**
 * The shared browser, launched on first use. A launch that fails (no Chromium, a binary that exits
 * at once, a library missing) is a BrowserStartError, which stops the run with this message; it is
 * not kept, so a later call tries again.
 */
function sharedBrowser(): Promise<Browser> {
  if (browser === null) {
    const launching = launchBrowser();
    browser = launching;
    launching.catch(() => {
      if (browser === launching) browser = null;
    });
  }
  return browser;
}

/**
 * Flags a person adds for their own machine (`DREAMGYM_CHROMIUM_ARGS`, separated by spaces: a
 * proxy, a DevTools port a test drives a recorded browser through).
 */
function extraArgs(): string[] {
  return (process.env.DREAMGYM_CHROMIUM_ARGS ?? '').split(/\s+/).filter((arg) => arg !== '');
}

async function launchBrowser(visible = false): Promise<Browser> {
  let executable = '';
  try {
    executable = chromiumPath();
    // Loaded here, not with the module: every command imports the web env, and Playwright costs a
    // few tenths of a second of CPU to load in a process that may never open a page.
    const { chromium } = await import('playwright-core');
    // Playwright's own signal handlers would close the browser at Ctrl-C, under the run's graceful
    // stop: the iteration in progress then failed blaming the site, and nothing was written. The
    // command's stop closes it instead (closeSharedBrowser), and Playwright still ends it when the
    // process exits.
    return await chromium.launch({ executablePath: executable, args: [...CHROMIUM_ARGS, ...PAGE_MEMORY_ARGS, ...extraArgs()], headless: !visible, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false });
  } catch (error) {
    throw new BrowserStartError(`could not start the system Chromium for web pages${executable ? ` (${executable})` : ''}: ${launchFailure(error)}`, { cause: error });
  }
}

/**
 * What a failed launch said, short: playwright's first line, what the browser itself printed (its
 * logs, e.g. a missing library), and how its process ended, without the long command line.
 */
function launchFailure(error: unknown): string {
  // Playwright colours its call log: the escape codes go first.
  const text = (error instanceof Error ? error.message : String(error)).split(String.fromCharCode(27)).map((part, i) => (i === 0 ? part : part.replace(/^\[[0-9;]*m/, ''))).join('');
  const lines = text.split('\n').map((line) => line.trim());
  const first = (lines[0] ?? '').replace(/^browserType\.launch: /, '');
  // The browser's own output sits between "Browser logs:" and "Call log:" (its command line aside).
  const logsAt = lines.indexOf('Browser logs:');
  const callAt = lines.indexOf('Call log:');
  const logs = logsAt < 0 ? [] : lines.slice(logsAt + 1, callAt < 0 ? undefined : callAt).filter((line) => line !== '' && !line.startsWith('<'));
  const exit = /<process did exit: ([^>]*)>/.exec(text)?.[1];
  return [first, ...logs.slice(0, 3), ...(exit ? [`the process exited (${exit})`] : [])].join('; ');
}

/** Closes the shared browser (the CLI calls it before it exits; tests after their suite). */
export async function closeSharedBrowser(): Promise<void> {
  const open = browser;
  browser = null;
  if (open) await (await open.catch(() => null))?.close();
}

function withTimeout<T>(work: Promise<T>, ms: number, onTimeout: () => PageError): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The page gives its answer back through the driver's `forHost` (plain data, NaN and the
 * infinities tagged: a hook that gives one is refused by name, not read as null), taken by value.
 */
const inPage = (expression: string): string =>
  `(async () => { const value = await (${expression}\n); const driver = window.__dreamgym; return driver ? driver.forHost(value) : value; })()`;

function fromPage(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromPage);
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if (HOST_NUMBER_TAG in record) return Number(record[HOST_NUMBER_TAG]);
  for (const key of Object.keys(record)) record[key] = fromPage(record[key]);
  return record;
}

interface RuntimeEvaluation {
  result: { value?: unknown; unserializableValue?: string };
  exceptionDetails?: { text: string; exception?: { description?: string; value?: unknown } };
}

/** What a page script threw, in one line of at most 200 characters (a thrown string has no description). */
function thrownText(details: NonNullable<RuntimeEvaluation['exceptionDetails']>): string {
  const exception = details.exception;
  const said = String(exception?.description ?? (exception && 'value' in exception ? String(exception.value) : details.text)).slice(0, 4_000);
  return clip(said.split('\n')[0] ?? said, 200);
}

/** Pages in a row a call follows a page's own navigation to (redirects) before it gives up. */
const MAX_FOLLOWED = 5;

/** Where a host's site is: its origin, the address its pages' paths resolve against, and every origin its pages may be on. */
interface SiteAddress {
  origin: string;
  base: string;
  origins: ReadonlySet<string>;
}

class ChromiumTab implements PageTab {
  private loads = 0;
  private waiters: (() => void)[] = [];
  private refused = false;
  /** The last navigation was given up and no error page replaced the page (a mailto: link, a download, a 204). */
  private stayed = false;
  private cdp: Promise<CDPSession> | null = null;
  /** Main-frame navigations begun (a link, a form, a script's `location = …`, a redirect). */
  private navigations = 0;
  /** The count of navigations begun when the last page loaded: equal to `navigations` where none is under way. */
  private loadedAt = 0;
  /** Why the page's renderer died, once it did: every call after it fails with this at once. */
  private crashed: PageError | null = null;
  /** Rejects when the renderer dies (a call into a dead page would wait for its watchdog). */
  private readonly crash: Promise<never>;

  constructor(
    private readonly page: Page,
    private readonly site: SiteAddress,
    private readonly timeouts: PageTimeouts,
    cdp: Promise<CDPSession> | undefined,
    crashes: Promise<CrashWatch>,
    /** What a person does on the page, where one acts in it (a visible host). */
    private readonly person?: PersonInputs,
  ) {
    this.cdp = cdp ?? null;
    const targetId = (cdp ?? Promise.reject(new Error('no session')))
      .then((session) => session.send('Target.getTargetInfo'))
      .then(({ targetInfo }) => targetInfo.targetId, () => null);
    this.crash = new Promise<never>((_, reject) => {
      page.once('crash', () => {
        void Promise.all([crashes, targetId])
          .then(([watch, id]) => watch.describe(id))
          .catch(() => crashError(undefined))
          .then((error) => {
            this.crashed = error;
            reject(error);
            for (const wake of this.waiters.splice(0)) wake();
          });
      });
    });
    this.crash.catch(() => undefined);
    page.on('load', () => {
      this.loads++;
      this.loadedAt = this.navigations;
      for (const wake of this.waiters.splice(0)) wake();
    });
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) this.navigations++;
    });
    page.on('requestfailed', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
        if (request.failure()?.errorText === 'net::ERR_ABORTED') this.stayed = true;
        else this.refused = true;
        for (const wake of this.waiters.splice(0)) wake();
      }
    });
    // The driver answers alert/confirm/prompt itself; a dialog opened before it ran is dismissed.
    page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
  }

  async load(path: string): Promise<void> {
    const url = new URL(path.replace(/^\/+/, ''), this.site.base).href;
    const before = this.loads;
    const begun = this.navigations;
    let response;
    try {
      response = await Promise.race([this.page.goto(url, { waitUntil: 'load', timeout: this.timeouts.loadMs }), this.crash]);
    } catch (error) {
      if (this.crashed) throw this.crashed;
      const message = error instanceof Error ? error.message : String(error);
      // The page sent itself on before it loaded (a script's `location = …`, a meta refresh, on a
      // tab that showed a page already): that navigation aborted this one, and where it lands is the page.
      if (/ERR_ABORTED|interrupted by another navigation/.test(message)) {
        await new Promise((resolve) => setImmediate(resolve));
        if (this.navigations > begun + 1 && (await this.settle(before))) return;
      }
      if (/timeout/i.test(message)) throw new PageError('page-timeout', `${path} did not finish loading in ${this.timeouts.loadMs / 1000} s`, { cause: error });
      throw new PageError('page-load', `${path} could not be loaded: ${clip(message.split('\n')[0] ?? '', 200)}`, { cause: error });
    }
    if (response && !response.ok()) throw new PageError('page-load', `${path} answered ${response.status()} ${clip(response.statusText(), 80)}`);
  }

  /**
   * Waits for the navigation under way to load (up to the load watchdog); true where the tab then
   * shows a page of the site, false where it did not arrive, was refused or left the site (it is
   * sent back then, as an action's way out is).
   */
  private async settle(before: number): Promise<boolean> {
    this.refused = false;
    this.stayed = false;
    // Landed: a page loaded since, and no navigation begun after it (an `onload` redirect starts one at once).
    const landed = (): boolean => (this.loads > before && this.loadedAt === this.navigations) || this.refused || this.stayed || this.crashed !== null;
    const waited = async (): Promise<void> => {
      while (!landed()) await new Promise<void>((resolve) => this.waiters.push(resolve));
    };
    if (!(await withTimeout(waited(), this.timeouts.loadMs, () => new PageError('page-timeout', 'no load')).then(() => true, () => false))) return false;
    if (this.crashed) throw this.crashed;
    if (this.refused || !this.site.origins.has(new URL(this.page.url()).origin)) {
      await this.page.goBack({ waitUntil: 'load', timeout: this.timeouts.loadMs }).catch(() => null);
      return false;
    }
    return this.loads > before;
  }

  /**
   * One DevTools `Runtime.evaluate` in the page's main world, where the driver lives. Not
   * `page.evaluate`: its utility script and value serialisation cost Node and the renderer more
   * than the step itself on a single-widget page (the driver's answers are plain data).
   */
  private async runInPage(expression: string): Promise<unknown> {
    if (this.crashed) throw this.crashed;
    let evaluation: RuntimeEvaluation;
    try {
      this.cdp ??= this.page.context().newCDPSession(this.page);
      // userGesture: the driver's actions run with user activation, as page.evaluate's did.
      const session = this.cdp;
      const send = (async () => (await session).send('Runtime.evaluate', { expression: inPage(expression), awaitPromise: true, returnByValue: true, userGesture: true }))();
      evaluation = (await Promise.race([send, this.crash])) as RuntimeEvaluation;
    } catch (error) {
      if (this.crashed) throw this.crashed;
      // Not the page's script but the call: the page, its context or its renderer went away.
      throw new PageError('page-crash', `the page went away during the call: ${clip((error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '', 200)}`, { cause: error });
    }
    if (evaluation.exceptionDetails) throw new Error(thrownText(evaluation.exceptionDetails));
    const { value, unserializableValue } = evaluation.result;
    return unserializableValue !== undefined ? Number(unserializableValue) : fromPage(value);
  }

  /** One call into the page under the call watchdog, as it is (act's: an action is never made twice). */
  private call<T>(expression: string): Promise<T> {
    const work = this.runInPage(expression) as Promise<T>;
    // runInPage already tells a page that went away (PageError) from the page's own exception (Error).
    return withTimeout(work, this.timeouts.callMs, () => new PageError('page-timeout', `the page did not answer in ${this.timeouts.callMs / 1000} s (a script that does not yield?)`));
  }

  /**
   * A call that the page's own navigation to another of the site's pages cut short (a redirect at
   * load, a timer's `location = …`) is made again on the page it went to, as a person would read
   * the page they land on: up to MAX_FOLLOWED pages in a row, past which the page is one that never
   * stays (a redirect loop).
   */
  async evaluate<T>(expression: string): Promise<T> {
    for (let followed = 0; ; followed++) {
      const before = this.loads;
      const begun = this.navigations;
      try {
        return await this.call<T>(expression);
      } catch (error) {
        if (!(error instanceof PageError && error.code === 'page-crash') || this.crashed || this.navigations === begun) throw error;
        if (followed >= MAX_FOLLOWED) throw new PageError('page-load', `the page sent itself on to another page ${MAX_FOLLOWED + 1} times in a row (a redirect loop?)`, { cause: error });
        if (!(await this.settle(before))) throw error;
      }
    }
  }

  /** Pages loaded in the tab so far: one that changes between two readings went on by itself. */
  documents(): number {
    return this.loads;
  }

  async act<T extends { leaving: boolean }>(expression: string): Promise<{ result: T | null; navigated: boolean; refused: boolean }> {
    const before = this.loads;
    this.refused = false;
    this.stayed = false;
    let result: T | null = null;
    try {
      result = await this.call<T>(expression);
    } catch (error) {
      // The page left while the handlers ran: the action navigated.
      if (!(error instanceof PageError && error.code === 'page-crash') || this.crashed) throw error;
    }
    if (result !== null && !result.leaving) return { result, navigated: false, refused: false };
    const arrived = (): boolean => this.loads > before || this.refused || this.stayed || this.crashed !== null;
    if (!arrived()) {
      await withTimeout(new Promise<void>((resolve) => this.waiters.push(resolve)), this.timeouts.loadMs, () => new PageError('page-timeout', `the next page did not finish loading in ${this.timeouts.loadMs / 1000} s`));
    }
    if (this.crashed) throw this.crashed;
    // Left the site some other way (a script's `location = …`): the refused request left an error page; go back.
    if (this.refused || !this.site.origins.has(new URL(this.page.url()).origin)) {
      await this.page.goBack({ waitUntil: 'load', timeout: this.timeouts.loadMs }).catch(() => null);
      return { result, navigated: false, refused: true };
    }
    return { result, navigated: this.loads > before, refused: false };
  }

  path(): string {
    const url = new URL(this.page.url());
    return url.origin === this.site.origin ? `${url.pathname}${url.search}` : '';
  }

  /** Through the context's request client: it reads and keeps the context's cookies, and no route applies. */
  async request(request: ContextRequest): Promise<ContextResponse> {
    try {
      const response = await this.page.request.fetch(request.url, {
        method: request.method,
        headers: { ...request.headers },
        ...(request.body !== undefined ? { data: request.body } : {}),
        timeout: request.timeoutMs,
        failOnStatusCode: false,
      });
      const answer = { status: response.status(), statusText: response.statusText(), text: await response.text() };
      await response.dispose();
      return answer;
    } catch (error) {
      const message = ((error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '').replace(/^apiRequestContext\.fetch: /, '');
      throw new PageError(/timeout/i.test(message) ? 'page-timeout' : 'page-load', message, { cause: error });
    }
  }

  /**
   * Never leaves the site, nor posts a form again. Going back to a page a form posted to would
   * post the form again: a person's browser asks first, and with the context's routing Chromium
   * resends it without asking (a running app would create the record twice), so that step back is
   * refused. A tab's first entry is about:blank, and a link to the page one is on replaces its
   * entry, so the env's count of pages visited can go back further than the site: the tab then
   * goes forward again. Either way the tab stays where it was, with nothing to go back to.
   */
  async goBack(): Promise<boolean> {
    if (this.crashed) throw this.crashed;
    let resent = false;
    const refuseResend = async (route: Route): Promise<void> => {
      const request = route.request();
      if (request.isNavigationRequest() && request.frame() === this.page.mainFrame() && request.method() !== 'GET') {
        resent = true;
        await route.abort('aborted');
      } else {
        await route.fallback();
      }
    };
    await this.page.route('**/*', refuseResend);
    try {
      const response = await this.page.goBack({ waitUntil: 'load', timeout: this.timeouts.loadMs });
      if (this.site.origins.has(new URL(this.page.url()).origin)) return !resent && response !== null;
      await this.page.goForward({ waitUntil: 'load', timeout: this.timeouts.loadMs }).catch(() => null);
      return false;
    } catch (error) {
      if (resent) return false;
      throw new PageError('page-timeout', `going back did not finish loading: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`, { cause: error });
    } finally {
      await this.page.unroute('**/*', refuseResend).catch(() => undefined);
    }
  }

  /**
   * The page as PNG (its viewport down to its lowest element: PICTURED_AREA), under the call
   * watchdog. A minimized window paints nothing by itself, but the capture asks the renderer for
   * one frame, so the picture is the page as laid out.
   */
  async screenshot(): Promise<Uint8Array> {
    const area = await this.evaluate<unknown>(PICTURED_AREA);
    try {
      const clip = isPicturedArea(area) ? area : undefined;
      return new Uint8Array(await this.page.screenshot({ type: 'png', timeout: this.timeouts.callMs, ...(clip ? { clip } : {}) }));
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
      throw new PageError(/timeout/i.test(message ?? '') ? 'page-timeout' : 'page-crash', `the page gave no screenshot: ${message}`, { cause: error });
    }
  }

  async nextPersonInput(): Promise<PersonInput | null> {
    if (!this.person) throw new PageError('page-crash', 'nobody acts on this page: its host is not a visible one (record)');
    return this.person.next();
  }

  async close(): Promise<void> {
    await this.page.close({ runBeforeUnload: false }).catch(() => undefined);
  }
}

/** A person's input from a visible page, in order; null once the page is closed. */
class PersonInputs {
  private readonly queue: PersonInput[] = [];
  private waiting: ((input: PersonInput | null) => void) | null = null;
  private closed = false;

  push(input: PersonInput): void {
    if (this.waiting) {
      const wake = this.waiting;
      this.waiting = null;
      wake(input);
    } else this.queue.push(input);
  }

  close(): void {
    this.closed = true;
    this.waiting?.(null);
    this.waiting = null;
  }

  next(): Promise<PersonInput | null> {
    const input = this.queue.shift();
    if (input) return Promise.resolve(input);
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve) => (this.waiting = resolve));
  }
}

/** A person's input as the page's capture sends it, checked (the page is not ours to trust). */
function personInput(value: unknown): PersonInput | null {
  const input = value as PersonInput | null;
  if (typeof input !== 'object' || input === null || !Number.isInteger(input.id)) return null;
  const text = (v: unknown): v is string => typeof v === 'string' && v.length <= 10_000;
  switch (input.kind) {
    case 'click':
      return { kind: 'click', id: input.id };
    case 'type':
      return text(input.text) ? { kind: 'type', id: input.id, text: input.text } : null;
    case 'select':
      return text(input.option) ? { kind: 'select', id: input.id, option: input.option } : null;
    case 'press':
      return text(input.key) ? { kind: 'press', id: input.id, key: input.key } : null;
    default:
      return null;
  }
}

/**
 * Where a host's tabs open: all in one context (a folder of pages, loaded afresh each episode), or
 * each in a fresh one (a running app, whose state a tab's cookies and storage would carry over).
 */
type TabContexts = { shared: BrowserContext } | { fresh: () => Promise<BrowserContext> };

class ChromiumHost implements PageHost {
  private browserCdp: Promise<CDPSession> | null = null;
  /** The windows already minimized: headless Chromium puts every tab in one. */
  private readonly minimized = new Set<number>();
  /** The contexts of tabs that have one of their own, open now. */
  private readonly own = new Set<BrowserContext>();

  constructor(
    private readonly browser: Browser,
    private readonly contexts: TabContexts,
    private readonly site: SiteAddress,
    private readonly timeouts: PageTimeouts,
    private readonly stopServing: () => Promise<void>,
    /** A person sees the pages and acts in them (record): windows stay as they are, their input is taken. */
    private readonly visible = false,
  ) {}

  async openTab(): Promise<PageTab> {
    const context = 'shared' in this.contexts ? this.contexts.shared : await this.ownContext(this.contexts.fresh);
    const page = await context.newPage().catch(async (error: unknown) => {
      if (this.own.has(context)) await context.close().catch(() => undefined);
      throw error;
    });
    // A context of the tab's own goes with it.
    if (this.own.has(context)) page.once('close', () => void context.close().catch(() => undefined));
    // One DevTools session per tab: the window is found through it, and the tab's calls go over it.
    const cdp = context.newCDPSession(page);
    if (!this.visible) {
      await this.minimize(cdp);
      return new ChromiumTab(page, this.site, this.timeouts, cdp, crashWatch(this.browser));
    }
    // The driver reports what the person does through this binding, in every page the tab shows.
    const person = new PersonInputs();
    await page.exposeBinding('__dreamgymPerson', (_source, value: unknown) => {
      const input = personInput(value);
      if (input) person.push(input);
    });
    page.once('close', () => person.close());
    return new ChromiumTab(page, this.site, this.timeouts, cdp, crashWatch(this.browser), person);
  }

  private async ownContext(fresh: () => Promise<BrowserContext>): Promise<BrowserContext> {
    const context = await fresh();
    this.own.add(context);
    context.once('close', () => this.own.delete(context));
    return context;
  }

  /**
   * Minimizes the tab's window. Nobody looks at these pages, and headless Chromium otherwise paints,
   * rasterizes and composites a frame after every step, in the renderer's compositor and raster
   * threads, the GPU process's display compositor and the browser's own: minimized, an oracle step
   * on a single-widget page costs 4.6 ms of CPU instead of 5.6, and 4 pages take 1.30 × as many
   * steps a second (`npm run bench -- web`, README). Minimized, the page still reports itself
   * `visible`, its animation frames, CSS transitions and timers still run and layout is unchanged
   * (the window keeps its size; tests/unit/web/web-env.test.ts), so page scripts and the
   * driver see what they saw before; only the pixels are no longer drawn. Each tab asks which
   * window holds it (headless Chromium puts them all in one, minimized once). Where the browser cannot minimize (another build, a window that is gone), the page is kept as
   * it is: it only costs more.
   */
  private async minimize(tab: Promise<CDPSession>): Promise<void> {
    try {
      this.browserCdp ??= this.browser.newBrowserCDPSession();
      const browser = await this.browserCdp;
      const { targetInfo } = (await (await tab).send('Target.getTargetInfo')) as { targetInfo: { targetId: string } };
      const { windowId } = (await browser.send('Browser.getWindowForTarget', { targetId: targetInfo.targetId })) as { windowId: number };
      if (this.minimized.has(windowId)) return;
      await browser.send('Browser.setWindowBounds', { windowId, bounds: { windowState: 'minimized' } });
      this.minimized.add(windowId);
    } catch {
      this.browserCdp = null;
    }
  }

  async close(): Promise<void> {
    const browserCdp = this.browserCdp;
    this.browserCdp = null;
    this.minimized.clear();
    await browserCdp?.then((session) => session.detach()).catch(() => undefined);
    const contexts = 'shared' in this.contexts ? [this.contexts.shared] : [...this.own];
    await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
    await this.stopServing();
  }
}

/** Where the bundled sites live in the checkout (the build copies the same folder into dist/web). */
const BUNDLED_ROOT = fileURLToPath(new URL('../../../../public/web/', import.meta.url));

/** `ws://host:port` as the origin of the same server over HTTP (`http://host:port`), to compare with a site's origins. */
function httpOrigin(url: URL): string {
  const http = new URL(url.href);
  if (http.protocol === 'ws:') http.protocol = 'http:';
  else if (http.protocol === 'wss:') http.protocol = 'https:';
  return http.origin;
}

/** A context for a site's pages: the driver in every page, and no request to an origin the site does not name. */
async function siteContext(browser: Browser, driver: string, origins: ReadonlySet<string>, storageState?: string): Promise<BrowserContext> {
  const context = await browser.newContext({ serviceWorkers: 'block', ...(storageState !== undefined ? { storageState } : {}) });
  try {
    await context.addInitScript({ content: driver });
    // A page may not leave the site: navigations and requests to any other origin fail.
    await context.route((url) => !origins.has(url.origin), (route) => route.abort('blockedbyclient'));
    // WebSockets pass by page.route: a site folder (something people clone) could otherwise talk to
    // any other local port. One to the site's own origin (a running app's live updates) stays open.
    await context.routeWebSocket((url) => !origins.has(httpOrigin(url)), (socket) => socket.close({ code: 1008, reason: 'a page may not leave its site' }));
    return context;
  } catch (error) {
    await context.close().catch(() => undefined);
    throw error;
  }
}

export const pageHostFactory: PageHostFactory = async (site, timeouts, options = {}) => {
  if ('files' in site) throw new PageError('page-load', `the site "${site.files}" is a folder opened in the app; under Node, give its path (--site DIR)`);
  // The browser (and the driver) first: where it cannot start, nothing else is left running (a
  // site server left listening kept the process from ever exiting). A visible host has a browser
  // of its own, in a window, which goes with the host.
  const visible = options.visible === true;
  const [shared, driver] = await Promise.all([visible ? launchBrowser(true) : sharedBrowser(), pageDriverScript()]);
  const closeBrowser = visible ? () => shared.close().catch(() => undefined) : async () => undefined;
  if ('url' in site) {
    const app: SiteAddress = { origin: new URL(site.url).origin, base: site.url, origins: new Set([new URL(site.url).origin, ...site.origins]) };
    return new ChromiumHost(shared, { fresh: () => siteContext(shared, driver, app.origins, site.storageState) }, app, timeouts, closeBrowser, visible);
  }
  const server = await serveFolder('root' in site ? site.root : path.join(BUNDLED_ROOT, site.bundled)).catch(async (error: unknown) => {
    await closeBrowser();
    throw error;
  });
  const folder: SiteAddress = { origin: server.origin, base: `${server.origin}/`, origins: new Set([server.origin]) };
  try {
    return new ChromiumHost(shared, { shared: await siteContext(shared, driver, folder.origins) }, folder, timeouts, async () => {
      await server.close();
      await closeBrowser();
    }, visible);
  } catch (error) {
    await server.close();
    await closeBrowser();
    throw error;
  }
};
pageHostFactory.shutdown = closeSharedBrowser;
