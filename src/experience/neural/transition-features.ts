/**
 * One row of transition features for the reward and done heads: the examples' rewards, how much
 * of the task the state, the action and the history cover, where the state stands against the
 * task's requirements, the step count; and the places in it the reasoning head's choice fills.
 */
import { matchAdmissible } from '../../core/actions.ts';
import type { ExperienceInput } from '../types.ts';
import { matchKey } from './action-keys.ts';
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
  const cover = (text: string): number => share(task.words, new Set(wordsOf(text)));
  const met = (text: string): number => clausesMet(task.clauses, new Set(wordsOf(text)));
  const historyText = input.history.map((h) => h.action).join(' ');
  const contents = stateContents(input.state.text);
  const ours = requirementEvidence(task, contents);
  // The same evidence for the examples that took this action (else all), each against its own
  // task: the difference says how this state stands where the example's reward came from (an
  // example bought with the options its task wanted selected; this state has none selected).
  const peers = exact.length > 0 ? exact : views;
  const peerEvidence = peers.map((v) => requirementEvidence(taskRequirements(v.example.instruction, input.examples), stateContents(v.example.state.text)));
  const delta = (field: keyof Evidence): number[] =>
    ours[field].map((x, b) => (peerEvidence.length === 0 ? 0 : x - peerEvidence.reduce((a, e) => a + (e[field][b] as number), 0) / peerEvidence.length));
  const stateText = current.filter((l) => !(l.header && (l.key === 'instruction' || l.key === 'task'))).map((l) => l.text).join(' ');
  const names = taskNames(input.task.instruction);
  const dense = [
    // First, filled in by withReasoning once the reasoning head has chosen.
    ...new Array<number>(REASONING_SUMMARY_DENSE).fill(0),
    mean(rewards),
    rewards[0] ?? 0,
    mean(dones),
    dones[0] ?? 0,
    mean(same.map((v) => v.example.reward)),
    mean(same.map((v) => (v.example.done ? 1 : 0))),
    same.length / K,
    mean(exact.map((v) => v.example.reward)),
    exact.length / K,
    cover(stateText),
    cover(`${historyText} ${input.action}`),
    cover(input.action),
    target ? cover(target.text) : 0,
    matchAdmissible(input.action, input.state.actions) !== null ? 1 : 0,
    Math.min(1, input.history.length / 50),
    Math.min(1, task.words.length / 30),
    ...ours.coverage,
    ...ours.within,
    ...ours.above,
    ...ours.clauses,
    met(stateText),
    met(`${historyText} ${input.action}`),
    Math.min(1, task.clauses.length / 8),
    mean(peers.map((v) => v.example.reward)),
    ...delta('coverage'),
    ...delta('clauses'),
    ...delta('within'),
    ...delta('above'),
    ...taskRelativeEvidence(input, views),
    // Last, as the network slices them off for its requirement sub-network.
    ...requirementRows(task, contents, `${historyText} ${input.action}`),
  ];
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
