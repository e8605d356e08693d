/**
 * The driver's side of the app's frame host (runs inside the page, only when the page is in one of
 * the app's frames). The app cannot call into a frame of another origin, so it posts calls and the
 * bridge answers them: `{ dreamgym: 'call', id, expression }` is evaluated in the page (as
 * Playwright's `evaluate` does under Node) and answered with `{ dreamgym: 'answer', id, ... }`.
 *
 * It also turns what a person does on the live page into what the agent could have done: a click
 * on a control is stopped before the page sees it and posted as `{ dreamgym: 'person', input }`;
 * the app maps it to an admissible action and plays it through the env, so the page reacts to the
 * env's step, once, and the step is the one recorded. Text a person types (and an option they
 * choose) reaches the page as typed; it is posted when the field changes.
 */
import type { ElementIds } from './observe.ts';

/** How the host put the page in its frame: at its own URL (a bundled page), or written into a sandboxed frame. */
export interface FrameConfig {
  mode: 'url' | 'srcdoc';
  /** srcdoc: the page's path in its site (`pages/a.html`): `location` cannot say it. */
  path?: string;
  /** url: the path the site is served under (`/web/suite/`): paths are shown from the site's root, as under Node. */
  root?: string;
  /** srcdoc: the made-up origin the page's links resolve against (its `<base>`). */
  siteOrigin?: string;
}

/** What a person did on the live page, by the element's id (the app maps it to an admissible action). */
export type PersonInput =
  | { kind: 'click'; id: number }
  | { kind: 'type'; id: number; text: string }
  | { kind: 'select'; id: number; option: string }
  | { kind: 'press'; id: number; key: string };

export type FrameMessage =
  | { dreamgym: 'answer'; id: number; ok: true; value: unknown }
  | { dreamgym: 'answer'; id: number; ok: false; message: string }
  | { dreamgym: 'person'; input: PersonInput };

declare global {
  interface Window {
    __dreamgymFrame?: FrameConfig;
  }
}

const TEXT_INPUT = /^(text|search|email|url|tel|password|number|date|time|datetime-local|month|week)$/;

function isTextField(element: Element): element is HTMLInputElement | HTMLTextAreaElement {
  return element instanceof HTMLTextAreaElement || (element instanceof HTMLInputElement && TEXT_INPUT.test(element.type));
}

/** The nearest element (itself or an ancestor) the driver has given an id: what the person meant. */
function knownControl(ids: ElementIds, target: EventTarget | null): { element: Element; id: number } | null {
  for (let element = target instanceof Element ? target : null; element; element = element.parentElement) {
    const id = ids.known(element);
    if (id !== undefined) return { element, id };
  }
  return null;
}

function post(message: FrameMessage): void {
  try {
    window.parent.postMessage(message, '*');
  } catch (error) {
    // A value the structured clone cannot copy: answer with why instead.
    if (message.dreamgym === 'answer') window.parent.postMessage({ dreamgym: 'answer', id: message.id, ok: false, message: `the page's answer could not be sent: ${String(error)}` } satisfies FrameMessage, '*');
  }
}

/** Answers the host's calls and reports a person's input; `ids` is read when a person acts. */
export function installFrameBridge(ids: () => ElementIds): void {
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const data = event.data as { dreamgym?: string; id?: number; expression?: string } | null;
    if (data?.dreamgym !== 'call' || typeof data.id !== 'number' || typeof data.expression !== 'string') return;
    const id = data.id;
    // Indirect eval: the expression runs in the page's global scope, as the Node host's evaluate does.
    new Promise((resolve) => resolve((0, eval)(data.expression as string))).then(
      (value) => post({ dreamgym: 'answer', id, ok: true, value }),
      (error: unknown) => post({ dreamgym: 'answer', id, ok: false, message: String((error as Error | null)?.message ?? error) }),
    );
  });

  const person = (input: PersonInput): void => post({ dreamgym: 'person', input });
  // Clicks on controls are the env's to perform: stopped before the page's own handlers see them.
  window.addEventListener('click', (event) => {
    if (!event.isTrusted) return;
    const control = knownControl(ids(), event.target);
    if (!control || isTextField(control.element) || control.element instanceof HTMLSelectElement) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    person({ kind: 'click', id: control.id });
  }, true);
  window.addEventListener('change', (event) => {
    if (!event.isTrusted) return;
    const control = knownControl(ids(), event.target);
    if (!control) return;
    const element = control.element;
    if (isTextField(element)) person({ kind: 'type', id: control.id, text: element.value });
    else if (element instanceof HTMLSelectElement) {
      const chosen = element.selectedOptions[0];
      if (chosen) person({ kind: 'select', id: control.id, option: (chosen.label || chosen.text).trim() });
    }
  }, true);
  window.addEventListener('keydown', (event) => {
    if (!event.isTrusted || (event.key !== 'Enter' && event.key !== 'Escape')) return;
    const control = knownControl(ids(), event.target);
    if (!control) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    // What was typed first (a field's `change` comes only when it loses focus), then the key.
    if (event.key === 'Enter' && isTextField(control.element)) person({ kind: 'type', id: control.id, text: control.element.value });
    person({ kind: 'press', id: control.id, key: event.key });
  }, true);
}
