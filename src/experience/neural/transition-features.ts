/**
 * One row of transition features for the reward and done heads: the examples' rewards, how much
 * of the task the state, the action and the history cover, where the state stands against the
 * task's requirements, the step count; and the places in it the reasoning head's choice fills.
 */
import { isTemplate, matchAdmissible, parseWebAction } from '../../core/actions.ts';
import { tokens } from '../../core/text.ts';
import type { ExperienceInput } from '../types.ts';
import { actionKeyList, matchKey } from './action-keys.ts';
import { taskRelativeEvidence } from './analogous-steps.ts';
import type { ExampleView } from './example-view.ts';
import type { Features, HashedFeature } from './features.ts';
import { wordsOf, type StateLine } from './lines.ts';
import { REASONING_SUMMARY_DENSE, REASONING_SUMMARY_SLOTS } from './reasoning.ts';
import { requirementEvidence, requirementRows, stateContents, type Evidence } from './requirement-evidence.ts';
import { relativeForm, relativeHistory, taskAsks, taskNames } from './task-relative.ts';
import { clausesMet, taskRequirements } from './task-requirements.ts';
import { share } from './word-overlap.ts';

export const HISTORY_BUCKETS = 64;

export function transitionFeatures(input: ExperienceInput, current: readonly StateLine[], target: StateLine | undefined, views: readonly ExampleView[], verb: string): Features {
  const K = Math.max(1, views.length);
  const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
  const rewards = views.map((v) => v.example.reward);
  const dones = views.map((v) => (v.example.done ? 1 : 0));
  const same = views.filter((v) => v.sameVerb);
  const exact = views.filter((v) => matchKey(v.example.action) === matchKey(input.action));
  const task = taskRequirements(input.task.instruction, input.examples);
  // The texts read twice or thrice below (the state's, what the episode did) are made into words
  // once, and not through the words memo: each is new at every step, and a memo full of them only
  // forgets the line texts it is there for.
  const cover = (words: ReadonlySet<string>): number => share(task.words, words);
  const met = (words: ReadonlySet<string>): number => clausesMet(task.clauses, words);
  const historyText = input.history.map((h) => h.action).join(' ');
  const acted = new Set(tokens(`${historyText} ${input.action}`));
  const contents = stateContents(input.state.text);
  const ours = requirementEvidence(task, contents);
  // The same evidence for the examples that took this action (else all), each against its own
  // task: the difference says how this state stands where the example's reward came from (an
  // example bought with the options its task wanted selected; this state has none selected).
  const peers = exact.length > 0 ? exact : views;
  const peerEvidence = peers.map((v) => requirementEvidence(taskRequirements(v.example.instruction, input.examples), stateContents(v.example.state.text)));
  // Our evidence less the peers' mean, summed in the peers' order (pushed: the row has some thousand values).
  const pushDelta = (out: number[], field: keyof Evidence): void => {
    const own = ours[field];
    for (let b = 0; b < own.length; b++) {
      if (peerEvidence.length === 0) {
        out.push(0);
        continue;
      }
      let sum = 0;
      for (const e of peerEvidence) sum += e[field][b] as number;
      out.push((own[b] as number) - sum / peerEvidence.length);
    }
  };
  const stateWords = new Set(tokens(current.filter((l) => !(l.header && (l.key === 'instruction' || l.key === 'task'))).map((l) => l.text).join(' ')));
  const names = taskNames(input.task.instruction);
  // First, filled in by withReasoning once the reasoning head has chosen.
  const dense = new Array<number>(REASONING_SUMMARY_DENSE).fill(0);
  dense.push(
    mean(rewards),
    rewards[0] ?? 0,
    mean(dones),
    dones[0] ?? 0,
    mean(same.map((v) => v.example.reward)),
    mean(same.map((v) => (v.example.done ? 1 : 0))),
    same.length / K,
    mean(exact.map((v) => v.example.reward)),
    exact.length / K,
    cover(stateWords),
    cover(acted),
    cover(new Set(wordsOf(input.action))),
    target ? cover(new Set(wordsOf(target.text))) : 0,
    admissible(input.action, input.state.actions) ? 1 : 0,
    Math.min(1, input.history.length / 50),
    Math.min(1, task.words.length / 30),
  );
  for (const field of ['coverage', 'within', 'above', 'clauses'] as const) for (const x of ours[field]) dense.push(x);
  dense.push(met(stateWords), met(acted), Math.min(1, task.clauses.length / 8), mean(peers.map((v) => v.example.reward)));
  for (const field of ['coverage', 'clauses', 'within', 'above'] as const) pushDelta(dense, field);
  for (const x of taskRelativeEvidence(input, views)) dense.push(x);
  // Last, as the network slices them off for its requirement sub-network.
  for (const x of requirementRows(task, contents, acted)) dense.push(x);
  return {
    dense,
    hashed: [
      // Empty (no bucket) until withReasoning puts the chosen sentences' forms here.
      ...new Array<string>(REASONING_SUMMARY_SLOTS).fill(''),
      ['h', String(Math.min(HISTORY_BUCKETS - 1, input.history.length))],
      ['v', verb],
      ['tk', target?.key ?? 'none', verb],
      ...wordsOf(input.action).slice(0, 6).map((w) => ['aw', w]),
      // The action and the history's task-naming steps relative to this task (task-relative.ts).
      ['ra', relativeForm(input.action, names)],
      ['tf', taskAsks(input.task.instruction, input.action)],
      ...relativeHistory(input.history.slice(-RELATIVE_HISTORY_WINDOW).map((h) => h.action), names).slice(-RELATIVE_HISTORY_SLOTS).map((f) => ['rh', f]),
    ],
  };
}

/**
 * Whether the action is admissible in the state (matchAdmissible finds it), asked first of the
 * state's action keys, which the action candidates look up too: matchAdmissible keys every action
 * of the page anew, a tenth of a transition row. A search, or an action no plain action of the page
 * matches, is left to matchAdmissible (it fills templates and matches a click's target).
 */
function admissible(action: string, actions: readonly string[]): boolean {
  if (parseWebAction(action)?.kind !== 'search') {
    const key = matchKey(action);
    const keys = actionKeyList(actions);
    for (let i = 0; i < actions.length; i++) if (keys[i] === key && !isTemplate(actions[i] as string)) return true;
  }
  return matchAdmissible(action, actions) !== null;
}

/**
 * How far back the history's task-naming steps are read, and how many of them are hashed (the
 * latest): with the reasoning's 2, the 3 fixed strings, 6 action words, the relative action and what
 * the task asks beyond it, 19 (HASH_SLOTS.transition).
 */
const RELATIVE_HISTORY_WINDOW = 30;
const RELATIVE_HISTORY_SLOTS = 6;
/** The transition row with what the reasoning head chose (reasoningSummary) in its reserved places. */
export function withReasoning(transition: Features, summary: { dense: readonly number[]; hashed: readonly HashedFeature[] }): Features {
  // One copy of the row, its reserved places overwritten (the summary fills exactly those).
  const dense = transition.dense.slice();
  for (let i = 0; i < REASONING_SUMMARY_DENSE; i++) dense[i] = summary.dense[i] ?? 0;
  return {
    dense,
    hashed: [...Array.from({ length: REASONING_SUMMARY_SLOTS }, (_, i) => summary.hashed[i] ?? ''), ...transition.hashed.slice(REASONING_SUMMARY_SLOTS)],
  };
}
