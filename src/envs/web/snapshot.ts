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
  /** `checked`, `not checked`, `disabled`, `expanded`, `collapsed`, `selected`, `focused`, `required`. */
  states: string[];
  /** A select's options, in order. */
  options?: string[];
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

/** The line's text: the id and name first (what an action names), then the value and states. */
function elementText(element: PageElement): string {
  const fields: string[] = [element.id === undefined ? element.name : element.name === '' ? `#${element.id}` : `#${element.id} ${element.name}`];
  if (element.value !== undefined) fields.push(element.value === '' ? 'empty' : `value: ${element.value}`);
  fields.push(...element.states);
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
      else if (field.startsWith('value: ')) element.value = field.slice(7);
      else element.states.push(field);
    }
    return element;
  });
}
