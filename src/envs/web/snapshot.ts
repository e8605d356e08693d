/**
 * What the page driver reads from a live page (driver/observe.ts) and how the env turns it into the
 * abstract textual state and the admissible actions. Plain data: it crosses from the page to Node
 * (or to the app's worker) as JSON.
 *
 * A page's state, after BrowserGym's flattened accessibility tree:
 *
 *   title: Sign in
 *   url: /login.html
 *   instruction: log in as alice with the password hunter2
 *   [1] heading: Sign in
 *   [2] textbox: #3 Username | value: alice | focused
 *   [3] textbox: #4 Password | empty
 *   [4] checkbox: #5 Remember me | not checked
 *   [5] button: #6 Sign in
 *
 * Elements a person can act on carry their id (`#3`) first, which the actions name; text lines do
 * not. The line number (`[2]`) is the line's place, as in every environment's state; the id stays
 * the element's while it lives.
 */
import { FREE_TEXT } from '../../core/actions.ts';
import { FIELD_SEPARATOR, elementFields, parseState, renderState, type AbstractState } from '../../core/state.ts';
import { GO_BACK, WAIT, pageAction } from './actions.ts';

export interface PageElement {
  /** The element's id while it lives; absent on text lines (nothing acts on them). */
  id?: number;
  /** The ARIA role (`button`, `textbox`, `heading`, …), or `text` / `row` for what is only read. */
  role: string;
  /** The accessible name (the text, for text lines). */
  name: string;
  /** A field's value, a select's chosen option. */
  value?: string;
  /**
   * The text of the item a repeated control sits in (the row of its "Edit", the card of its "Add
   * to cart"), shown as `in: …`; only on a control whose role and name another shares (driver/row-context.ts).
   */
  context?: string;
  /** `checked`, `not checked`, `disabled`, `expanded`, `collapsed`, `selected`, `focused`, `required`. */
  states: string[];
  /** A select's options, in order (at most MAX_OPTIONS). */
  options?: string[];
  /** Options of a select past MAX_OPTIONS, not listed (nor offered as actions). */
  optionsCut?: number;
}

/** Options of one select that are listed and offered: a select of 20,000 options made 20,000 actions. */
export const MAX_OPTIONS = 50;
/** Longest name, value or option a line shows (the driver cuts names shorter: 120, texts 300). */
export const LINE_TEXT_MAX = 600;
/** Page errors a reading keeps (a page that throws on every frame threw thousands between two steps). */
export const MAX_PAGE_ERRORS = 10;

/**
 * One line of text: no line breaks or control characters, no ` | ` (it separates fields), no
 * brackets (they delimit actions), at most `limit` characters ending in "…" where cut. Cut before
 * any pattern runs, so a page's megabyte of text costs no more than its head.
 */
export function clean(text: string, limit: number): string {
  const head = text.length > limit * 8 ? text.slice(0, limit * 8) : text;
  // eslint-disable-next-line no-control-regex
  const single = head.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').replace(/\s+/g, ' ').replace(/ ?\| ?/g, ' / ').replace(/\[/g, '(').replace(/\]/g, ')').trim();
  return single.length > limit ? `${single.slice(0, limit - 1)}…` : single;
}

export interface PageSnapshot {
  title: string;
  /** The url's path (and query), without the origin. */
  path: string;
  elements: PageElement[];
  /** Elements left out by the cap (elements or characters). */
  cut: number;
  /** The last `alert` / `confirm` / `prompt` the page opened since the previous snapshot (answered by the driver). */
  dialog?: string;
  /** Client-side routes the page pushed this episode (`history.pushState`) that `go back` returns through. */
  pushedStates?: number;
}

/** Roles whose element the policy can act on, and how (the driver reads these as controls too). */
const CLICKABLE = new Set(['button', 'link', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem', 'switch']);
/**
 * Roles that are controls only where the driver found the element clickable (a day of a date
 * picker, a clickable table row): their lines then carry an id, and a click is admitted.
 */
const CLICKABLE_WHEN_FOUND = new Set(['gridcell', 'row', 'cell']);
const TYPABLE = new Set(['textbox', 'searchbox', 'spinbutton']);
const CHECKABLE = new Set(['checkbox', 'radio']);
const SELECTABLE = new Set(['combobox', 'listbox']);
export const ACTIONABLE_ROLES: ReadonlySet<string> = new Set([...CLICKABLE, ...TYPABLE, ...CHECKABLE, ...SELECTABLE]);

/** How a line shows a repeated control's item: `button: #7 Add to cart | in: Cast iron teapot $39.00`. */
const CONTEXT_FIELD = 'in: ';

/** The line's text: the id and name first (what an action names), then the value and states. */
function elementText(element: PageElement): string {
  const fields: string[] = [element.id === undefined ? element.name : element.name === '' ? `#${element.id}` : `#${element.id} ${element.name}`];
  if (element.context !== undefined) fields.push(`${CONTEXT_FIELD}${element.context}`);
  if (element.value !== undefined) fields.push(element.value === '' ? 'empty' : `value: ${element.value}`);
  fields.push(...element.states);
  if (element.optionsCut !== undefined && element.optionsCut > 0) fields.push(`${element.optionsCut} more options not listed`);
  return fields.join(FIELD_SEPARATOR);
}

export interface RenderOptions {
  instruction: string;
  /** The episode has moved to another page and can go back. */
  canGoBack: boolean;
  /** Header lines the env adds (an error, a blocked navigation). */
  notes?: [key: string, value: string][];
}

export function snapshotState(snapshot: PageSnapshot, options: RenderOptions): AbstractState {
  const header: AbstractState['header'] = [
    ['title', snapshot.title],
    ['url', snapshot.path],
    ['instruction', options.instruction],
  ];
  if (snapshot.dialog !== undefined) header.push(['dialog', snapshot.dialog]);
  if (snapshot.cut > 0) header.push(['cut', `${snapshot.cut} more elements not shown`]);
  header.push(...(options.notes ?? []));
  return { header, elements: snapshot.elements.map((e) => ({ kind: e.role, text: elementText(e) })) };
}

export function snapshotText(snapshot: PageSnapshot, options: RenderOptions): string {
  return renderState(snapshotState(snapshot, options));
}

/**
 * Every action the page admits, in document order; `wait` where the page has nothing else to act
 * on (loading, between two states: the episode goes on rather than stopping the run); `go back`
 * last where the episode can go back.
 */
export function admissiblePageActions(snapshot: PageSnapshot, canGoBack: boolean): string[] {
  const actions: string[] = [];
  for (const element of snapshot.elements) {
    const id = element.id;
    if (id === undefined || element.states.includes('disabled')) continue;
    const { role, name } = element;
    if (CLICKABLE.has(role) || CLICKABLE_WHEN_FOUND.has(role)) actions.push(pageAction('click', id, name));
    else if (TYPABLE.has(role)) actions.push(pageAction('type', id, name, FREE_TEXT), pageAction('press', id, name, 'Enter'));
    else if (CHECKABLE.has(role)) {
      const checked = element.states.includes('checked');
      if (!checked) actions.push(pageAction('check', id, name));
      else if (role === 'checkbox') actions.push(pageAction('uncheck', id, name));
    } else if (SELECTABLE.has(role) && element.options) {
      for (const option of element.options) if (option !== element.value) actions.push(pageAction('select', id, name, option));
    } else if (role === 'combobox') {
      // A combobox made of other elements: typed into where it is a field (it then has a value), else opened by a click.
      if (element.value !== undefined) actions.push(pageAction('type', id, name, FREE_TEXT), pageAction('press', id, name, 'Enter'));
      else actions.push(pageAction('click', id, name));
    }
  }
  if (actions.length === 0) actions.push(WAIT);
  if (canGoBack) actions.push(GO_BACK);
  return actions;
}

/** An element line read back from the state text: what an oracle or a reader sees of the page. */
export interface ShownElement {
  role: string;
  id?: number;
  name: string;
  value?: string;
  /** The item a repeated control sits in (PageElement.context). */
  context?: string;
  states: string[];
}

const ID_AND_NAME = /^#(\d+)(?: (.*))?$/;

/** The elements a web state shows, read back with the one state parser (the inverse of the rendering above). */
export function shownElements(text: string): ShownElement[] {
  let state: AbstractState;
  try {
    state = parseState(text);
  } catch {
    return [];
  }
  return state.elements.map((line) => {
    const [head = '', ...rest] = elementFields(line);
    const id = ID_AND_NAME.exec(head);
    const element: ShownElement = id ? { role: line.kind, id: Number(id[1]), name: id[2] ?? '', states: [] } : { role: line.kind, name: head, states: [] };
    for (const field of rest) {
      if (field === 'empty') element.value = '';
      else if (field.startsWith(CONTEXT_FIELD)) element.context = field.slice(CONTEXT_FIELD.length);
      else if (field.startsWith('value: ')) element.value = field.slice(7);
      else element.states.push(field);
    }
    return element;
  });
}

/**
 * What a line costs of the observation's `maxChars` (the driver and the host count alike, but for a
 * repeated control's item text: the driver adds it after reading, at most 80 characters a line, so
 * only the host's count holds it, and a page at the cap may lose a last line or two to it there).
 */
export function lineChars(element: PageElement): number {
  return element.name.length + (element.value?.length ?? 0) + (element.context?.length ?? 0) + (element.options ?? []).reduce((n, o) => n + o.length + 4, 0) + 12;
}

/** Roles as a state line's kind may be (a lowercase word); anything else a page gave is read as text. */
const ROLE = /^[a-z][a-z0-9_-]{0,39}$/;
const STATES = new Set(['checked', 'not checked', 'disabled', 'expanded', 'collapsed', 'selected', 'focused', 'required']);

const count = (value: unknown): number => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? Math.min(value, 1e9) : 0);
const text = (value: unknown, limit: number): string => (typeof value === 'string' ? clean(value, limit) : '');

/**
 * A snapshot as the page gave it, held to the driver's own bounds (the page's scripts can replace
 * the driver, so its answer is not trusted): at most `cap.maxElements` lines, the rest counted in
 * `cut`; every text one line of bounded length; roles lowercase words; states the driver's own;
 * at most MAX_OPTIONS options a select. Null where it is not a snapshot at all.
 */
export function boundedSnapshot(value: unknown, cap: { maxElements: number; maxChars: number }): PageSnapshot | null {
  if (typeof value !== 'object' || value === null || !Array.isArray((value as PageSnapshot).elements)) return null;
  const given = value as Record<string, unknown> & { elements: unknown[] };
  const elements: PageElement[] = [];
  let chars = 0;
  let cut = count(given.cut);
  for (const item of given.elements) {
    if (elements.length >= cap.maxElements || chars >= cap.maxChars || typeof item !== 'object' || item === null) {
      cut++;
      continue;
    }
    const raw = item as Record<string, unknown>;
    const role = typeof raw.role === 'string' && ROLE.test(raw.role) ? raw.role : 'text';
    const element: PageElement = { role, name: text(raw.name, LINE_TEXT_MAX), states: Array.isArray(raw.states) ? raw.states.filter((s): s is string => typeof s === 'string' && STATES.has(s)).slice(0, STATES.size) : [] };
    if (typeof raw.id === 'number' && Number.isSafeInteger(raw.id) && raw.id > 0) element.id = raw.id;
    if (raw.value !== undefined) element.value = text(raw.value, LINE_TEXT_MAX);
    if (raw.context !== undefined && element.id !== undefined) {
      const context = text(raw.context, LINE_TEXT_MAX);
      if (context !== '') element.context = context;
    }
    if (Array.isArray(raw.options)) {
      element.options = raw.options.slice(0, MAX_OPTIONS).map((o) => text(o, LINE_TEXT_MAX));
      const more = raw.options.length - element.options.length + count(raw.optionsCut);
      if (more > 0) element.optionsCut = more;
    }
    chars += lineChars(element);
    elements.push(element);
  }
  const snapshot: PageSnapshot = { title: text(given.title, 200), path: text(given.path, LINE_TEXT_MAX), elements, cut };
  if (given.dialog !== undefined) snapshot.dialog = text(given.dialog, 300);
  const pushed = count(given.pushedStates);
  if (pushed > 0) snapshot.pushedStates = pushed;
  return snapshot;
}

/** The page's errors of a reading: the driver's first MAX_PAGE_ERRORS and its count of the rest, at most 200 characters each. */
export function boundedPageErrors(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const errors = value.slice(0, MAX_PAGE_ERRORS + 1).map((e) => clean(String(e), 200));
  if (value.length > MAX_PAGE_ERRORS + 1) errors[MAX_PAGE_ERRORS] = `and ${value.length - MAX_PAGE_ERRORS} more`;
  return errors;
}
