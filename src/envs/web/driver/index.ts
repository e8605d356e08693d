/**
 * The page driver's entry point: bundled into one script that a host injects into every page
 * before the page's own scripts run (the Node host with Playwright's init script; the app's
 * frame host inside the frame). It installs `window.__dreamgym` with what the host calls, and
 * answers the page's `alert` / `confirm` / `prompt` itself (an open dialog would block the page),
 * keeping the message for the next snapshot.
 */
import type { PageAction } from '../actions.ts';
import { HOST_NUMBER_TAG } from '../host-value.ts';
import { MAX_PAGE_ERRORS, clean, type PageSnapshot } from '../snapshot.ts';
import { act, type ActOutcome } from './act.ts';
import { installFrameBridge } from './frame-bridge.ts';
import { capturePersonInput, type PersonInput } from './person-capture.ts';
import { ElementIds, observe, type ObserveLimits, type SignalsOf } from './observe.ts';
import { UNWATCHED, watchPage, type PageSignals } from './page-signals.ts';

export interface PageDriver {
  observe(limits: ObserveLimits): PageSnapshot;
  /**
   * Performs the action, then lets the page's handlers and the tasks they queue run. `leaving`
   * says the page started to unload (a link, a form post): the host waits for the next page.
   * `navigate` is the site path a link or form asked for where the host loads pages itself (a
   * page written into a sandboxed frame cannot navigate to its site's other pages).
   */
  act(action: Exclude<PageAction, { verb: 'back' }>): Promise<ActOutcome & { leaving: boolean; refused?: string; navigate?: string }>;
  /** What the driver watched in this window since before the page's scripts ran (a parent frame reads an iframe's through it). */
  signals: PageSignals;
  /** Goes back through a route the page pushed (a single-page app's Back button), as `act` does an action. */
  back(): Promise<ActOutcome & { leaving: boolean }>;
  /** The page started to unload (a parent frame waits for an iframe that navigates). */
  isLeaving(): boolean;
  /** Errors the page's own scripts threw since the last call (uncaught errors, rejections). */
  takeErrors(): string[];
  /**
   * A new episode on the page already open: ids start again from 1, so an instance reads the same
   * whatever ran before it in the tab (a fresh page would number it the same way).
   */
  restart(): void;
  /**
   * `value` as plain data for a host that takes answers as JSON-like values (the Node host's
   * DevTools call): NaN and the infinities tagged as `{ [HOST_NUMBER_TAG]: 'NaN' }` (plain JSON
   * would make them null), a bigint as its text, functions and symbols left out. Built with the
   * builtins as they were before the page's own scripts ran, and blind to `toJSON`, so a page that
   * replaces `JSON.stringify` or gives arrays a `toJSON` (old Prototype.js) cannot bend its answers.
   */
  forHost(value: unknown): unknown;
}

declare global {
  interface Window {
    __dreamgym?: PageDriver;
    /** Exposed by the Node host while a person is recorded (`record`): what they did, for the host to play. */
    __dreamgymPerson?: (input: PersonInput) => unknown;
  }
}

/** One macrotask: the handlers' timers of 0 ms and their promise chains have run. */
function yieldTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

/** How long `wait` lets the page's timers and requests run at most, for the page to change. */
const WAIT_MS = 1000;
/** How long an action waits at most for the requests it started (content a click fetches). */
const REQUESTS_MS = 1000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The same-origin iframes of the page, whose documents the driver reads. */
function sameOriginFrames(): HTMLIFrameElement[] {
  return [...document.querySelectorAll('iframe')].filter((frame) => {
    try {
      return frame.contentDocument !== null;
    } catch {
      return false;
    }
  });
}

/** Until every iframe that started to navigate has loaded its next page, or `ms` passed: a person sees the frame's next page. */
async function framesLoaded(ms: number): Promise<void> {
  const leaving = sameOriginFrames().filter((frame) => (frame.contentWindow as Window | null)?.__dreamgym?.isLeaving() === true);
  if (leaving.length === 0) return;
  await Promise.race([Promise.all(leaving.map((frame) => new Promise((resolve) => frame.addEventListener('load', resolve, { once: true })))), sleep(ms)]);
  await yieldTask();
}

/** Until the page has no request in flight, or `ms` passed. */
async function requestsSettled(signals: PageSignals, ms: number): Promise<void> {
  const until = performance.now() + ms;
  while (signals.requestsInFlight() > 0 && performance.now() < until) await sleep(20);
}

/**
 * The `wait` action: until the page changes (a timer or a request's answer rendered something)
 * and its requests are over, or WAIT_MS passed.
 */
async function waitForChange(signals: PageSignals): Promise<void> {
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, WAIT_MS);
    const observer = new MutationObserver(() => done());
    const watch = { subtree: true, childList: true, attributes: true, characterData: true };
    observer.observe(document, watch);
    // A same-origin iframe's document changes, or the frame loads its next page.
    const frames = sameOriginFrames();
    for (const frame of frames) {
      if (frame.contentDocument) observer.observe(frame.contentDocument, watch);
      frame.addEventListener('load', done, { once: true });
    }
    function done(): void {
      clearTimeout(timer);
      observer.disconnect();
      for (const frame of frames) frame.removeEventListener('load', done);
      resolve();
    }
  });
  await requestsSettled(signals, Math.max(0, WAIT_MS - (performance.now() - started)));
  await yieldTask();
}

// Taken when the driver is injected, before any script of the page runs.
const isArray = Array.isArray;
const ownKeys = Object.keys;
const finite = Number.isFinite;
const text = String;

function forHost(value: unknown, depth = 0): unknown {
  if (typeof value === 'number') return finite(value) ? value : { [HOST_NUMBER_TAG]: text(value) };
  if (typeof value === 'bigint') return `${text(value)}n`;
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (value === null || typeof value !== 'object') return value;
  // Deeper than any answer of the driver's: a cycle, cut rather than followed.
  if (depth > 32) return null;
  if (isArray(value)) {
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) out[i] = forHost(value[i], depth + 1);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key of ownKeys(value)) out[key] = forHost((value as Record<string, unknown>)[key], depth + 1);
  return out;
}

function install(): void {
  if (window.__dreamgym) return;
  const signals = watchPage(window);
  // An iframe of the page has its own driver (the host injects it into every frame) and its own signals.
  const signalsOf: SignalsOf = (doc) => (doc === document ? signals : ((doc.defaultView as Window | null)?.__dreamgym?.signals ?? UNWATCHED));
  let ids = new ElementIds();
  const errors: string[] = [];
  let dialog: string | undefined;
  let leaving = false;
  const remember = (kind: string) => (message?: unknown): void => {
    dialog = `${kind}: ${clean(String(message ?? '').slice(0, 4_000), 200)}`;
  };
  const alertSeen = remember('alert');
  const confirmSeen = remember('confirm');
  const promptSeen = remember('prompt');
  window.alert = (message?: unknown) => alertSeen(message);
  // A person answering "OK": the page goes on as it would.
  window.confirm = (message?: string) => (confirmSeen(message), true);
  window.prompt = (message?: string, fallback?: string) => (promptSeen(message), fallback ?? '');
  // The first MAX_PAGE_ERRORS kept, the rest counted: a page that throws on every frame threw thousands between two steps.
  let moreErrors = 0;
  const pageError = (said: unknown): void => {
    if (errors.length < MAX_PAGE_ERRORS) errors.push(clean(String(said).slice(0, 4_000), 200));
    else moreErrors++;
  };
  window.addEventListener('error', (event) => pageError(event.message));
  window.addEventListener('unhandledrejection', (event) => pageError(event.reason));
  let refused: string | undefined;
  let navigate: string | undefined;
  const frame = window.__dreamgymFrame;
  // A page written into the app's sandboxed frame has no URL of its own: its links resolve against
  // a made-up origin (its `<base>`), which is its site; the host loads the page a link asks for.
  const written = frame?.mode === 'srcdoc' && frame.siteOrigin !== undefined ? frame.siteOrigin : null;
  const siteOrigin = written ?? location.origin;
  const target = (url: string): URL | null => {
    try {
      return new URL(url, document.baseURI);
    } catch {
      return null;
    }
  };
  // A page may not leave its site: a link or a form to another origin does nothing (the host
  // also goes back from any other way out, a script's `location = …`).
  const leave = (event: Event, url: string): void => {
    const to = target(url);
    if (!to || (to.protocol !== 'http:' && to.protocol !== 'https:')) return;
    if (to.origin !== siteOrigin) {
      event.preventDefault();
      refused = to.href;
    } else if (written !== null) {
      event.preventDefault();
      navigate = `${to.pathname.replace(/^\/+/, '')}${to.search}`;
    }
  };
  // The page's path from its site's root, whichever host serves it.
  const sitePath = (): string => {
    if (written !== null) return `/${frame?.path ?? ''}`;
    const root = frame?.root;
    const path = location.pathname;
    return `${root && path.startsWith(root) ? `/${path.slice(root.length)}` : path}${location.search}`;
  };
  // After the page's own handlers (a page that routes its links itself has prevented the default).
  window.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
    if (link && !event.defaultPrevented && !link.getAttribute('href')?.startsWith('#')) leave(event, link.href);
  });
  window.addEventListener('submit', (event) => {
    if (!event.defaultPrevented) leave(event, (event.target as HTMLFormElement).action);
  });
  window.addEventListener('beforeunload', () => (leaving = true));
  window.addEventListener('pagehide', () => (leaving = true));

  window.__dreamgym = {
    observe(limits) {
      const snapshot: PageSnapshot = observe(ids, limits, sitePath(), signalsOf);
      if (dialog !== undefined) snapshot.dialog = dialog;
      dialog = undefined;
      return snapshot;
    },
    async act(action) {
      leaving = false;
      refused = undefined;
      navigate = undefined;
      let outcome: ActOutcome = { ok: true };
      if (action.verb === 'wait') await waitForChange(signals);
      else outcome = act(ids, action);
      await yieldTask();
      await yieldTask();
      // Content a click asked the server for, and the next page of a frame it navigated, arrive before the page is read (a person waits for them too).
      if (!leaving) await framesLoaded(REQUESTS_MS);
      if (signals.requestsInFlight() > 0 && !leaving) {
        await requestsSettled(signals, REQUESTS_MS);
        await yieldTask();
      }
      return { ...outcome, leaving: leaving || navigate !== undefined, ...(refused !== undefined ? { refused } : {}), ...(navigate !== undefined ? { navigate } : {}) };
    },
    takeErrors() {
      const taken = errors.splice(0);
      if (moreErrors > 0) taken.push(`and ${moreErrors} more`);
      moreErrors = 0;
      return taken;
    },
    async back() {
      leaving = false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, REQUESTS_MS);
        window.addEventListener('popstate', done, { once: true });
        function done(): void {
          clearTimeout(timer);
          window.removeEventListener('popstate', done);
          resolve();
        }
        history.back();
      });
      await yieldTask();
      await yieldTask();
      return { ok: true, leaving };
    },
    isLeaving: () => leaving,
    restart() {
      ids = new ElementIds();
      signals.forgetPushedStates();
      errors.splice(0);
      moreErrors = 0;
      dialog = undefined;
    },
    forHost: (value) => forHost(value),
    signals,
  };
  if (frame) installFrameBridge(() => ids);
  // Under Node, a person's input is taken only while the host records them (it exposes the binding then).
  else capturePersonInput(() => ids, (input) => void window.__dreamgymPerson?.(input), () => typeof window.__dreamgymPerson === 'function');
}

install();
