/**
 * The web env's Node host: the system Chromium through playwright-core (no browser download),
 * the site's folder served on loopback, the page driver injected into every page before the
 * page's own scripts. One browser per process, started on first use; one context per site, whose
 * requests to any other origin are refused (a page cannot leave the site); one tab per env, so
 * lockstep rollouts run several pages at once.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../../../platform/chromium.ts';
import { BrowserStartError, PageError, type PageHost, type PageHostFactory, type PageTab, type PageTimeouts } from '../host.ts';
import { HOST_NUMBER_TAG } from '../host-value.ts';
import { pageDriverScript } from './driver-bundle.ts';
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

async function launchBrowser(): Promise<Browser> {
  let executable = '';
  try {
    executable = chromiumPath();
    return await chromium.launch({ executablePath: executable, args: CHROMIUM_ARGS, headless: true });
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

/** What a page script threw, in one line (a thrown string has no description). */
function thrownText(details: NonNullable<RuntimeEvaluation['exceptionDetails']>): string {
  const exception = details.exception;
  const said = exception?.description ?? (exception && 'value' in exception ? String(exception.value) : details.text);
  return said.split('\n')[0] ?? said;
}

class ChromiumTab implements PageTab {
  private loads = 0;
  private waiters: (() => void)[] = [];
  private refused = false;
  private cdp: Promise<CDPSession> | null = null;

  constructor(
    private readonly page: Page,
    private readonly origin: string,
    private readonly timeouts: PageTimeouts,
    cdp?: Promise<CDPSession>,
  ) {
    this.cdp = cdp ?? null;
    page.on('load', () => {
      this.loads++;
      for (const wake of this.waiters.splice(0)) wake();
    });
    page.on('requestfailed', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
        this.refused = true;
        for (const wake of this.waiters.splice(0)) wake();
      }
    });
    // The driver answers alert/confirm/prompt itself; a dialog opened before it ran is dismissed.
    page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
  }

  async load(path: string): Promise<void> {
    const url = new URL(path.replace(/^\/+/, ''), `${this.origin}/`).href;
    let response;
    try {
      response = await this.page.goto(url, { waitUntil: 'load', timeout: this.timeouts.loadMs });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (/timeout/i.test(message)) throw new PageError('page-timeout', `${path} did not finish loading in ${this.timeouts.loadMs / 1000} s`, { cause: error });
      throw new PageError('page-load', `${path} could not be loaded: ${message.split('\n')[0]}`, { cause: error });
    }
    if (response && !response.ok()) throw new PageError('page-load', `${path} answered ${response.status()} ${response.statusText()}`);
  }

  /**
   * One DevTools `Runtime.evaluate` in the page's main world, where the driver lives. Not
   * `page.evaluate`: its utility script and value serialisation cost Node and the renderer more
   * than the step itself on a single-widget page (the driver's answers are plain data).
   */
  private async runInPage(expression: string): Promise<unknown> {
    let evaluation: RuntimeEvaluation;
    try {
      this.cdp ??= this.page.context().newCDPSession(this.page);
      // userGesture: the driver's actions run with user activation, as page.evaluate's did.
      evaluation = (await (await this.cdp).send('Runtime.evaluate', { expression: inPage(expression), awaitPromise: true, returnByValue: true, userGesture: true })) as RuntimeEvaluation;
    } catch (error) {
      // Not the page's script but the call: the page, its context or its renderer went away.
      throw new PageError('page-crash', `the page went away during the call: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`, { cause: error });
    }
    if (evaluation.exceptionDetails) throw new Error(thrownText(evaluation.exceptionDetails));
    const { value, unserializableValue } = evaluation.result;
    return unserializableValue !== undefined ? Number(unserializableValue) : fromPage(value);
  }

  async evaluate<T>(expression: string): Promise<T> {
    const work = this.runInPage(expression) as Promise<T>;
    // runInPage already tells a page that went away (PageError) from the page's own exception (Error).
    return withTimeout(work, this.timeouts.callMs, () => new PageError('page-timeout', `the page did not answer in ${this.timeouts.callMs / 1000} s (a script that does not yield?)`));
  }

  async act<T extends { leaving: boolean }>(expression: string): Promise<{ result: T | null; navigated: boolean; refused: boolean }> {
    const before = this.loads;
    this.refused = false;
    let result: T | null = null;
    try {
      result = await this.evaluate<T>(expression);
    } catch (error) {
      // The page left while the handlers ran: the action navigated.
      if (!(error instanceof PageError && error.code === 'page-crash')) throw error;
    }
    if (result !== null && !result.leaving) return { result, navigated: false, refused: false };
    const arrived = (): boolean => this.loads > before || this.refused;
    if (!arrived()) {
      await withTimeout(new Promise<void>((resolve) => this.waiters.push(resolve)), this.timeouts.loadMs, () => new PageError('page-timeout', `the next page did not finish loading in ${this.timeouts.loadMs / 1000} s`));
    }
    // Left the site some other way (a script's `location = …`): the refused request left an error page; go back.
    if (this.refused || new URL(this.page.url()).origin !== this.origin) {
      await this.page.goBack({ waitUntil: 'load', timeout: this.timeouts.loadMs }).catch(() => null);
      return { result, navigated: false, refused: true };
    }
    return { result, navigated: this.loads > before, refused: false };
  }

  path(): string {
    const url = new URL(this.page.url());
    return url.origin === this.origin ? `${url.pathname}${url.search}` : '';
  }

  async goBack(): Promise<boolean> {
    try {
      const response = await this.page.goBack({ waitUntil: 'load', timeout: this.timeouts.loadMs });
      return response !== null;
    } catch (error) {
      throw new PageError('page-timeout', `going back did not finish loading: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`, { cause: error });
    }
  }

  async close(): Promise<void> {
    await this.page.close({ runBeforeUnload: false }).catch(() => undefined);
  }
}

class ChromiumHost implements PageHost {
  private browserCdp: Promise<CDPSession> | null = null;
  /** The windows already minimized: headless Chromium puts every tab in one. */
  private readonly minimized = new Set<number>();

  constructor(
    private readonly context: BrowserContext,
    private readonly origin: string,
    private readonly timeouts: PageTimeouts,
    private readonly stopServing: () => Promise<void>,
  ) {}

  async openTab(): Promise<PageTab> {
    const page = await this.context.newPage();
    // One DevTools session per tab: the window is found through it, and the tab's calls go over it.
    const cdp = this.context.newCDPSession(page);
    await this.minimize(cdp);
    return new ChromiumTab(page, this.origin, this.timeouts, cdp);
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
      this.browserCdp ??= (this.context.browser() as Browser).newBrowserCDPSession();
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
    await this.context.close().catch(() => undefined);
    await this.stopServing();
  }
}

/** Where the bundled sites live in the checkout (the build copies the same folder into dist/web). */
const BUNDLED_ROOT = fileURLToPath(new URL('../../../../public/web/', import.meta.url));

export const pageHostFactory: PageHostFactory = async (site, timeouts) => {
  if ('files' in site) throw new PageError('page-load', `the site "${site.files}" is a folder opened in the app; under Node, give its path (--site DIR)`);
  const root = 'root' in site ? site.root : path.join(BUNDLED_ROOT, site.bundled);
  // The browser (and the driver) first: where it cannot start, nothing else is left running (a
  // site server left listening kept the process from ever exiting).
  const [shared, driver] = await Promise.all([sharedBrowser(), pageDriverScript()]);
  const server = await serveFolder(root);
  let context: BrowserContext | null = null;
  try {
    context = await shared.newContext({ serviceWorkers: 'block' });
    await context.addInitScript({ content: driver });
    // A page may not leave the site: navigations and requests to any other origin fail.
    await context.route((url) => url.origin !== server.origin, (route) => route.abort('blockedbyclient'));
    return new ChromiumHost(context, server.origin, timeouts, server.close);
  } catch (error) {
    await context?.close().catch(() => undefined);
    await server.close();
    throw error;
  }
};
pageHostFactory.shutdown = closeSharedBrowser;
