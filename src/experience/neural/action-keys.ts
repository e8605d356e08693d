/**
 * What the candidates read of an action to compare it with others: its match key (core/actions.ts)
 * and its verb, both memoised, as every candidate of every example asks them.
 */
import { matchKey as actionKey } from '../../core/actions.ts';
import { wordsOf } from './lines.ts';
import { memo, memoWeak } from './memo.ts';

/** core/actions.ts's matchKey, memoised: the same actions are keyed for every candidate of every example. */
export const matchKey = memo(actionKey);

/** An action's verb: the word before its bracket, else its first word. Memoised (every candidate action asks it). */
export const verbOf = memo((action: string): string => {
  const bracket = /^([a-z]+)\[/i.exec(action);
  return (bracket ? bracket[1] : wordsOf(action)[0] ?? 'none')!.toLowerCase();
});

/**
 * matchKey of each of a state's actions, per list: the action candidates and the transition row
 * both key the state's actions, and a state's actions are listed again when it comes back as
 * history. Read-only.
 */
export const actionKeyList = memoWeak((actions: readonly string[]): readonly string[] => actions.map(matchKey));
