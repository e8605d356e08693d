/**
 * What a person does on a live page, turned into what the agent could have done (runs inside the
 * page): a click on a control is stopped before the page sees it and reported by the control's id,
 * so the host plays it as the env's action and the page reacts to that step, once; text a person
 * types (and an option they choose) reaches the page as typed and is reported when the field
 * changes, or on Enter. Two hosts listen: the app's Play view (through the frame bridge) and the
 * CLI's `record` (through a binding the Node host exposes). The driver's own actions are
 * synthetic (`isTrusted` false) and pass untouched.
 */
import type { PersonInput } from '../../../core/types.ts';
import type { ElementIds } from './observe.ts';

export type { PersonInput };

const TEXT_INPUT = /^(text|search|email|url|tel|password|number|date|time|datetime-local|month|week)$/;

function isTextField(element: Element): element is HTMLInputElement | HTMLTextAreaElement {
  return element.localName === 'textarea' || (element.localName === 'input' && TEXT_INPUT.test((element as HTMLInputElement).type)) || (element as HTMLElement).isContentEditable === true;
}

function fieldText(element: Element): string {
  return element.localName === 'input' || element.localName === 'textarea' ? (element as HTMLInputElement).value : (element.textContent ?? '');
}

/**
 * The nearest element (itself or an ancestor, across shadow roots) the driver has given an id:
 * what the person meant. The event's composed path starts inside shadow roots, where a listener on
 * the window sees only the host.
 */
function knownControl(ids: ElementIds, event: Event): { element: Element; id: number } | null {
  for (const target of event.composedPath()) {
    if (!(target as Element).localName) continue;
    const id = ids.known(target as Element);
    if (id !== undefined) return { element: target as Element, id };
  }
  return null;
}

/**
 * Reports a person's input with `send`; `ids` is read when a person acts. `listening` says whether
 * a host listens now: when none does, a person's input reaches the page as it would without us.
 */
export function capturePersonInput(ids: () => ElementIds, send: (input: PersonInput) => void, listening: () => boolean = () => true): void {
  // Clicks on controls are the env's to perform: stopped before the page's own handlers see them.
  window.addEventListener('click', (event) => {
    if (!event.isTrusted || !listening()) return;
    const control = knownControl(ids(), event);
    if (!control || isTextField(control.element) || control.element.localName === 'select') return;
    event.preventDefault();
    event.stopImmediatePropagation();
    send({ kind: 'click', id: control.id });
  }, true);
  window.addEventListener('change', (event) => {
    if (!event.isTrusted || !listening()) return;
    const control = knownControl(ids(), event);
    if (!control) return;
    const element = control.element;
    if (isTextField(element)) send({ kind: 'type', id: control.id, text: fieldText(element) });
    else if (element.localName === 'select') {
      const chosen = (element as HTMLSelectElement).selectedOptions[0];
      if (chosen) send({ kind: 'select', id: control.id, option: (chosen.label || chosen.text).trim() });
    }
  }, true);
  // A contenteditable region fires no `change`: what was typed is reported when it loses focus.
  window.addEventListener('focusout', (event) => {
    if (!event.isTrusted || !listening()) return;
    const control = knownControl(ids(), event);
    if (control && (control.element as HTMLElement).isContentEditable === true) send({ kind: 'type', id: control.id, text: fieldText(control.element) });
  }, true);
  window.addEventListener('keydown', (event) => {
    if (!event.isTrusted || !listening() || (event.key !== 'Enter' && event.key !== 'Escape')) return;
    const control = knownControl(ids(), event);
    if (!control) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    // What was typed first (a field's `change` comes only when it loses focus), then the key.
    if (event.key === 'Enter' && isTextField(control.element)) send({ kind: 'type', id: control.id, text: fieldText(control.element) });
    send({ kind: 'press', id: control.id, key: event.key });
  }, true);
}
