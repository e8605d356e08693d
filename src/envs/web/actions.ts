/**
 * The web env's action syntax: WebShop's `verb[argument]` shape, addressed by an element's id.
 *
 *   click[#17 Submit]                    type[#9 Email | alice@example.com]
 *   select[#11 Country | France]         check[#10 Remember me]     uncheck[#10 Remember me]
 *   press[#9 Email | Enter]              go back                    wait
 *
 * The id (`#17`) is what the page acts on: two buttons named "Submit" differ by it. The accessible
 * name after it is for the reader (the policy, the prompts, the experience model) and is not
 * checked. A `type` action's text after ` | ` is free; its admissible form is the template
 * `type[#9 Email | ...]`, which the policy fills from the instruction (core/queries.ts).
 * Element names never hold ` | ` or brackets (the driver writes them so), so the first ` | `
 * ends the name.
 */
import { FREE_TEXT, fillTemplate, isTemplate } from '../../core/actions.ts';

export type PageVerb = 'click' | 'type' | 'select' | 'check' | 'uncheck' | 'press';
export const PAGE_VERBS: readonly PageVerb[] = ['click', 'type', 'select', 'check', 'uncheck', 'press'];
/** The verbs whose argument has a value after ` | `. */
const VALUED: ReadonlySet<PageVerb> = new Set(['type', 'select', 'press']);

export type PageAction =
  | { verb: PageVerb; id: number; name: string; value?: string }
  | { verb: 'back' }
  | { verb: 'wait' };

export const GO_BACK = 'go back';
/**
 * What a page with nothing else to act on admits (still loading, between two states): the page's
 * timers and requests run until it changes, for a moment at most; reward as the page says.
 */
export const WAIT = 'wait';
/** The keys `press` admits: what submits a field and what closes a dialog. */
export const PRESSABLE_KEYS = ['Enter', 'Escape'] as const;

const ACTION = /^(click|type|select|check|uncheck|press)\[#(\d{1,9})(.*)\]$/is;

/** Parse a page action; null when the text is not one (the env then reports it invalid). */
export function parsePageAction(action: string): PageAction | null {
  if (typeof action !== 'string' || action.length > 4096) return null;
  const text = action.trim();
  if (text.toLowerCase() === GO_BACK) return { verb: 'back' };
  if (text.toLowerCase() === WAIT) return { verb: 'wait' };
  const match = ACTION.exec(text);
  if (!match) return null;
  const verb = (match[1] as string).toLowerCase() as PageVerb;
  const id = Number(match[2]);
  const rest = match[3] as string;
  if (rest !== '' && !/^\s/.test(rest) && !rest.startsWith(' |')) return null; // `#17x` is not an id
  const split = rest.indexOf(' | ');
  const name = (split < 0 ? rest : rest.slice(0, split)).trim();
  if (!VALUED.has(verb)) return split < 0 ? { verb, id, name } : null;
  if (split < 0) return null;
  const value = rest.slice(split + 3);
  if (value.trim() === '' || (verb === 'type' && value === FREE_TEXT)) return null;
  return { verb, id, name, value: verb === 'type' ? value : value.trim() };
}

/**
 * The id that opens an element's text as the snapshot writes it (`#22 Send | …`, envs/web/snapshot.ts)
 * taken off. A page numbers its elements as it draws them, so an id says how much the page had drawn,
 * not what the element is: readers that compare steps across pages (the policy's action text,
 * retrieval's embedding) read the rest.
 */
export function withoutElementId(text: string): string {
  return text.replace(/^#\d{1,9}(?=\s|$)\s*/, '');
}

/** A page action without its element's id (`click[#22 Send]` → `click[Send]`); any other text as it is. */
export function withoutActionId(action: string): string {
  const open = action.indexOf('[');
  if (open <= 0 || !action.endsWith(']') || !PAGE_VERBS.includes(action.slice(0, open).trim().toLowerCase() as PageVerb)) return action;
  return `${action.slice(0, open + 1)}${withoutElementId(action.slice(open + 1, -1))}]`;
}

/** The action string for an element (`name` is the element's accessible name, as its line shows it). */
export function pageAction(verb: PageVerb, id: number, name: string, value?: string): string {
  const label = name === '' ? `#${id}` : `#${id} ${name}`;
  return value === undefined ? `${verb}[${label}]` : `${verb}[${label} | ${value}]`;
}

/**
 * The admissible action `action` means, spelled as the page listed it, or null. An element is
 * matched by its id and verb (the name is not checked: `click[#17]` is `click[#17 Submit]`);
 * a `select` or `press` also by its value, case-insensitively; a `type` fills its template.
 */
export function admitPageAction(action: unknown, admissible: readonly string[]): string | null {
  if (typeof action !== 'string') return null;
  const wanted = parsePageAction(action);
  if (!wanted) return null;
  if (wanted.verb === 'back') return admissible.includes(GO_BACK) ? GO_BACK : null;
  if (wanted.verb === 'wait') return admissible.includes(WAIT) ? WAIT : null;
  for (const candidate of admissible) {
    const template = isTemplate(candidate);
    const listed = parsePageAction(template ? fillTemplate(candidate, 'x') : candidate);
    if (!listed || listed.verb !== wanted.verb || listed.id !== wanted.id) continue;
    if (template) return fillTemplate(candidate, wanted.value ?? '');
    if (wanted.value === undefined || listed.value?.toLowerCase() === wanted.value.toLowerCase()) return candidate;
  }
  return null;
}
