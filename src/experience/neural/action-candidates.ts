/**
 * Candidates for the next admissible actions: the current admissible actions, the examples' next
 * actions carried over, and actions made from action templates the examples show (`take {object}
 * from countertop 1`) filled with the candidate lines of the same kind; each with its features.
 */
import type { ExperienceInput } from '../types.ts';
import { actionKeyList, matchKey, verbOf } from './action-keys.ts';
import type { ExampleView } from './example-view.ts';
import type { Features } from './features.ts';
import { pushHistoryFlags, type HistorySource } from './history-sources.ts';
import { lineFields, wordsOf, type StateLine } from './lines.ts';
import { memo } from './memo.ts';
import { containsPhrase } from './phrase-map.ts';
import { meanByKey, meanOver, pushSlots, RANK_SLOTS } from './rank-slots.ts';

export interface ActionCandidate {
  action: string;
  features: Features;
}

export interface ActionContext {
  input: ExperienceInput;
  views: ExampleView[];
  history: HistorySource[];
  targetPhrases: string[];
  headerValues: string[];
  verb: string;
}

/**
 * What an action candidate's features read of its text, worked out once per action: a prediction
 * lists the same page's actions again for every transition from it, and each was lowered, split
 * and looked up in two memos anew. Read-only.
 */
const actionReading = memo((action: string) => ({ lower: action.toLowerCase(), verb: verbOf(action), firstTwoWords: wordsOf(action).slice(0, 2).join(' ') }));

/**
 * Candidates for the next admissible actions, given the lines of the predicted (or, in training,
 * the candidate) next state: current actions, examples' next actions carried over, and template
 * actions filled with those lines' first fields.
 */
export function actionCandidates(context: ActionContext, nextLines: readonly StateLine[]): ActionCandidate[] {
  const { views, history, targetPhrases, headerValues, verb, input } = context;
  const K = Math.max(1, views.length);
  interface Draft {
    action: string;
    /** matchKey(action), the draft's key. */
    key: string;
    inCurrent: boolean;
    base: number[];
    wide: number[];
    raw: number;
    template: number;
  }
  const drafts = new Map<string, Draft>();
  const draft = (action: string, known?: string): Draft => {
    const key = known ?? matchKey(action);
    let d = drafts.get(key);
    if (!d) {
      d = { action, key, inCurrent: false, base: new Array<number>(views.length).fill(0), wide: new Array<number>(views.length).fill(0), raw: 0, template: 0 };
      drafts.set(key, d);
    }
    return d;
  };
  const current = input.state.actions;
  const currentKeys = actionKeyList(current);
  current.forEach((a, i) => (draft(a, currentKeys[i]).inCurrent = true));
  for (const h of history) {
    const keys = actionKeyList(h.actions);
    h.actions.forEach((a, i) => draft(a, keys[i]));
  }
  const byKind = new Map<string, string[]>();
  for (const line of nextLines) {
    if (line.header) continue;
    const first = lineFields(line)[0] ?? '';
    if (first.length < 2) continue;
    const list = byKind.get(line.key) ?? [];
    list.push(first);
    byKind.set(line.key, list);
  }
  views.forEach((view, r) => {
    const { nextActionLower, nextActionKeyList } = view.facts;
    view.example.next.actions.forEach((a, i) => {
      // An action its maps leave as it is keeps the key worked out with the example.
      const based = view.map(a, nextActionLower[i]);
      draft(based, based === a ? nextActionKeyList[i] : undefined).base[r] = 1;
      const wide = view.wideMap(a, nextActionLower[i]);
      draft(wide, wide === a ? nextActionKeyList[i] : undefined).wide[r] = 1;
    });
    const rawSet = view.facts.nextActionKeys;
    for (const d of drafts.values()) if (rawSet.has(d.key)) d.raw++;
    // Templates: an example action that names one of its next state's elements, with that name as a hole.
    const seen = new Set<string>();
    for (const { key, hole } of view.facts.holes) {
      const template = view.wideMap(hole);
      const id = `${key}\u0001${template}`;
      if (seen.has(id)) continue;
      seen.add(id);
      for (const name of byKind.get(key) ?? []) draft(template.replace('\u0000', name)).template++;
    }
  });
  const persist = meanOver(views, (v) => v.facts.actions.all);
  const persistByVerb = meanByKey(views.map((v) => v.facts.actions.by));
  const inputKey = matchKey(input.action);
  const sameVerbShare = views.filter((v) => v.sameVerb).length / K;
  const out: ActionCandidate[] = [];
  for (const d of drafts.values()) {
    const { lower, verb: aVerb, firstTwoWords } = actionReading(d.action);
    const persistVerb = persistByVerb.get(aVerb) ?? 0;
    const dense = [d.inCurrent ? 1 : 0, d.base.reduce((a, b) => a + b, 0) / K, d.wide.reduce((a, b) => a + b, 0) / K, d.raw / K];
    pushSlots(dense, d.base);
    pushSlots(dense, d.wide);
    dense.push(
      d.template > 0 ? 1 : 0,
      Math.min(1, d.template / K),
      d.key === inputKey ? 1 : 0,
      targetPhrases.some((p) => containsPhrase(lower, p)) ? 1 : 0,
      headerValues.some((v) => containsPhrase(lower, v)) ? 1 : 0,
      persist,
      persistVerb,
      sameVerbShare,
      views.length / RANK_SLOTS,
    );
    pushHistoryFlags(dense, history, (h) => h.actionKeys.has(d.key));
    out.push({
      action: d.action,
      features: {
        dense,
        hashed: [['av', aVerb, verb], ['aw2', firstTwoWords, verb], ['as', d.inCurrent ? 'cur' : d.template > 0 ? 'tpl' : 'ex', verb]],
      },
    });
  }
  return out;
}
