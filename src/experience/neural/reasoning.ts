/**
 * The neural model's reasoning, predicted first. The paper's experience model writes its reasoning
 * and then the next state conditioned on it; ours chooses its reasoning among the sentences of the
 * retrieved examples' teacher annotations (the real environments' explanations), carried over by
 * the analogy to this transition, and its reward and done heads read what it chose.
 *
 * - Candidates: every sentence of every example's annotation, mapped to our names, once each, with
 *   where it came from (a rewarded example? one that took our action relative to its own task?).
 * - Label (in fitting): whether the sentence, in relative form, is one this transition's real
 *   annotation says. "The mug 1 was put in coffeemachine 1, which completes the task …, so the
 *   reward is 1." and its analogue for a watch on a shelf read the same in relative form, so the
 *   head learns *when* such a verdict holds here rather than copying it from an example.
 * - Summary: the transition head's reasoning features (how likely the likeliest sentence from a
 *   rewarded example and from an unrewarded one is, and the chosen sentences' forms, hashed). An
 *   example without an annotation gives no candidate, which is what the "without reasoning"
 *   ablation strips (synthetic-env.ts): then the transition head reads an empty summary.
 */
import { matchKey } from '../../core/actions.ts';
import type { ExperienceInput } from '../types.ts';
import type { Features } from './features.ts';
import { wordsOf } from './lines.ts';
import { mapper } from './phrase-map.ts';
import { preparationRepeated, relativeForm, taskAsks, taskNames } from './task-relative.ts';

export interface ReasoningSource {
  /** The annotation's sentences, mapped to this transition's names. */
  sentences: string[];
  reward: number;
  done: boolean;
  /** The example took our action relative to its own task. */
  alike: boolean;
  /** The example took exactly our action. */
  exact: boolean;
  sameVerb: boolean;
  /** The example's task reads as ours, each relative to its own action (taskForm): the same kind of task. */
  sameTask: boolean;
  /** Share of the example's task-naming history (relative form) that ours repeats (1 if it has none). */
  repeated: number;
}

export interface ReasoningCandidate {
  text: string;
  /** A row of the reasoning head: dense numbers and hashed strings (features.ts). */
  features: Features;
  /** The sentence in relative form: what labels and hashes compare. */
  form: string;
  /** Share of the examples that say it whose step was rewarded (the summary splits the head's choices by it). */
  rewardedShare: number;
  /** Order for the reasoning text: the first source's index, then the sentence's place in it. */
  order: number;
}

export const REASONING_DENSE = 14;
/** The transition head's reasoning features (dense), and its hashed strings of the chosen sentences. */
export const REASONING_SUMMARY_DENSE = 4;
export const REASONING_SUMMARY_SLOTS = 2;
/** A sentence is said when the reasoning head gives it at least this probability. */
export const REASONING_KEEP = 0.5;

/** The sentences of an annotation (split after . ! ? before a capital or a quote). */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=["A-Z])/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * A sentence in relative form: the task's names as ·, an instance number (one after a name: `mug
 * 1`, `shelf 2`) as #, other words and numbers as they are. A number after a short word is a
 * quantity, not an instance ("the reward is 1"), and must not read like "the reward is 0".
 */
export function sentenceForm(sentence: string, names: ReadonlySet<string>): string {
  const words = wordsOf(sentence);
  return words
    .map((w, i) => (names.has(w) ? '·' : /^[0-9]/.test(w) && (words[i - 1]?.length ?? 0) > 2 && !/^[0-9]/.test(words[i - 1] as string) ? '#' : w))
    .join(' ');
}

/**
 * How an example's annotation is carried over: the analogy's phrase map without its bare numbers
 * ("1" → "3" from `put watch 1 …` against `put watch 3 …` would make "the reward is 1" say 3), and
 * instead each differing number of the two actions with the word before it (`watch 1` → `watch 3`).
 */
export function reasoningMapper(base: readonly (readonly [string, string])[], exampleAction: string, action: string): (text: string) => string {
  const kept = base.filter(([from]) => !/^[0-9.]+$/.test(from.trim()));
  const x = wordsOf(exampleAction);
  const y = wordsOf(action);
  if (x.length === y.length) {
    for (let i = 1; i < x.length; i++) {
      if (x[i] !== y[i] && /^[0-9]/.test(x[i] as string) && /^[0-9]/.test(y[i] as string)) kept.push([`${x[i - 1]} ${x[i]}`, `${y[i - 1]} ${y[i]}`]);
    }
  }
  return mapper(kept.map(([a, b]) => [a, b]));
}

/** What each example's annotation offers, with the example's relation to this transition. */
export function reasoningSources(input: ExperienceInput, examples: readonly { reasoning?: string; map: (text: string) => string; reward: number; done: boolean; action: string; instruction: string; history: readonly string[]; sameVerb: boolean; sameTask: boolean }[]): ReasoningSource[] {
  const names = taskNames(input.task.instruction);
  const ours = relativeForm(input.action, names);
  const history = input.history.map((h) => h.action);
  return examples
    .filter((e) => e.reasoning !== undefined && e.reasoning.trim() !== '')
    .map((e) => {
      const theirNames = taskNames(e.instruction);
      return {
        sentences: sentences(quotingOurTask(e.map(e.reasoning as string), e.instruction, input.task.instruction)),
        reward: e.reward,
        done: e.done,
        alike: relativeForm(e.action, theirNames) === ours,
        exact: matchKey(e.action) === matchKey(input.action),
        sameVerb: e.sameVerb,
        sameTask: e.sameTask,
        repeated: preparationRepeated(history, names, e.history, theirNames),
      };
    });
}

/**
 * An annotation that quotes its task ("which completes the task "put a watch in shelf"") quotes
 * ours once carried over: the analogy maps the names of things, not the words of a task.
 */
export function quotingOurTask(text: string, theirs: string, ours: string): string {
  const strip = (t: string): string => t.trim().replace(/[.!?]$/, '');
  const from = strip(theirs);
  return from.length > 0 ? text.split(from).join(strip(ours)) : text;
}

/** One candidate per distinct sentence (by relative form), with the evidence of the examples that say it. */
export function reasoningCandidates(input: ExperienceInput, sources: readonly ReasoningSource[]): ReasoningCandidate[] {
  const names = taskNames(input.task.instruction);
  const ours = relativeForm(input.action, names);
  const verb = wordsOf(input.action)[0] ?? '';
  const K = Math.max(1, sources.length);
  const byForm = new Map<string, { text: string; order: number; from: { source: ReasoningSource; index: number; last: boolean }[] }>();
  sources.forEach((source, s) =>
    source.sentences.forEach((text, index) => {
      const form = sentenceForm(text, names);
      const entry = byForm.get(form) ?? { text, order: s * 100 + index, from: [] };
      entry.from.push({ source, index, last: index === source.sentences.length - 1 });
      byForm.set(form, entry);
    }),
  );
  const share = (list: readonly { source: ReasoningSource }[], holds: (s: ReasoningSource) => boolean): number => list.filter((x) => holds(x.source)).length / Math.max(1, list.length);
  return [...byForm].map(([form, { text, order, from }]) => {
    const words = wordsOf(text);
    const named = names.size === 0 ? 0 : [...names].filter((n) => words.includes(n)).length / names.size;
    const head = form.split(' ').slice(0, 4).join(' ');
    const rewardedShare = share(from, (s) => s.reward > 0.5);
    return {
      text,
      form,
      rewardedShare,
      order,
      features: {
        dense: [
          from.length / K,
          rewardedShare,
          share(from, (s) => s.done),
          share(from, (s) => s.alike),
          share(from, (s) => s.exact),
          share(from, (s) => s.sameVerb),
          from.some((f) => f.index === 0) ? 1 : 0,
          from.some((f) => f.last) ? 1 : 0,
          named,
          Math.max(0, ...from.map((f) => f.source.repeated)),
          Math.max(0, ...from.filter((f) => f.source.reward > 0.5).map((f) => f.source.repeated)),
          Math.min(1, input.history.length / 50),
          share(from, (s) => s.sameTask),
          Math.max(0, ...from.filter((f) => f.source.sameTask).map((f) => f.source.reward)),
        ],
        hashed: [['rs', form], ['rv', verb, head], ['ra', ours, '|', head], ['rt', taskAsks(input.task.instruction, input.action), '|', head]],
      },
    };
  });
}

/** The label of a candidate in fitting: the real annotation says this sentence (in relative form). */
export function reasoningLabels(candidates: readonly ReasoningCandidate[], realReasoning: string | undefined, instruction: string): number[] {
  const names = taskNames(instruction);
  const said = new Set(sentences(realReasoning ?? '').map((s) => sentenceForm(s, names)));
  return candidates.map((c) => (said.has(c.form) ? 1 : 0));
}

/** What the transition head reads of the chosen reasoning: dense values and the chosen sentences' forms. */
export function reasoningSummary(candidates: readonly ReasoningCandidate[], probabilities: ArrayLike<number>, sources: readonly ReasoningSource[]): { dense: number[]; hashed: string[]; said: ReasoningCandidate[] } {
  let fromRewarded = 0;
  let fromOthers = 0;
  let best = 0;
  const said: { c: ReasoningCandidate; p: number }[] = [];
  candidates.forEach((c, i) => {
    const p = probabilities[i] as number;
    best = Math.max(best, p);
    if (c.rewardedShare > 0) fromRewarded = Math.max(fromRewarded, p);
    if (c.rewardedShare < 1) fromOthers = Math.max(fromOthers, p);
    if (p >= REASONING_KEEP) said.push({ c, p });
  });
  const chosen = said.sort((a, b) => b.p - a.p).map((x) => x.c);
  return {
    dense: [fromRewarded, fromOthers, best, sources.length === 0 ? 0 : Math.min(1, chosen.length / 4)],
    hashed: chosen.slice(0, REASONING_SUMMARY_SLOTS).map((c) => `rk ${c.form}`),
    said: chosen.slice().sort((a, b) => a.order - b.order),
  };
}
