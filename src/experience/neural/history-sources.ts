/**
 * The states the episode passed through, offered as sources of candidate lines and actions, and
 * the features that say which of them holds a candidate.
 */
import type { ExperienceInput, HistoryStep } from '../types.ts';
import { matchKey } from './action-keys.ts';
import type { ExampleView } from './example-view.ts';
import { stateLines, type StateLine } from './lines.ts';
import { memoWeak } from './memo.ts';

/** How many of the latest history states offer their lines and actions as candidates. */
export const HISTORY_STATES = 3;

/**
 * A state the episode passed through, offered as a source: going back (`< Prev`, returning to a
 * room) leads to a state seen before, which neither the current state nor another episode's
 * example holds. `agreement` is how much of the examples' next-state headers it shares, the
 * evidence that the next state is this one again.
 */
export interface HistorySource {
  /** Steps back, from 1. */
  back: number;
  lines: readonly StateLine[];
  texts: ReadonlySet<string>;
  actions: readonly string[];
  /** matchKey of each action. */
  actionKeys: ReadonlySet<string>;
  agreement: number;
}

/**
 * Per history slot (1..HISTORY_STATES back): whether that state holds the thing; then the best
 * agreement among those that do. Pushed onto `out`. Returns the steps back to the latest state
 * that holds it, 0 for none, from the same tests.
 */
export function pushHistoryFlags(out: number[], history: readonly HistorySource[], holds: (h: HistorySource) => boolean): number {
  const at = out.length;
  for (let i = 0; i <= HISTORY_STATES; i++) out.push(0);
  let nearest = 0;
  for (const h of history) {
    if (!holds(h)) continue;
    if (nearest === 0) nearest = h.back;
    out[at + h.back - 1] = 1;
    out[at + HISTORY_STATES] = Math.max(out[at + HISTORY_STATES] as number, h.agreement);
  }
  return nearest;
}

/** The texts of a state's lines and the keys of its actions: an episode's states come back as history at each of its next steps. Read-only. */
const lineTexts = memoWeak((lines: readonly StateLine[]): ReadonlySet<string> => new Set(lines.map((l) => l.text)));
const actionKeys = memoWeak((actions: readonly string[]): ReadonlySet<string> => new Set(actions.map(matchKey)));

export function historySources(input: ExperienceInput, views: readonly ExampleView[]): HistorySource[] {
  const out: HistorySource[] = [];
  const seen = new Set<string>([input.state.text]);
  // The examples' next-state headers, the same for every history state.
  const headers = views.map((v) => v.nextBase.filter((l) => l.header && l.key !== 'instruction' && l.key !== 'task'));
  for (let back = 1; back <= Math.min(HISTORY_STATES, input.history.length); back++) {
    const { state } = input.history[input.history.length - back] as HistoryStep;
    if (seen.has(state.text)) continue;
    seen.add(state.text);
    const lines = stateLines(state);
    const texts = lineTexts(lines);
    const agreement = headers.length === 0 ? 0 : headers.reduce((a, h) => a + (h.length === 0 ? 0 : h.filter((l) => texts.has(l.text)).length / h.length), 0) / headers.length;
    out.push({ back, lines, texts, actions: state.actions, actionKeys: actionKeys(state.actions), agreement });
  }
  return out;
}
