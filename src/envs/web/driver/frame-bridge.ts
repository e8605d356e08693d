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
import { capturePersonInput, type PersonInput } from './person-capture.ts';

export type { PersonInput };

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


export type FrameMessage =
  | { dreamgym: 'answer'; id: number; ok: true; value: unknown }
  | { dreamgym: 'answer'; id: number; ok: false; message: string }
  | { dreamgym: 'person'; input: PersonInput };

declare global {
  interface Window {
    __dreamgymFrame?: FrameConfig;
  }
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

  capturePersonInput(ids, (input) => post({ dreamgym: 'person', input }));
}
