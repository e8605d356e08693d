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
import { tokens } from './text.ts';

/** How a policy file's header says its page actions were read (policy-file.ts refuses a web policy read otherwise). */
export const PAGE_ACTION_READING = 'element-value';

/** Words that join a name without naming anything (a field "Name of the card"). */
const JOINERS = new Set(['a', 'an', 'the', 'and', 'or', 'of']);
/** How many words before a value may name the field it belongs in ("ship it to", "in size"). */
const LEAD_WINDOW = 3;
const QUOTED = /"([^"]{1,80})"|“([^”]{1,80})”/g;

/** Start positions of `phrase` in `words`. */
function phraseStarts(words: readonly string[], phrase: readonly string[]): number[] {
  const starts: number[] = [];
  if (phrase.length === 0) return starts;
  for (let i = 0; i + phrase.length <= words.length; i++) {
    if (phrase.every((w, j) => words[i + j] === w)) starts.push(i);
  }
  return starts;
}

const isPhraseOf = (phrase: readonly string[], words: readonly string[]): boolean => phraseStarts(words, phrase).length > 0;

/** The instruction once per state: its words, its first word (the request's verb) and its quoted spans. */
export interface InstructionReading {
  words: string[];
  verb: string;
  quoted: string[][];
}

export function readInstruction(instruction: string): InstructionReading {
  const words = tokens(instruction);
  const quoted = [...instruction.matchAll(QUOTED)].map((m) => tokens(m[1] ?? m[2] ?? '')).filter((q) => q.length > 0);
  return { words, verb: words[0] ?? '', quoted };
}

/** The relations of a page action; the featurizer writes them into its command columns (see ACTION_RELATIONS). */
export interface PageRelations {
  /** The element's name is a phrase of the request, or holds one of its quoted spans ("Star Maple meeting" for "… about "Maple meeting""). */
  nameInInstruction: boolean;
  /** The typed or chosen value is a phrase of the request (`select[#7 Size | S]` for "in size S"). */
  valueInInstruction: boolean;
  /** The value stands right after words of the element's name in the request ("ship it to "Bruno Nakamura"" for the field "Ship to"). */
  valueFollowsName: boolean;
  /** The element's name holds the request's first word, its verb ("Star …" for "Star the e-mail …", "Post reply" for "Reply …"). */
  nameHasVerb: boolean;
  /** Checks what was just unchecked, or the reverse. */
  undoesRecent: boolean;
}

export function pageRelations(action: PageAction, instruction: InstructionReading, recent: readonly (PageAction | null)[]): PageRelations {
  if (action.verb === 'back') return { nameInInstruction: false, valueInInstruction: false, valueFollowsName: false, nameHasVerb: false, undoesRecent: false };
  const name = tokens(action.name).filter((w) => !/^[0-9]+$/.test(w));
  const value = action.value === undefined ? [] : tokens(action.value);
  const valueStarts = phraseStarts(instruction.words, value);
  const nameWords = new Set(name.filter((w) => !JOINERS.has(w)));
  const opposite = action.verb === 'check' ? 'uncheck' : action.verb === 'uncheck' ? 'check' : null;
  return {
    nameInInstruction: (name.length > 0 && isPhraseOf(name, instruction.words)) || instruction.quoted.some((q) => isPhraseOf(q, name)),
    valueInInstruction: valueStarts.length > 0,
    valueFollowsName: valueStarts.some((start) => instruction.words.slice(Math.max(0, start - LEAD_WINDOW), start).some((w) => nameWords.has(w))),
    nameHasVerb: instruction.verb !== '' && name.includes(instruction.verb),
    undoesRecent: opposite !== null && recent.some((r) => r !== null && r.verb === opposite && r.id === action.id),
  };
}
