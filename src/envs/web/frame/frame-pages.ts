/**
 * The app's page host: each tab is an iframe on the app's page, where a person can watch it and
 * act on it. Workers reach it through `PageFramesApi` (page-frames.ts).
 *
 * Two kinds of site, two kinds of frame:
 * - a bundled site (`public/web/<name>`, written here) opens at its own URL on the app's origin,
 *   sandboxed but with `allow-same-origin`: its pages navigate as pages do and keep an episode in
 *   sessionStorage; the driver is injected when a page has loaded (our pages act only when called).
 * - a folder the person opened is written into a frame sandboxed without `allow-same-origin`
 *   (written-page.ts): an opaque origin, so the app's IndexedDB and storage are out of its reach.
 *
 * Either way the page answers through postMessage (driver/frame-bridge.ts), every call under the
 * watchdog: a page that does not answer in time is removed (and the env opens a fresh frame).
 */
import type { FrameConfig, FrameMessage, PersonInput } from '../driver/frame-bridge.ts';
import { PageError, type PageTimeouts, type SiteSource } from '../host.ts';
import type { FrameActResult, FrameAnswer, PageFramesApi } from '../page-frames.ts';
import { pictureBytes, pictureExpression } from './page-picture.ts';
import { writtenPage, type SiteFiles } from './written-page.ts';

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/** What a person did on a tab's page, for the view that shows it. */
export type PersonListener = (input: PersonInput, tab: number) => void;

class FrameTab {
  iframe: HTMLIFrameElement | null = null;
  /** Pages loaded so far, for `go back` (the tab keeps its own history, so the app's is untouched). */
  readonly history: string[] = [];
  path = '';
  loads = 0;
  /** The page left the site (or a written page navigated by itself): it must be put back. */
  strayed = false;
  readonly pending = new Map<number, Pending>();
  private waiters: (() => void)[] = [];

  constructor(
    readonly number: number,
    readonly site: SiteSource,
    readonly timeouts: PageTimeouts,
  ) {}

  loaded(): void {
    this.loads++;
    // Calls sent to the page that went away will never be answered.
    this.failPending('the page went away during the call');
    for (const wake of this.waiters.splice(0)) wake();
  }

  private failPending(why: string): void {
    for (const call of this.pending.values()) {
      clearTimeout(call.timer);
      call.reject(new PageError('page-crash', why));
    }
    this.pending.clear();
  }

  /** Resolves at the next load, or rejects after the load watchdog. */
  nextLoad(what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== wake);
        reject(new PageError('page-timeout', `${what} did not finish loading in ${this.timeouts.loadMs / 1000} s`));
      }, this.timeouts.loadMs);
      const wake = (): void => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push(wake);
    });
  }

  remove(): void {
    this.failPending('the page\'s frame was closed');
    this.iframe?.remove();
    this.iframe = null;
  }
}

function failure(error: unknown): FrameAnswer<never> {
  if (error instanceof PageError) return { ok: false, code: error.code as 'page-load' | 'page-timeout' | 'page-crash', message: error.message };
  return { ok: false, code: 'error', message: error instanceof Error ? error.message : String(error) };
}

async function answer<T>(work: () => Promise<T>): Promise<FrameAnswer<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return failure(error);
  }
}

export class FramePages implements PageFramesApi {
  private readonly tabs = new Map<number, FrameTab>();
  private readonly sites = new Map<string, SiteFiles>();
  private readonly listeners = new Set<PersonListener>();
  private nextTab = 1;
  private nextCall = 1;
  private stage: HTMLElement | null = null;
  private hidden: HTMLElement | null = null;

  /**
   * `driver` is the page driver's bundle (one classic script); `bundledRoot` the URL the bundled
   * sites are served under (the app's `web/`); `rasteriser` the source that pictures a page
   * (page-picture.ts), without which `screenshot` says the pages cannot be pictured.
   */
  constructor(
    private readonly driver: string,
    private readonly bundledRoot: string,
    private readonly rasteriser?: string,
  ) {
    window.addEventListener('message', (event) => this.heard(event));
  }

  /** The files of a folder the person opened, under its site's name (a `{ files: name }` source). */
  addSite(name: string, files: SiteFiles): void {
    this.sites.set(name, files);
  }

  /** Where new frames go (a view's live-page panel); null puts them out of sight. Frames already open stay where they are. */
  showIn(element: HTMLElement | null): void {
    this.stage = element;
  }

  /** Hear what a person does on a page; returns a function that stops listening. */
  onPerson(listener: PersonListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async openTab(site: SiteSource, timeouts: PageTimeouts): Promise<FrameAnswer<{ tab: number }>> {
    return answer(async () => {
      if ('root' in site) throw new Error(`the app cannot open a folder by its path (${site.root}); open the folder in the Play view`);
      if ('url' in site) throw new Error(`the app cannot play a running app (${site.url}); play it with the CLI (--site)`);
      if ('files' in site && !this.sites.has(site.files)) throw new PageError('page-load', `the site "${site.files}" is not open in this page; open its folder again`);
      const tab = this.nextTab++;
      this.tabs.set(tab, new FrameTab(tab, site, timeouts));
      return { tab };
    });
  }

  async load(tab: number, path: string): Promise<FrameAnswer<{ path: string }>> {
    return answer(async () => {
      const frame = this.tab(tab);
      await this.open(frame, path);
      frame.history.splice(0, frame.history.length, frame.path);
      return { path: frame.path };
    });
  }

  async evaluate(tab: number, expression: string): Promise<FrameAnswer<unknown>> {
    return answer(() => this.call(this.tab(tab), expression));
  }

  async act(tab: number, expression: string): Promise<FrameAnswer<FrameActResult>> {
    return answer(async () => {
      const frame = this.tab(tab);
      const before = frame.loads;
      type Acted = { leaving?: boolean; navigate?: string };
      let result = null as Acted | null;
      try {
        result = (await this.call(frame, expression)) as Acted | null;
      } catch (error) {
        // The page left while its handlers ran: the action navigated.
        if (!(error instanceof PageError && error.code === 'page-crash' && frame.iframe)) throw error;
      }
      if (typeof result?.navigate === 'string') {
        await this.open(frame, result.navigate);
        frame.history.push(frame.path);
        return { result, navigated: true, refused: false, path: frame.path };
      }
      if (result !== null && !result.leaving && frame.loads === before) return { result, navigated: false, refused: false, path: frame.path };
      if (frame.loads === before) await frame.nextLoad('the next page');
      if (frame.strayed) {
        // It left the site (or navigated where a written page cannot go): put the page back.
        await this.open(frame, frame.history.at(-1) ?? frame.path);
        return { result, navigated: false, refused: true, path: frame.path };
      }
      frame.history.push(frame.path);
      return { result, navigated: true, refused: false, path: frame.path };
    });
  }

  async goBack(tab: number): Promise<FrameAnswer<{ went: boolean; path: string }>> {
    return answer(async () => {
      const frame = this.tab(tab);
      if (frame.history.length < 2) return { went: false, path: frame.path };
      frame.history.pop();
      await this.open(frame, frame.history.at(-1) as string);
      return { went: true, path: frame.path };
    });
  }

  /**
   * The tab's page as PNG bytes, drawn inside the page (page-picture.ts). A picture that takes too
   * long fails, but leaves the frame: drawing is slow work that yields, not a page that spins, and
   * a page that does spin is removed by the env's next call.
   */
  async screenshot(tab: number): Promise<FrameAnswer<Uint8Array>> {
    return answer(async () => {
      if (this.rasteriser === undefined) throw new Error('this page host was made without a rasteriser, so it cannot picture pages');
      return pictureBytes(await this.call(this.tab(tab), pictureExpression(this.rasteriser), { removeOnTimeout: false }));
    });
  }

  async closeTab(tab: number): Promise<void> {
    this.tabs.get(tab)?.remove();
    this.tabs.delete(tab);
  }

  private tab(tab: number): FrameTab {
    const frame = this.tabs.get(tab);
    if (!frame) throw new PageError('page-crash', `tab ${tab} is closed`);
    return frame;
  }

  private place(): HTMLElement {
    if (this.stage?.isConnected) return this.stage;
    if (!this.hidden?.isConnected) {
      // Out of sight but rendered: the driver reads only what is visible.
      this.hidden = document.createElement('div');
      this.hidden.setAttribute('aria-hidden', 'true');
      this.hidden.style.cssText = 'position:fixed;left:-12000px;top:0;width:1024px;height:768px;overflow:hidden;';
      document.body.append(this.hidden);
    }
    return this.hidden;
  }

  /** A fresh frame on `path` (a written page needs one; a bundled one gets one too, so nothing of the last page lingers). */
  private async open(frame: FrameTab, path: string): Promise<void> {
    const site = frame.site;
    const file = path.replace(/^\/+/, '');
    frame.remove();
    frame.strayed = false;
    const iframe = document.createElement('iframe');
    iframe.className = 'live-page';
    iframe.title = `page ${file}`;
    // The frame's name outlives its pages (what a site keys its per-tab storage by: the app's frames share one sessionStorage).
    iframe.name = `dreamgym-tab-${frame.number}`;
    frame.iframe = iframe;
    const loaded = frame.nextLoad(file);
    if ('bundled' in site) {
      const root = new URL(`${site.bundled}/`, this.bundledRoot);
      iframe.setAttribute('sandbox', 'allow-scripts allow-forms allow-same-origin');
      iframe.addEventListener('load', () => {
        this.injectDriver(frame, iframe, root);
        frame.loaded();
      });
      iframe.src = new URL(file, root).href;
    } else {
      const files = 'files' in site ? this.sites.get(site.files) : undefined;
      if (!files) throw new PageError('page-load', 'the site\'s folder is not open in this page; open it again');
      const html = await writtenPage(files, file, this.driver);
      iframe.setAttribute('sandbox', 'allow-scripts allow-forms');
      let first = true;
      iframe.addEventListener('load', () => {
        // A second load is the page navigating by itself, to a URL a written page cannot reach.
        if (!first) frame.strayed = true;
        first = false;
        frame.loaded();
      });
      iframe.srcdoc = html;
      frame.path = `/${file.split(/[?#]/)[0] as string}`;
    }
    this.place().append(iframe);
    await loaded;
  }

  /** A bundled page has loaded: give it the driver, and learn where it is (or that it left the site). */
  private injectDriver(frame: FrameTab, iframe: HTMLIFrameElement, root: URL): void {
    let doc: Document | null;
    try {
      doc = iframe.contentDocument;
    } catch {
      doc = null; // another origin's page
    }
    const win = iframe.contentWindow as (Window & typeof globalThis) | null;
    const url = doc && win ? new URL(win.location.href) : null;
    if (!doc || !win || !url || url.origin !== root.origin || !url.pathname.startsWith(root.pathname)) {
      frame.strayed = true;
      return;
    }
    frame.path = `/${url.pathname.slice(root.pathname.length)}${url.search}`;
    const config: FrameConfig = { mode: 'url', root: root.pathname };
    win.__dreamgymFrame = config;
    const script = doc.createElement('script');
    script.textContent = this.driver;
    (doc.head ?? doc.documentElement).append(script);
  }

  private call(frame: FrameTab, expression: string, { removeOnTimeout = true } = {}): Promise<unknown> {
    const target = frame.iframe?.isConnected ? frame.iframe.contentWindow : null;
    if (!target) return Promise.reject(new PageError('page-crash', 'the page\'s frame was closed'));
    const id = this.nextCall++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        frame.pending.delete(id);
        // A page that does not answer is spinning or gone: removing its frame stops it.
        if (removeOnTimeout) frame.remove();
        reject(new PageError('page-timeout', `the page did not answer in ${frame.timeouts.callMs / 1000} s (a script that does not yield?)`));
      }, frame.timeouts.callMs);
      frame.pending.set(id, { resolve, reject, timer });
      target.postMessage({ dreamgym: 'call', id, expression }, '*');
    });
  }

  private heard(event: MessageEvent): void {
    const data = event.data as FrameMessage | null;
    if (typeof data !== 'object' || data === null || typeof data.dreamgym !== 'string') return;
    for (const [number, frame] of this.tabs) {
      if (!frame.iframe || event.source !== frame.iframe.contentWindow) continue;
      if (data.dreamgym === 'answer') {
        const call = frame.pending.get(data.id);
        if (!call) return;
        frame.pending.delete(data.id);
        clearTimeout(call.timer);
        if (data.ok) call.resolve(data.value);
        else call.reject(new Error(data.message));
      } else if (data.dreamgym === 'person') {
        for (const listener of this.listeners) listener(data.input, number);
      }
      return;
    }
  }
}
