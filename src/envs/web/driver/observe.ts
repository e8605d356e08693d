/**
 * Reading a live page into a PageSnapshot (runs inside the page). Elements a person can act on get
 * their ARIA role and accessible name from dom-accessibility-api (the ARIA name computation, not
 * rules of our own); text a person reads is gathered by block, a table row on one line. Only what
 * is rendered is read: a subtree that is `display: none`, `hidden`, `aria-hidden` or `inert` is
 * skipped whole. The cap stops reading at `maxElements` lines or `maxChars` characters and counts
 * what is left, cheaply (no names, no styles).
 *
 * The page is read as it is rendered, not as its markup nests: shadow roots (closed ones too) in
 * place of their hosts' children, a slot's assigned elements in place of the slot, and a
 * same-origin iframe's document in place of the frame.
 *
 * What a person can click is more than what ARIA calls a control (see `clickableRole`): an element
 * with a click listener of its own or an `onclick`, the element where a pointer cursor starts, one
 * in the tab order (`tabindex` ≥ 0); a contenteditable region is a text box.
 */
import { computeAccessibleName, getRole } from 'dom-accessibility-api';
import { ACTIONABLE_ROLES, MAX_OPTIONS, clean, lineChars, type PageElement, type PageSnapshot } from '../snapshot.ts';
import { UNWATCHED, type PageSignals } from './page-signals.ts';
import { addRowContexts, type LineSpan } from './row-context.ts';

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
/** Characters of text read from one element before a line is made of it (clean() cuts lines shorter). */
const TEXT_BUDGET = 8 * TEXT_LIMIT;
/**
 * Roles an element found clickable keeps (a day cell of a date picker is a `gridcell`, a clickable
 * table row a `row`); any other becomes a `link` (shown inline) or a `button`.
 */
const KEPT_CLICKABLE_ROLES = new Set(['option', 'gridcell', 'row', 'tab', 'menuitem', 'treeitem', 'cell']);
/**
 * A region with a click listener (closing menus, analytics) is not a control: one whose text is
 * longer than this, or that holds more blocks than this, is read as what it holds.
 */
const CLICKABLE_TEXT_LIMIT = TEXT_LIMIT;
const CLICKABLE_BLOCK_LIMIT = 6;
/** Input types ARIA gives no role that a person still fills in by typing. */
const TYPED_INPUTS = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'color']);

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

/** A row's cells read until its line is this long (a row of 20,000 cells made one line of 170 KB). */
const ROW_LIMIT = 2 * TEXT_LIMIT;

/** The element's computed style, from its own window (an iframe's element has its own). */
function styleOf(element: Element): CSSStyleDeclaration {
  return (element.ownerDocument.defaultView ?? window).getComputedStyle(element);
}

/** `display: contents` (and a slot) has no box of its own, but its children are rendered. */
function isContents(element: Element): boolean {
  return element.localName === 'slot' || styleOf(element).display === 'contents';
}

function skipsSubtree(element: Element): boolean {
  if (element.getAttribute('aria-hidden') === 'true' || element.hasAttribute('inert') || (element as HTMLElement).hidden === true) return true;
  const tag = element.localName;
  if (tag === 'script' || tag === 'style' || tag === 'template' || tag === 'noscript' || tag === 'head') return true;
  if (typeof element.checkVisibility !== 'function') return false;
  return !element.checkVisibility() && !isContents(element);
}

function isInline(element: Element): boolean {
  const display = styleOf(element).display;
  return display.startsWith('inline') || display === 'contents';
}

/** The element as the tag it is, whichever window made it (`instanceof` fails across frames). */
function isInput(element: Element): element is HTMLInputElement {
  return element.localName === 'input';
}
function isEditableRoot(element: Element): boolean {
  const html = element as HTMLElement;
  return html.isContentEditable === true && (element.parentElement as HTMLElement | null)?.isContentEditable !== true;
}

function roleOf(element: Element): string | null {
  const role = getRole(element);
  if (role) return role;
  // ARIA gives a password or a date field no role; a person sees a text field.
  if (isInput(element) && (element.type === 'password' || TYPED_INPUTS.has(element.type))) return 'textbox';
  if (element.localName === 'summary') return 'button';
  if (isEditableRoot(element)) return 'textbox';
  return null;
}

/** What the element holds as rendered: its shadow root's children, a slot's assigned elements, an iframe's body. */
function renderedChildren(element: Element, signals: SignalsOf): Element[] {
  const root = signals(element.ownerDocument).shadowRootOf(element);
  if (root) return [...root.children];
  if (element.localName === 'slot') {
    const assigned = (element as HTMLSlotElement).assignedElements({ flatten: true });
    return assigned.length > 0 ? assigned : [...element.children];
  }
  if (element.localName === 'iframe') {
    const body = sameOriginDocument(element)?.body;
    return body ? [body] : [];
  }
  return [...element.children];
}

function renderedChildNodes(element: Element, signals: SignalsOf): Node[] {
  const root = signals(element.ownerDocument).shadowRootOf(element);
  if (root) return [...root.childNodes];
  if (element.localName === 'slot') {
    const assigned = (element as HTMLSlotElement).assignedNodes({ flatten: true });
    return assigned.length > 0 ? assigned : [...element.childNodes];
  }
  return [...element.childNodes];
}

/** An iframe's document where the page may read it (same origin), else null. */
function sameOriginDocument(frame: Element): Document | null {
  try {
    return (frame as HTMLIFrameElement).contentDocument;
  } catch {
    return null;
  }
}

/** The watched signals of the document an element lives in (the driver's own window, or an iframe's). */
export type SignalsOf = (doc: Document) => PageSignals;

/** The text of an element's own inline content: its text and inline children's, not its blocks' or controls'. */
function inlineText(element: Element, reading: Reading, budget = TEXT_BUDGET): string {
  let text = '';
  for (const child of renderedChildNodes(element, reading.signals)) {
    // Past what a line can show, the rest is not read (clean() cuts the line anyway).
    if (text.length >= budget) break;
    if (child.nodeType === Node.TEXT_NODE) text += (child.textContent ?? '').slice(0, budget);
    else if (child.nodeType === Node.ELEMENT_NODE) {
      const el = child as Element;
      if (skipsSubtree(el) || !isInline(el)) continue;
      const role = roleOf(el);
      if (role && (INTERACTIVE.has(role) || NAMED_TEXT.has(role))) continue;
      if (el.localName === 'label' && (el as HTMLLabelElement).control) continue; // it names a control
      if (reading.clickable(el) !== null) continue; // a line of its own
      if (el.localName === 'br') text += ' ';
      else text += ` ${inlineText(el, reading, budget - text.length)} `;
    }
  }
  return text;
}

/** All the text an element shows, blocks included (a clickable card's name), without what is hidden. */
function shownText(element: Element, signals: SignalsOf, budget = TEXT_BUDGET): string {
  let text = '';
  for (const child of renderedChildNodes(element, signals)) {
    if (text.length >= budget) break;
    if (child.nodeType === Node.TEXT_NODE) text += (child.textContent ?? '').slice(0, budget);
    else if (child.nodeType === Node.ELEMENT_NODE && !skipsSubtree(child as Element)) {
      const el = child as Element;
      text += el.localName === 'img' ? ` ${(el.getAttribute('alt') ?? '').slice(0, budget)} ` : ` ${shownText(el, signals, budget - text.length)} `;
    }
  }
  return text;
}

function rowText(row: Element, reading: Reading): string {
  const cells: string[] = [];
  let length = 0;
  for (const cell of renderedChildren(row, reading.signals)) {
    if (length > ROW_LIMIT) {
      cells.push('…');
      break;
    }
    if (skipsSubtree(cell)) continue;
    const text = clean(inlineText(cell, reading), TEXT_LIMIT);
    if (text === '') continue;
    cells.push(text);
    length += text.length + 3;
  }
  return cells.join(' | ');
}

/** One reading of the page: its signals, and what it decided of each element (each is asked once). */
interface Reading {
  signals: SignalsOf;
  /** The role the element gets as something a person clicks, or null (a control by ARIA is not asked here). */
  clickable(element: Element): string | null;
  /** Something inside the element is a control or clickable. */
  holdsControls(element: Element): boolean;
  /** The element is a list whose own click listener handles its items (asked once per list, not once per item). */
  delegates(element: Element): boolean;
}

function reading(signals: SignalsOf): Reading {
  const clickables = new Map<Element, string | null>();
  const holds = new Map<Element, boolean>();
  const delegating = new Map<Element, boolean>();
  const self: Reading = {
    signals,
    delegates(element) {
      let found = delegating.get(element);
      if (found === undefined) delegating.set(element, (found = delegatesToItems(element, signals(element.ownerDocument))));
      return found;
    },
    clickable(element) {
      let role = clickables.get(element);
      if (role === undefined) clickables.set(element, (role = clickableRole(element, self)));
      return role;
    },
    holdsControls(element) {
      let found = holds.get(element);
      if (found === undefined) {
        found = renderedChildren(element, signals).some((child) => {
          if (skipsSubtree(child)) return false;
          const role = roleOf(child);
          return (role !== null && INTERACTIVE.has(role)) || self.clickable(child) !== null || self.holdsControls(child);
        });
        holds.set(element, found);
      }
      return found;
    },
  };
  return self;
}

/**
 * The role of an element a person would click though ARIA does not call it a control, or null.
 * Signals, any of: a click-type listener of its own (page-signals.ts), an `onclick` handler, a
 * place in the tab order (`tabindex` ≥ 0), or a pointer cursor that starts here (its parent's is
 * another: the children of a clickable card inherit its cursor, and the card is what is meant).
 * Nested clickables reduce to the innermost: a clickable that holds other controls is read as
 * what it holds (a person clicks the inner ones, and the outer one's own click is usually a
 * backdrop or a delegate). A region too big to be one control is read as what it holds too.
 */
function clickableRole(element: Element, reading: Reading): string | null {
  const tag = element.localName;
  if (tag === 'body' || tag === 'html' || tag === 'iframe' || tag === 'slot' || tag === 'label' || tag === 'option') return null;
  const html = element as HTMLElement;
  const signals = reading.signals(element.ownerDocument);
  // A list whose click listener handles its items (`$(list).on('click', 'li', …)`): the items are what a person clicks.
  if (reading.delegates(element)) return null;
  // The cheap signals first; the cursor (a style) only where none holds.
  const tabbable = element.hasAttribute('tabindex') && html.tabIndex >= 0;
  const handled = signals.hasClickListener(element) || typeof html.onclick === 'function' || element.hasAttribute('onclick');
  const own = handled || tabbable || pointerStartsAt(element);
  // An item of a delegating list counts only where it shows something to click on.
  const item = !own && delegatingList(element, reading) !== null;
  if (!own && !item) return null;
  if (reading.holdsControls(element)) return null;
  // Nothing a person could hit: an empty list, a collapsed box.
  const box = element.getBoundingClientRect();
  if (box.width * box.height === 0) return null;
  const text = clean(shownText(element, reading.signals), CLICKABLE_TEXT_LIMIT + 2);
  if (item && text === '') return null;
  const blocks = element.querySelectorAll('p,div,li,h1,h2,h3,h4,h5,h6,tr,section,article').length;
  if (blocks > CLICKABLE_BLOCK_LIMIT || text.length > CLICKABLE_TEXT_LIMIT) return null;
  const explicit = explicitRole(element);
  if (KEPT_CLICKABLE_ROLES.has(explicit)) return explicit;
  if (tag === 'tr') return 'row';
  // Text in a line reads as a link; a box of its own (inline-block, block, flex) as a button.
  return styleOf(element).display === 'inline' ? 'link' : 'button';
}

function explicitRole(element: Element): string {
  return element.getAttribute('role')?.trim().split(/\s+/)[0] ?? '';
}

/** Tags and roles of a list of items a person picks one of. */
const LIST_TAGS = new Set(['ul', 'ol', 'tbody', 'table', 'dl', 'menu']);
const LIST_ROLES = new Set(['list', 'listbox', 'menu', 'menubar', 'tablist', 'grid', 'tree', 'rowgroup', 'radiogroup']);

/** A list (by tag or role, or children that are all alike) with a `click` listener of its own. */
function delegatesToItems(element: Element, signals: PageSignals): boolean {
  if (!signals.listensToClicks(element)) return false;
  if (LIST_TAGS.has(element.localName) || LIST_ROLES.has(explicitRole(element))) return true;
  const children = [...element.children];
  if (children.length < 2) return false;
  const first = children[0] as Element;
  return first.className !== '' && children.every((c) => c.localName === first.localName && c.className === first.className);
}

/** The list whose listener handles this item's clicks, or null (a table's rows count from the table or its body). */
function delegatingList(element: Element, reading: Reading): Element | null {
  const parent = element.parentElement;
  // A table's body is its structure, not one of its items (its rows are).
  if (!parent || element.localName === 'tbody' || element.localName === 'thead' || element.localName === 'tfoot') return null;
  if (reading.delegates(parent)) return parent;
  if (element.localName === 'tr' && (parent.localName === 'tbody' || parent.localName === 'thead')) {
    const table = parent.parentElement;
    if (table && reading.delegates(table)) return table;
  }
  return null;
}

function pointerStartsAt(element: Element): boolean {
  if (styleOf(element).cursor !== 'pointer') return false;
  const parent = element.parentElement ?? ((element.parentNode as ShadowRoot | null)?.host ?? null);
  return parent === null || styleOf(parent).cursor !== 'pointer';
}

/** A clickable element's name: its accessible name, else the text it shows, else its title or an image's alt. */
function clickableName(element: Element, reading: Reading): string {
  const name = clean(computeAccessibleName(element), NAME_LIMIT);
  if (name !== '') return name;
  const text = clean(shownText(element, reading.signals), NAME_LIMIT);
  if (text !== '') return text;
  const described = element.getAttribute('title') ?? element.querySelector('[title],[aria-label]')?.getAttribute('title') ?? element.querySelector('[aria-label]')?.getAttribute('aria-label') ?? '';
  return clean(described, NAME_LIMIT);
}

/** A field a person types into: an input, a text area, a contenteditable region. */
function isTypable(element: Element): boolean {
  return isInput(element) || element.localName === 'textarea' || (element as HTMLElement).isContentEditable === true;
}

/** The element that has focus, inside shadow roots and same-origin frames (a document's activeElement stops at a shadow host). */
function focusedElement(doc: Document, signals: SignalsOf): Element | null {
  let active = doc.activeElement;
  for (let depth = 0; active && depth < 32; depth++) {
    const inner = signals(active.ownerDocument).shadowRootOf(active)?.activeElement ?? (active.localName === 'iframe' ? sameOriginDocument(active)?.activeElement : null);
    if (!inner || inner === active) break;
    active = inner;
  }
  return active;
}

function controlState(element: Element, role: string, out: PageElement, signals: SignalsOf = () => UNWATCHED): void {
  const states: string[] = [];
  const html = element as HTMLInputElement;
  if (role === 'checkbox' || role === 'radio' || role === 'switch' || role === 'menuitemcheckbox' || role === 'menuitemradio') {
    const aria = element.getAttribute('aria-checked');
    const checked = isInput(element) ? html.checked : aria === 'true';
    states.push(checked ? 'checked' : 'not checked');
  }
  if (role === 'textbox' || role === 'searchbox' || role === 'spinbutton' || (role === 'combobox' && isTypable(element))) {
    const text = isInput(element) || element.localName === 'textarea' ? html.value : (element.textContent ?? '');
    // A password is shown as a person sees it: one dot per character.
    out.value = isInput(element) && element.type === 'password' ? '•'.repeat(Math.min(text.length, 40)) : clean(text, TEXT_LIMIT);
  }
  if ((role === 'combobox' || role === 'listbox') && element.localName === 'select') {
    const select = element as HTMLSelectElement;
    const options: string[] = [];
    let more = 0;
    for (const option of select.options) {
      if (option.disabled || option.hidden) continue;
      if (options.length < MAX_OPTIONS) options.push(clean(option.label || option.text, NAME_LIMIT));
      else more++;
    }
    out.options = options;
    if (more > 0) out.optionsCut = more;
    const chosen = select.selectedOptions[0];
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
  if (element === focusedElement(element.ownerDocument, signals)) states.push('focused');
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
 * page's path in its site where `location` cannot say it (a page the app's frame host wrote in);
 * `signals` gives what the driver watched in each document (page-signals.ts).
 */
export function observe(ids: ElementIds, limits: ObserveLimits, path = `${location.pathname}${location.search}`, signals: SignalsOf = () => UNWATCHED): Omit<PageSnapshot, 'dialog'> {
  const elements: PageElement[] = [];
  const read = reading(signals);
  let chars = 0;
  let cut = 0;
  /** The element being read, as the lines read inside it so far, linked to those around it (row-context.ts). */
  let around: LineSpan | null = null;
  /** For each line, the element it was read from. */
  const spans: (LineSpan | null)[] = [];
  const full = (): boolean => elements.length >= limits.maxElements || chars >= limits.maxChars;
  const push = (element: PageElement): void => {
    if (full()) {
      cut++;
      return;
    }
    elements.push(element);
    spans.push(around);
    chars += lineChars(element);
  };

  /** `controlsOnly`: inside a row whose text is read already, only its controls get lines. */
  const visit = (element: Element, controlsOnly = false): void => {
    const span: LineSpan = { start: elements.length, end: elements.length, outer: around };
    around = span;
    try {
      visitElement(element, controlsOnly);
    } finally {
      around = span.outer;
      span.end = elements.length;
    }
  };
  const visitElement = (element: Element, controlsOnly: boolean): void => {
    if (full()) {
      // Past the cap only count, without styles or names: a line per control, per element with text of its own.
      for (const el of [element, ...element.querySelectorAll('*')]) if (countable(el)) cut++;
      return;
    }
    if (skipsSubtree(element)) return;
    const role = roleOf(element);
    if (role && INTERACTIVE.has(role)) {
      const native = element.localName === 'select' || isTypable(element);
      if ((role === 'listbox' || role === 'combobox') && !native && read.holdsControls(element)) {
        // A listbox or combobox made of other elements: its options (or its field) are what a person acts on.
        const name = clean(computeAccessibleName(element), NAME_LIMIT);
        if (!controlsOnly) push({ role, name, states: [] });
        for (const child of renderedChildren(element, signals)) visit(child, controlsOnly);
        return;
      }
      const line: PageElement = { id: ids.idOf(element), role, name: clean(computeAccessibleName(element), NAME_LIMIT), states: [] };
      controlState(element, role, line, signals);
      push(line);
      return; // a control's content is its name
    }
    const clickable = read.clickable(element);
    if (clickable !== null) {
      const line: PageElement = { id: ids.idOf(element), role: clickable, name: clickableName(element, read), states: [] };
      controlState(element, clickable, line, signals);
      push(line);
      return;
    }
    if (KEPT_CLICKABLE_ROLES.has(explicitRole(element)) && element.getAttribute('aria-disabled') === 'true') {
      // A widget's part that cannot be used now (a past day of a date picker): shown as one, greyed out.
      push({ role: explicitRole(element), name: clickableName(element, read), states: ['disabled'] });
      return;
    }
    if (controlsOnly) {
      for (const child of renderedChildren(element, signals)) visit(child, true);
      return;
    }
    if (role && NAMED_TEXT.has(role)) {
      // Text a slot shows lives elsewhere (the host's children): read as rendered where there is a slot.
      const slotted = element.querySelector('slot') !== null;
      const name = clean(role === 'img' ? computeAccessibleName(element) : slotted ? shownText(element, signals) : (element.textContent ?? ''), TEXT_LIMIT);
      if (name !== '') push({ role, name, states: [] });
      if (role !== 'alert' && role !== 'status') return;
      for (const child of renderedChildren(element, signals)) if (!isInline(child)) visit(child);
      return;
    }
    if (element.localName === 'tr') {
      const text = rowText(element, read);
      if (text !== '') push({ role: 'row', name: text, states: [] });
      // The row's controls still get their own lines.
      for (const child of renderedChildren(element, signals)) visit(child, true);
      return;
    }
    const namesControl = element.localName === 'label' && (element as HTMLLabelElement).control !== null;
    if (!namesControl && (!isInline(element) || element.localName === 'body')) {
      const text = clean(inlineText(element, read), TEXT_LIMIT);
      if (text !== '') push({ role: 'text', name: text, states: [] });
    }
    for (const child of renderedChildren(element, signals)) visit(child);
  };
  if (document.body) visit(document.body);
  addRowContexts(elements, spans);
  const pushed = signals(document).pushedStates();
  return { title: clean(document.title, NAME_LIMIT), path, elements, cut, ...(pushed > 0 ? { pushedStates: pushed } : {}) };
}
