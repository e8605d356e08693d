/**
 * Performing an action on a live page (runs inside the page) as the DOM events a person's input
 * makes, so page scripts react as they do for a person: pointer and mouse events then the
 * element's activation (`click()`: a link follows, a checkbox toggles, a submit button submits);
 * a field's value set through the native setter (frameworks that wrap it see the change) with
 * `input` and `change`; keys as keydown / keypress / keyup, Enter submitting the field's form as
 * a browser's implicit submission does. An element that is gone, hidden or disabled is refused
 * with the reason, and the page is left as it was.
 */
import type { PageAction } from '../actions.ts';
import type { ElementIds } from './observe.ts';

export type ActOutcome = { ok: true } | { ok: false; reason: string };

function describe(element: Element, id: number): string {
  return `#${id} (${element.localName})`;
}

/** The window the element lives in (an iframe's element has its own: its classes and its events). */
function windowOf(element: Element): Window & typeof globalThis {
  return (element.ownerDocument.defaultView ?? window) as Window & typeof globalThis;
}

function isHtml(element: Element): element is HTMLElement {
  return typeof (element as HTMLElement).focus === 'function' && typeof (element as HTMLElement).click === 'function';
}

function pointerSequence(element: Element): void {
  element.scrollIntoView?.({ block: 'center', inline: 'center' });
  const box = element.getBoundingClientRect();
  const view = windowOf(element);
  const { PointerEvent, MouseEvent } = view;
  const at = { bubbles: true, cancelable: true, composed: true, clientX: box.left + box.width / 2, clientY: box.top + box.height / 2, view };
  element.dispatchEvent(new PointerEvent('pointerover', at));
  element.dispatchEvent(new MouseEvent('mouseover', at));
  element.dispatchEvent(new PointerEvent('pointerdown', { ...at, button: 0, buttons: 1, isPrimary: true }));
  element.dispatchEvent(new MouseEvent('mousedown', { ...at, button: 0, buttons: 1 }));
  if (isHtml(element)) element.focus({ preventScroll: true });
  element.dispatchEvent(new PointerEvent('pointerup', { ...at, button: 0, isPrimary: true }));
  element.dispatchEvent(new MouseEvent('mouseup', { ...at, button: 0 }));
}

function click(element: Element): void {
  pointerSequence(element);
  if (isHtml(element)) element.click();
  else element.dispatchEvent(new (windowOf(element).MouseEvent)('click', { bubbles: true, cancelable: true, composed: true }));
}

function setValue(element: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  const view = windowOf(element);
  const proto = element.localName === 'textarea' ? view.HTMLTextAreaElement.prototype : view.HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  if (setter) setter.call(element, value);
  else element.value = value;
}

function type(element: Element, text: string): ActOutcome {
  const { InputEvent, Event } = windowOf(element);
  if (element.localName === 'input' || element.localName === 'textarea') {
    const field = element as HTMLInputElement | HTMLTextAreaElement;
    if (field.readOnly) return { ok: false, reason: 'the field is read-only' };
    pointerSequence(element);
    element.dispatchEvent(new InputEvent('beforeinput', { bubbles: true, cancelable: true, inputType: 'insertReplacementText', data: text }));
    setValue(field, text);
    element.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertReplacementText', data: text }));
    element.dispatchEvent(new Event('change', { bubbles: true }));
    return { ok: true };
  }
  if (isHtml(element) && element.isContentEditable) {
    pointerSequence(element);
    element.textContent = text;
    element.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertReplacementText', data: text }));
    return { ok: true };
  }
  return { ok: false, reason: 'it is not a text field' };
}

function select(element: Element, option: string): ActOutcome {
  if (element.localName !== 'select') return { ok: false, reason: 'it is not a select' };
  const { Event } = windowOf(element);
  const wanted = option.trim().toLowerCase();
  const match = [...(element as HTMLSelectElement).options].find((o) => !o.disabled && (o.label || o.text).replace(/\s+/g, ' ').trim().toLowerCase() === wanted);
  if (!match) return { ok: false, reason: `it has no option "${option}"` };
  pointerSequence(element);
  match.selected = true;
  element.dispatchEvent(new Event('input', { bubbles: true }));
  element.dispatchEvent(new Event('change', { bubbles: true }));
  return { ok: true };
}

function isChecked(element: Element): boolean {
  return element.localName === 'input' ? (element as HTMLInputElement).checked : element.getAttribute('aria-checked') === 'true';
}

function press(element: Element, key: string): void {
  const { KeyboardEvent } = windowOf(element);
  if (isHtml(element)) element.focus({ preventScroll: true });
  const init = { key, code: key, bubbles: true, cancelable: true, composed: true };
  const down = element.dispatchEvent(new KeyboardEvent('keydown', init));
  if (key === 'Enter') element.dispatchEvent(new KeyboardEvent('keypress', { ...init, charCode: 13, keyCode: 13 }));
  element.dispatchEvent(new KeyboardEvent('keyup', init));
  // A browser submits a field's form on Enter unless a handler prevented it; synthetic keys do not.
  const form = element.localName === 'input' ? (element as HTMLInputElement).form : null;
  if (down && key === 'Enter' && form) form.requestSubmit();
}

/** Performs `action` on the element with its id; `go back` is the host's (it leaves the page). */
export function act(ids: ElementIds, action: Exclude<PageAction, { verb: 'back' | 'wait' }>): ActOutcome {
  const element = ids.element(action.id);
  if (!element || !element.isConnected) return { ok: false, reason: `element #${action.id} is no longer on the page` };
  const label = describe(element, action.id);
  if (typeof element.checkVisibility === 'function' && !element.checkVisibility({ checkVisibilityCSS: true })) return { ok: false, reason: `${label} is hidden` };
  if ((element as HTMLButtonElement).disabled === true || element.getAttribute('aria-disabled') === 'true' || element.closest('fieldset:disabled')) return { ok: false, reason: `${label} is disabled` };
  switch (action.verb) {
    case 'click':
      click(element);
      return { ok: true };
    case 'type':
      return prefix(label, type(element, action.value ?? ''));
    case 'select':
      return prefix(label, select(element, action.value ?? ''));
    case 'check':
    case 'uncheck': {
      const want = action.verb === 'check';
      if (isChecked(element) === want) return { ok: false, reason: `${label} is ${want ? 'checked' : 'not checked'} already` };
      click(element);
      return { ok: true };
    }
    case 'press':
      press(element, action.value ?? 'Enter');
      return { ok: true };
  }
}

function prefix(label: string, outcome: ActOutcome): ActOutcome {
  return outcome.ok ? outcome : { ok: false, reason: `${label}: ${outcome.reason}` };
}
