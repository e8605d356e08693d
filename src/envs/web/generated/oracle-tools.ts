/**
 * How the generated apps' oracles read a page whatever its widget style: each widget is written
 * three ways (public/web/generated/lib/widgets.js), and these finders know how each way shows in
 * the driver's element lines (a native checkbox's `checked` state, a `div` checkbox's ☑). Each
 * returns the action that moves the widget toward the wanted state, or null when it is there.
 * They read only the observation: the oracle proves the admissible actions suffice.
 */
import type { Observation } from '../../../core/types.ts';
import { pageAction, type PageVerb } from '../actions.ts';
import { shownElements, type ShownElement } from '../snapshot.ts';

/** What the driver lists as clickable, native or found by its listeners. */
const CLICKS = ['button', 'link', 'tab', 'menuitem', 'option', 'switch', 'treeitem', 'row', 'gridcell', 'cell'];
const TYPED = ['textbox', 'searchbox', 'spinbutton'];

export const CHECKED = '☑';
export const UNCHECKED = '☐';
export const RADIO_ON = '◉';
export const RADIO_OFF = '○';
export const OPEN = '▾';
export const CLOSED = '▸';

/** A page read once: the oracle asks it several questions per step. */
export class Page {
  readonly elements: ShownElement[];
  constructor(observation: Observation) {
    this.elements = shownElements(observation.text);
  }

  /** The headings, in order (the view's title first). */
  headings(): string[] {
    return this.elements.filter((e) => e.role === 'heading').map((e) => e.name);
  }

  has(name: string): boolean {
    return this.elements.some((e) => e.name === name);
  }

  /** The first element with an id named `name` (exactly) with one of `roles`, after the element `after` if given. */
  find(name: string, roles: readonly string[] = CLICKS, after?: ShownElement | null): ShownElement | null {
    const from = after ? this.elements.indexOf(after) + 1 : 0;
    return this.elements.slice(from).find((e) => e.id !== undefined && roles.includes(e.role) && e.name === name) ?? null;
  }

  /** The first element with an id whose name passes `test`. */
  where(test: (name: string, e: ShownElement) => boolean, roles: readonly string[] = CLICKS): ShownElement | null {
    return this.elements.find((e) => e.id !== undefined && roles.includes(e.role) && test(e.name, e)) ?? null;
  }

  /** A line (any role) whose text holds `text`: a record's row, a message's summary. */
  line(text: string): ShownElement | null {
    return this.elements.find((e) => e.name.includes(text)) ?? null;
  }
}

/** The action on `element`, or an action the page refuses when it is not shown (the oracle was lost). */
export function act(element: ShownElement | null, verb: PageVerb = 'click', value?: string): string {
  if (!element || element.id === undefined) return 'click[#0]';
  return pageAction(verb, element.id, element.name, value);
}

/** A click on the control named `name`. */
export function click(page: Page, name: string): string {
  return act(page.find(name));
}

/** Types `value` into the field named `label` unless it holds it already. */
export function fill(page: Page, label: string, value: string): string | null {
  const field = page.find(label, TYPED);
  if (!field) return act(null);
  return field.value === value ? null : act(field, 'type', value);
}

/** A checkbox (or a switch) set to `want`: a native or ARIA one by its state, a `div` one by its ☑ or its "On". */
export function setFlag(page: Page, label: string, want: boolean): string | null {
  const box = page.find(label, ['checkbox', 'switch']);
  if (box) {
    const on = box.states.includes('checked');
    if (on === want) return null;
    return box.role === 'switch' ? act(box) : act(box, want ? 'check' : 'uncheck');
  }
  const glyph = page.where((name) => name === `${CHECKED} ${label}` || name === `${UNCHECKED} ${label}`);
  if (glyph) return glyph.name.startsWith(CHECKED) === want ? null : act(glyph);
  const worded = page.where((name) => name === `${label}: On` || name === `${label}: Off`);
  if (worded) return worded.name.endsWith('On') === want ? null : act(worded);
  return act(null);
}

/** The option `option` of a radio group picked: a native or ARIA radio, or a `div` one (◉ / ○). */
export function pickRadio(page: Page, option: string): string | null {
  const radio = page.find(option, ['radio']);
  if (radio) return radio.states.includes('checked') ? null : act(radio, 'check');
  const glyph = page.where((name) => name === `${RADIO_ON} ${option}` || name === `${RADIO_OFF} ${option}`);
  if (glyph) return glyph.name.startsWith(RADIO_ON) ? null : act(glyph);
  return act(null);
}

/**
 * `option` chosen in the choice named `label`: a native select by `select`; an ARIA combobox or a
 * `div` dropdown (named "Label: Value") by opening it and clicking the option in its list.
 */
export function choose(page: Page, label: string, option: string): string | null {
  const native = page.elements.find((e) => e.id !== undefined && (e.role === 'combobox' || e.role === 'listbox') && e.name === label && e.value !== undefined);
  if (native) return native.value === option ? null : act(native, 'select', option);
  const prefix = `${label}: `;
  const trigger = page.where((name) => name.startsWith(prefix), [...CLICKS, 'combobox']);
  if (!trigger) return act(null);
  const current = trigger.name.slice(prefix.length).replace(` ${OPEN}`, '').trim();
  if (current === option) return null;
  const item = page.find(option, ['option', 'button', 'link', 'menuitem'], trigger);
  return act(item ?? trigger);
}

/** The section named `title` opened: a `details` or an ARIA button by its state, a `div` one by ▸ / ▾. */
export function expand(page: Page, title: string): string | null {
  const native = page.find(title, ['button']);
  if (native && (native.states.includes('expanded') || native.states.includes('collapsed'))) return native.states.includes('expanded') ? null : act(native);
  const glyph = page.where((name) => name === `${OPEN} ${title}` || name === `${CLOSED} ${title}`);
  if (glyph) return glyph.name.startsWith(OPEN) ? null : act(glyph);
  return act(native);
}

/**
 * A record's action (`Delete` of "Ada Berg"): the control named "Delete Ada Berg" where the app
 * names it so, else the first control named "Delete" after the record's line, the line that starts
 * with the key (a `div` app's rows).
 */
export function rowAction(page: Page, key: string, verb: string): ShownElement | null {
  const named = page.find(`${verb} ${key}`);
  if (named) return named;
  const row = page.elements.find((e) => e.id === undefined && (e.name === key || e.name.startsWith(`${key} `))) ?? null;
  return row ? page.find(verb, CLICKS, row) : null;
}

/** A sortable column's control and its order now (`Name ▲` ascending, `Name ▼` descending). */
export function sortControl(page: Page, column: string): { control: ShownElement | null; order: 'asc' | 'desc' | null } {
  const control = page.where((name) => name === column || name === `${column} ▲` || name === `${column} ▼`);
  const order = control?.name.endsWith('▲') ? 'asc' : control?.name.endsWith('▼') ? 'desc' : null;
  return { control, order };
}
