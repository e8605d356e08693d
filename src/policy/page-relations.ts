/**
 * How a web page's action (envs/web/actions.ts: `type[#16 Ship to | Bruno Nakamura]`) relates to
 * the instruction, in relations that hold for names and values never seen in training.
 *
 * Read as a household command, `type[#16 Ship to | Lumo hazel blanket]` and `type[#16 Ship to |
 * Bruno Nakamura]` looked the same to every relation (both values are named by the request), so a
 * policy told them apart only by hashed words: it learned which names were people on the train
 * split and typed the product into "Ship to" on the test split, whose people it had never seen.
 * What carries across is where the value stands in the request: "… ship it to "Bruno Nakamura"",
 * right after words of the field's name.
 */
import type { PageAction } from '../envs/web/actions.ts';
import { contentWords, tokens } from './text.ts';

/** How a policy file's header says its page actions were read (policy-file.ts refuses a web policy read otherwise). */
export const PAGE_ACTION_READING = 'element-value';

/** Words that join a name without naming anything (a field "Name of the card"). */
const JOINERS = new Set(['a', 'an', 'the', 'and', 'or', 'of']);
/** How many words beside a value may name the field it belongs in ("ship it to", "in size", "as the due date"). */
const LEAD_WINDOW = 3;
const QUOTED = /"([^"]{1,80})"|“([^”]{1,80})”/g;

/** `phrase` occurs in `words` as consecutive words (tokens hold no spaces, so a padded substring is a phrase). */
const isPhraseOf = (phrase: readonly string[], words: readonly string[]): boolean =>
  phrase.length > 0 && ` ${words.join(' ')} `.includes(` ${phrase.join(' ')} `);

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Where `value` stands whole in the request, as [first word, past the last word] positions among
 * its words: "2028-09-06" in "Enter 2028-09-06 as the due date", but not "2028" or "06" inside it,
 * nor "lena" inside "lena.jensen@example.org".
 */
function wholeOccurrences(instruction: string, value: string): [number, number][] {
  const text = value.trim();
  const length = tokens(text).length;
  if (length === 0) return [];
  const pattern = new RegExp(`(?<![\\w@.-])${escapeRegExp(text)}(?![\\w@-]|\\.\\w)`, 'gi');
  return [...instruction.matchAll(pattern)].map((m) => {
    const first = tokens(instruction.slice(0, m.index)).length;
    return [first, first + length];
  });
}

/** The instruction once per state: its text and words, its first word (the request's verb) and its quoted spans. */
export interface InstructionReading {
  text: string;
  words: string[];
  verb: string;
  quoted: string[][];
}

export function readInstruction(instruction: string): InstructionReading {
  const words = tokens(instruction);
  const quoted = [...instruction.matchAll(QUOTED)].map((m) => tokens(m[1] ?? m[2] ?? '')).filter((q) => q.length > 0);
  return { text: instruction, words, verb: words[0] ?? '', quoted };
}

/** The relations of a page action; the featurizer writes them into its command columns (see ACTION_RELATIONS). */
export interface PageRelations {
  /** The element's name is a phrase of the request, or holds one of its quoted spans ("Star Maple meeting" for "… about "Maple meeting""). */
  nameInInstruction: boolean;
  /**
   * What the action enters or acts on is what the request names: the typed or chosen value stands
   * whole in it (`select[#7 Size | S]` for "in size S"; "2028-09-06", not its "2028"), or, for an
   * action without a value, one of its quoted spans is in the element's name (`check[#3 lotus]`
   * for "Select "lotus" …", where "click Submit" only names the button to end with). Never for a
   * value the element already holds: entering it again changes nothing.
   */
  objectInInstruction: boolean;
  /**
   * The value stands next to words of the element's name in the request, nearer than to any other
   * field's: any of its words within three before ("ship it to "Bruno Nakamura"" for the field
   * "Ship to"), or a content word within three after ("2028-09-06 as the due date" for "Due date";
   * not "to", which follows a subject as often as it leads an address). Nearest wins: in "the
   * username "sami" and the password …" "sami" belongs to "Username", one word away, not to
   * "Password", three words on.
   */
  valueFollowsName: boolean;
  /** The element's name holds the request's first word, its verb ("Star …" for "Star the e-mail …", "Post reply" for "Reply …"). */
  nameHasVerb: boolean;
  /** Checks what was just unchecked, or the reverse. */
  undoesRecent: boolean;
  /** Replaces a value the request names with another, or unchecks an element the request quotes: undoes progress. */
  dropsWanted: boolean;
}

interface FieldWords {
  id: number;
  leading: ReadonlySet<string>;
  trailing: ReadonlySet<string>;
}

const fieldWords = (id: number, name: string): FieldWords => ({
  id,
  leading: new Set(tokens(name).filter((w) => !JOINERS.has(w) && !/^[0-9]+$/.test(w))),
  trailing: new Set(contentWords(name)),
});

/** What pageRelations reads of the state, built once per state by readPage. */
export interface PageContext {
  /** The last few actions, as page actions (null for what is not one). */
  recent: readonly (PageAction | null)[];
  /** The fields that take a value (targets of `type` or `select` candidates), by id, with the words of their names. */
  fields: ReadonlyMap<number, FieldWords>;
}

/**
 * `candidates` and `recent` (the last actions taken) parsed as page actions, null where not one
 * (`parsePageAction`); the caller parses each action once.
 */
export function readPage(candidates: readonly (PageAction | null)[], recent: readonly (PageAction | null)[]): PageContext {
  const fields = new Map<number, FieldWords>();
  for (const a of candidates) {
    if (a && (a.verb === 'type' || a.verb === 'select') && !fields.has(a.id)) fields.set(a.id, fieldWords(a.id, a.name));
  }
  return { recent, fields };
}

/** A page action on an element (not `go back` or `wait`). */
export type ElementAction = Extract<PageAction, { id: number }>;

export const onElement = (action: PageAction | null): action is ElementAction => action !== null && 'id' in action;

/**
 * The element a page action acts on, as it stays across redraws: its name, lowercased, or its id
 * when it has none. A page's ids live only as long as its elements, and a page that draws itself
 * again (an app's every update, a return to the inbox) numbers the same message anew; compared by
 * id, clicking a message, going back and clicking it again never read as taken, and a greedy policy
 * looped between the two to the step limit.
 */
export function elementKey(action: ElementAction): string {
  return action.name === '' ? `#${action.id}` : action.name.toLowerCase();
}

/** What a page action did, as a history counts it: its verb, element (`elementKey`) and value (`click[jun jensen: overdraft]`). */
export function pageActionKey(action: ElementAction): string {
  const target = elementKey(action);
  return action.value === undefined ? `${action.verb}[${target}]` : `${action.verb}[${target} | ${action.value}]`;
}

/** How near (in words, 1 = adjacent) a field's name stands to an occurrence; Infinity beyond the window. Words before count first. */
function nearness(words: readonly string[], [first, end]: [number, number], field: FieldWords): number {
  for (let d = 1; d <= LEAD_WINDOW; d++) if (first - d >= 0 && field.leading.has(words[first - d] as string)) return d;
  for (let d = 1; d <= LEAD_WINDOW; d++) if (end + d - 1 < words.length && field.trailing.has(words[end + d - 1] as string)) return d + 0.5;
  return Infinity;
}

const NO_RELATIONS: PageRelations = { nameInInstruction: false, objectInInstruction: false, valueFollowsName: false, nameHasVerb: false, undoesRecent: false, dropsWanted: false };

/** `current`: the element's value as its line shows it (a field's text, '' when empty), if it shows one. */
export function pageRelations(action: PageAction, current: string | null, instruction: InstructionReading, context: PageContext): PageRelations {
  if (action.verb === 'back' || action.verb === 'wait') return NO_RELATIONS;
  const name = tokens(action.name).filter((w) => !/^[0-9]+$/.test(w));
  const opposite = action.verb === 'check' ? 'uncheck' : action.verb === 'uncheck' ? 'check' : null;
  const quotedInName = instruction.quoted.some((q) => isPhraseOf(q, name));
  const holds = action.value !== undefined && current !== null && current.trim().toLowerCase() === action.value.trim().toLowerCase();
  const places = action.value === undefined || holds ? [] : wholeOccurrences(instruction.text, action.value);
  const own = context.fields.get(action.id) ?? fieldWords(action.id, action.name);
  const belongsHere = (place: [number, number]): boolean => {
    const mine = nearness(instruction.words, place, own);
    if (mine === Infinity) return false;
    for (const other of context.fields.values()) if (other.id !== action.id && nearness(instruction.words, place, other) <= mine) return false;
    return true;
  };
  const replacesWanted = action.verb !== 'press' && action.value !== undefined && !holds && current !== null && current !== '' && wholeOccurrences(instruction.text, current).length > 0;
  return {
    nameInInstruction: (name.length > 0 && isPhraseOf(name, instruction.words)) || quotedInName,
    objectInInstruction: action.value === undefined ? quotedInName : places.length > 0,
    valueFollowsName: action.verb !== 'press' && places.some(belongsHere),
    nameHasVerb: instruction.verb !== '' && name.includes(instruction.verb),
    // The same element: its id, or its name on a page drawn again since (see elementKey).
    undoesRecent: opposite !== null && context.recent.some((r) => r !== null && r.verb === opposite && (r.id === action.id || elementKey(r) === elementKey(action))),
    dropsWanted: replacesWanted || (action.verb === 'uncheck' && quotedInName),
  };
}
