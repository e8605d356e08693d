/**
 * The app's pages live in frames on the app's page, but its envs run in workers (play, training,
 * evaluation), which have no DOM. `PageFramesApi` is what the page offers a worker over a
 * MessagePort (comlink): tabs by number, every answer plain data. `remotePageHost` turns it back
 * into the `PageHost` contract the env speaks, so a `WebEnv` in a worker drives frames on the page
 * exactly as it drives Chromium tabs under Node. (src/envs/web/frame/ is the page's side.)
 */
import { wrap } from 'comlink';
import { PageError, type PageHost, type PageTab, type PageTimeouts, type SiteSource } from './host.ts';

/** A failure as data: a PageError's code and message survive the port (an Error's class would not). */
export type FrameAnswer<T> = { ok: true; value: T } | { ok: false; code: 'page-load' | 'page-timeout' | 'page-crash' | 'error'; message: string };

export interface FrameActResult {
  result: unknown;
  navigated: boolean;
  refused: boolean;
  path: string;
}

export interface PageFramesApi {
  openTab(site: SiteSource, timeouts: PageTimeouts): Promise<FrameAnswer<{ tab: number }>>;
  load(tab: number, path: string): Promise<FrameAnswer<{ path: string }>>;
  evaluate(tab: number, expression: string): Promise<FrameAnswer<unknown>>;
  act(tab: number, expression: string): Promise<FrameAnswer<FrameActResult>>;
  goBack(tab: number): Promise<FrameAnswer<{ went: boolean; path: string }>>;
  /** The tab's page as PNG bytes (frame/page-picture.ts). */
  screenshot(tab: number): Promise<FrameAnswer<Uint8Array>>;
  closeTab(tab: number): Promise<void>;
}

function unwrap<T>(answer: FrameAnswer<T>): T {
  if (answer.ok) return answer.value;
  if (answer.code === 'error') throw new Error(answer.message);
  throw new PageError(answer.code, answer.message);
}

/** A frame on the page, seen from a worker. `path()` is synchronous in the contract: it is kept from each answer. */
class RemoteTab implements PageTab {
  private current = '';

  constructor(
    private readonly frames: PageFramesApi,
    private readonly tab: number,
  ) {}

  async load(path: string): Promise<void> {
    try {
      this.current = unwrap(await this.frames.load(this.tab, path)).path;
    } catch (error) {
      // A page that timed out is still there, read as it stands.
      if (error instanceof PageError && error.code === 'page-timeout') this.current = `/${path.replace(/^\/+/, '')}`;
      throw error;
    }
  }

  async evaluate<T>(expression: string): Promise<T> {
    return unwrap(await this.frames.evaluate(this.tab, expression)) as T;
  }

  async act<T extends { leaving: boolean }>(expression: string): Promise<{ result: T | null; navigated: boolean; refused: boolean }> {
    const done = unwrap(await this.frames.act(this.tab, expression));
    this.current = done.path;
    return { result: done.result as T | null, navigated: done.navigated, refused: done.refused };
  }

  path(): string {
    return this.current;
  }

  async goBack(): Promise<boolean> {
    const back = unwrap(await this.frames.goBack(this.tab));
    this.current = back.path;
    return back.went;
  }

  async screenshot(): Promise<Uint8Array> {
    return unwrap(await this.frames.screenshot(this.tab));
  }

  async close(): Promise<void> {
    await this.frames.closeTab(this.tab);
  }
}

/** The `PageHost` of one site over the page's frames. */
export function remotePageHost(frames: PageFramesApi, site: SiteSource, timeouts: PageTimeouts): PageHost {
  const tabs = new Set<RemoteTab>();
  return {
    async openTab() {
      const opened = unwrap(await frames.openTab(site, timeouts));
      const tab = new RemoteTab(frames, opened.tab);
      tabs.add(tab);
      return tab;
    },
    async close() {
      await Promise.all([...tabs].map((tab) => tab.close()));
      tabs.clear();
    },
  };
}

let attached: PageFramesApi | null = null;

/**
 * Gives this worker the page's frames: a MessagePort the page exposes its `PageFramesApi` on
 * (the app does it when it starts a worker), or the api itself (a test on the page).
 */
export function attachPageFrames(frames: MessagePort | PageFramesApi): void {
  attached = frames instanceof MessagePort ? (wrap<PageFramesApi>(frames) as unknown as PageFramesApi) : frames;
}

/** The page's frames, once attached. */
export function pageFrames(): PageFramesApi | null {
  return attached;
}
