/**
 * What a person sees of a page that its markup does not say, learned by watching the page's own
 * scripts from before they run (the driver is injected first): which elements got a click-type
 * listener of their own (`addEventListener`), and every shadow root, closed ones included (a closed
 * root hides its content from scripts, not from a person). Frameworks that bind handlers to the
 * element itself (jQuery, Vue, Angular, Svelte, plain scripts) are seen here; one that delegates
 * every event to its root (React) is not, and its clickable elements are found by their pointer
 * cursor or tabindex instead (observe.ts). It also counts the requests the page has in flight, so
 * an action can let the content they bring arrive before the page is read.
 */

/** Events a handler for "clicking this" listens to. */
const CLICK_EVENTS = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'touchend', 'dblclick']);

export interface PageSignals {
  /** The element has a click-type listener attached to it (not one inherited by delegation). */
  hasClickListener(element: Element): boolean;
  /** The element has a `click` listener itself: on a list, the handler of its items (delegation). */
  listensToClicks(element: Element): boolean;
  /** The element's shadow root, open or closed. */
  shadowRootOf(element: Element): ShadowRoot | null;
  /** Requests the page started (`fetch`, `XMLHttpRequest`) that have not ended yet. */
  requestsInFlight(): number;
  /**
   * History entries the page pushed (`history.pushState`: a client-side route) that a Back button
   * would return through, less the ones gone back through since (`popstate`).
   */
  pushedStates(): number;
  /** Starts counting pushed entries afresh (a new episode on the page already open). */
  forgetPushedStates(): void;
}

/**
 * Starts watching (once per window). The originals are kept and called as they were: a page sees
 * no difference, and a listener added twice or removed is counted as the DOM counts it, near
 * enough (by type, listener and capture).
 */
export function watchPage(win: Window & typeof globalThis): PageSignals {
  const listeners = new WeakMap<EventTarget, Set<string>>();
  const roots = new WeakMap<Element, ShadowRoot>();
  const ElementClass = win.Element;
  const target = win.EventTarget.prototype;
  const add = target.addEventListener;
  const remove = target.removeEventListener;
  const keyOf = (type: string, listener: unknown, options: unknown): string | null => {
    if (!CLICK_EVENTS.has(String(type)) || listener === null || listener === undefined) return null;
    const capture = typeof options === 'boolean' ? options : Boolean((options as { capture?: boolean } | undefined)?.capture);
    return `${String(type)}:${capture ? 1 : 0}:${listenerId(listener)}`;
  };
  const ids = new WeakMap<object, number>();
  let next = 1;
  const listenerId = (listener: unknown): number => {
    if (typeof listener !== 'object' && typeof listener !== 'function') return 0;
    let id = ids.get(listener as object);
    if (id === undefined) ids.set(listener as object, (id = next++));
    return id;
  };
  target.addEventListener = function (this: EventTarget, type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) {
    const key = this instanceof ElementClass ? keyOf(type, listener, options) : null;
    if (key !== null) {
      let keys = listeners.get(this);
      if (!keys) listeners.set(this, (keys = new Set()));
      keys.add(key);
    }
    return add.call(this, type, listener, options);
  };
  target.removeEventListener = function (this: EventTarget, type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions) {
    const key = keyOf(type, listener, options);
    if (key !== null) listeners.get(this)?.delete(key);
    return remove.call(this, type, listener, options);
  };
  let inFlight = 0;
  const ended = (): void => {
    inFlight = Math.max(0, inFlight - 1);
  };
  const fetchOf = win.fetch;
  if (typeof fetchOf === 'function') {
    win.fetch = function (this: unknown, ...args: Parameters<typeof fetch>) {
      inFlight++;
      let call: Promise<Response>;
      try {
        call = fetchOf.apply(this, args);
      } catch (error) {
        ended();
        throw error;
      }
      call.then(ended, ended);
      return call;
    } as typeof fetch;
  }
  const send = win.XMLHttpRequest?.prototype.send;
  if (send) {
    win.XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, body?: XMLHttpRequestBodyInit | null) {
      inFlight++;
      add.call(this, 'loadend', ended, { once: true });
      try {
        return send.call(this, body);
      } catch (error) {
        ended();
        throw error;
      }
    };
  }
  let pushed = 0;
  const history = win.history;
  const pushState = history.pushState;
  history.pushState = function (this: History, ...args: Parameters<History['pushState']>) {
    const result = pushState.apply(this, args);
    pushed++;
    return result;
  };
  add.call(win, 'popstate', () => {
    pushed = Math.max(0, pushed - 1);
  });
  const attach = ElementClass.prototype.attachShadow;
  ElementClass.prototype.attachShadow = function (this: Element, init: ShadowRootInit) {
    const root = attach.call(this, init);
    roots.set(this, root);
    return root;
  };
  return {
    hasClickListener: (element) => (listeners.get(element)?.size ?? 0) > 0,
    listensToClicks: (element) => [...(listeners.get(element) ?? [])].some((key) => key.startsWith('click:')),
    shadowRootOf: (element) => roots.get(element) ?? element.shadowRoot ?? null,
    requestsInFlight: () => inFlight,
    pushedStates: () => pushed,
    forgetPushedStates: () => {
      pushed = 0;
    },
  };
}

/** For a page the driver was not injected into first (nothing watched): only what the DOM says. */
export const UNWATCHED: PageSignals = {
  hasClickListener: () => false,
  listensToClicks: () => false,
  shadowRootOf: (element) => element.shadowRoot ?? null,
  requestsInFlight: () => 0,
  pushedStates: () => 0,
  forgetPushedStates: () => undefined,
};
