/**
 * Reading a live page into a PageSnapshot (runs inside the page). Elements a person can act on get
 * their ARIA role and accessible name from dom-accessibility-api (the ARIA name computation, not
 * rules of our own); text a person reads is gathered by block, a table row on one line. Only what
 * is rendered is read: a subtree that is `display: none`, `hidden`, `aria-hidden` or `inert` is
 * skipped whole. The cap stops reading at `maxElements` lines or `maxChars` characters and counts
 * what is left, cheaply (no names, no styles).
 */
import { computeAccessibleName, getRole } from 'dom-accessibility-api';
import { ACTIONABLE_ROLES, type PageElement, type PageSnapshot } from '../snapshot.ts';

export interface ObserveLimits {
  maxElements: number;
  maxChars: number;
}

/** Controls get a line with an id: the roles the env admits actions on, and a slider (shown, not acted on yet). */
const INTERACTIVE = new Set([...ACTIONABLE_ROLES, 'slider']);
/** Roles read as their own line, by their accessible name. */
const NAMED_TEXT = new Set(['heading', 'img', 'alert', 'status']);
const NAME_LIMIT = 120;
const TEXT_LIMIT = 300;

/** Element ids for the page's lifetime: the same element keeps its id from one snapshot to the next. */
export class ElementIds {
  private readonly ids = new WeakMap<Element, number>();
  private readonly elements = new Map<number, WeakRef<Element>>();
  private next = 1;

  idOf(element: Element): number {
    let id = this.ids.get(element);
    if (id === undefined) {
      id = this.next++;
      this.ids.set(element, id);
      this.elements.set(id, new WeakRef(element));
    }
    return id;
  }

  /** The element's id if it has one already (what a person's click on it meant), without giving it one. */
  known(element: Element): number | undefined {
    return this.ids.get(element);
  }

  element(id: number): Element | null {
    return this.elements.get(id)?.deref() ?? null;
  }
}

/** One line of text: no line breaks, no ` | ` (it separates fields), no brackets (they delimit actions). */
export function clean(text: string, limit: number): string {
  const single = text.replace(/\s+/g, ' ').replace(/ ?\| ?/g, ' / ').replace(/\[/g, '(').replace(/\]/g, ')').trim();
  return single.length > limit ? `${single.slice(0, limit - 1)}…` : single;
}

function skipsSubtree(element: Element): boolean {
  if (element.getAttribute('aria-hidden') === 'true' || element.hasAttribute('inert') || (element as HTMLElement).hidden) return true;
  const tag = element.localName;
  if (tag === 'script' || tag === 'style' || tag === 'template' || tag === 'noscript' || tag === 'head') return true;
  return typeof element.checkVisibility === 'function' ? !element.checkVisibility() : false;
}

function isInline(element: Element): boolean {
  const display = getComputedStyle(element).display;
  return display.startsWith('inline') || display === 'contents';
}

function roleOf(element: Element): string | null {
  const role = getRole(element);
  if (role) return role;
  // ARIA gives a password field no role; a person sees a text field.
  if (element instanceof HTMLInputElement && element.type === 'password') return 'textbox';
  if (element.localName === 'summary') return 'button';
  return null;
}

/** The text of an element's own inline content: its text and inline children's, not its blocks' or controls'. */
function inlineText(element: Element): string {
  let text = '';
  for (const child of element.childNodes) {
    if (child.nodeType === Node.TEXT_NODE) text += child.textContent ?? '';
    else if (child.nodeType === Node.ELEMENT_NODE) {
      const el = child as Element;
      if (skipsSubtree(el) || !isInline(el)) continue;
      const role = roleOf(el);
      if (role && (INTERACTIVE.has(role) || NAMED_TEXT.has(role))) continue;
      if (el.localName === 'label' && (el as HTMLLabelElement).control) continue; // it names a control
      if (el.localName === 'br') text += ' ';
      else text += ` ${inlineText(el)} `;
    }
  }
  return text;
}

function rowText(row: Element): string {
  const cells = [...row.children].filter((c) => !skipsSubtree(c)).map((c) => clean(inlineText(c), TEXT_LIMIT)).filter((t) => t !== '');
  return cells.join(' | ');
}

function controlState(element: Element, role: string, out: PageElement): void {
  const states: string[] = [];
  const html = element as HTMLInputElement;
  if (role === 'checkbox' || role === 'radio' || role === 'switch' || role === 'menuitemcheckbox' || role === 'menuitemradio') {
    const aria = element.getAttribute('aria-checked');
    const checked = element instanceof HTMLInputElement ? html.checked : aria === 'true';
    states.push(checked ? 'checked' : 'not checked');
  }
  if (role === 'textbox' || role === 'searchbox' || role === 'spinbutton') {
    const text = element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement ? html.value : (element.textContent ?? '');
    // A password is shown as a person sees it: one dot per character.
    out.value = element instanceof HTMLInputElement && element.type === 'password' ? '•'.repeat(Math.min(text.length, 40)) : clean(text, TEXT_LIMIT);
  }
  if ((role === 'combobox' || role === 'listbox') && element instanceof HTMLSelectElement) {
    out.options = [...element.options].filter((o) => !o.disabled && !o.hidden).map((o) => clean(o.label || o.text, NAME_LIMIT));
    const chosen = element.selectedOptions[0];
    out.value = chosen ? clean(chosen.label || chosen.text, NAME_LIMIT) : '';
  }
  const expanded = element.getAttribute('aria-expanded');
  if (expanded === 'true') states.push('expanded');
  else if (expanded === 'false') states.push('collapsed');
  if (element.localName === 'details' || (element.localName === 'summary' && element.parentElement?.localName === 'details')) {
    const details = element.localName === 'details' ? element : element.parentElement;
    states.push((details as HTMLDetailsElement).open ? 'expanded' : 'collapsed');
  }
  if (element.getAttribute('aria-selected') === 'true' || element.getAttribute('aria-current') === 'page') states.push('selected');
  if ((element as HTMLButtonElement).disabled === true || element.getAttribute('aria-disabled') === 'true' || element.closest('fieldset:disabled') !== null) states.push('disabled');
  if ((element as HTMLInputElement).required === true || element.getAttribute('aria-required') === 'true') states.push('required');
  if (element === document.activeElement) states.push('focused');
  out.states = states;
}

/** What may be a control, by tag or role (a table row's controls get lines of their own). */
const CONTROL_SELECTOR = 'a[href],button,input,select,textarea,[role]';
/** What the cap counts without styles or names: controls and headings. */
const COUNTED_SELECTOR = `${CONTROL_SELECTOR},h1,h2,h3,h4,h5,h6`;

function countable(element: Element): boolean {
  if (element.matches(COUNTED_SELECTOR)) return true;
  for (let n = element.firstChild; n; n = n.nextSibling) if (n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '') return true;
  return false;
}

/**
 * Reads the page. `ids` must live as long as the page (driver/index.ts keeps one); `path` is the
 * page's path in its site where `location` cannot say it (a page the app's frame host wrote in).
 */
export function observe(ids: ElementIds, limits: ObserveLimits, path = `${location.pathname}${location.search}`): Omit<PageSnapshot, 'dialog'> {
  const elements: PageElement[] = [];
  let chars = 0;
  let cut = 0;
  const full = (): boolean => elements.length >= limits.maxElements || chars >= limits.maxChars;
  const push = (element: PageElement): void => {
    if (full()) {
      cut++;
      return;
    }
    elements.push(element);
    chars += element.name.length + (element.value?.length ?? 0) + 12;
  };

  const visit = (element: Element): void => {
    if (full()) {
      // Past the cap only count, without styles or names: a line per control, per element with text of its own.
      for (const el of [element, ...element.querySelectorAll('*')]) if (countable(el)) cut++;
      return;
    }
    if (skipsSubtree(element)) return;
    const role = roleOf(element);
    if (role && INTERACTIVE.has(role)) {
      const line: PageElement = { id: ids.idOf(element), role, name: clean(computeAccessibleName(element), NAME_LIMIT), states: [] };
      controlState(element, role, line);
      push(line);
      return; // a control's content is its name
    }
    if (role && NAMED_TEXT.has(role)) {
      const name = clean(role === 'img' ? computeAccessibleName(element) : (element.textContent ?? ''), TEXT_LIMIT);
      if (name !== '') push({ role, name, states: [] });
      if (role !== 'alert' && role !== 'status') return;
      for (const child of element.children) if (!isInline(child)) visit(child);
      return;
    }
    if (element.localName === 'tr') {
      const text = rowText(element);
      if (text !== '') push({ role: 'row', name: text, states: [] });
      // The row's controls still get their own lines.
      for (const control of element.querySelectorAll(CONTROL_SELECTOR)) visit(control);
      return;
    }
    const namesControl = element.localName === 'label' && (element as HTMLLabelElement).control !== null;
    if (!namesControl && (!isInline(element) || element === document.body)) {
      const text = clean(inlineText(element), TEXT_LIMIT);
      if (text !== '') push({ role: 'text', name: text, states: [] });
    }
    for (const child of element.children) visit(child);
  };
  if (document.body) visit(document.body);
  return { title: clean(document.title, NAME_LIMIT), path, elements, cut };
}
