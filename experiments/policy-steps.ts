/**
 * How faithful the experience model is on the steps a policy really takes. A dream-trained policy
 * goes wherever the model is wrong, and held-out seeding data rarely go there: a policy clicks a
 * second value of an option, re-opens a product, buys with a value it should not have chosen. Each
 * step of the policy's greedy real episodes is posed teacher-forced (its real state and history)
 * and scored, grouped by the kind of page and the kind of action (`page item · click option`).
 */
import { parseState } from '../src/core/state.ts';
import type { Observation } from '../src/core/types.ts';
import { meanScores, type ScoreMeans, type TransitionScore } from '../src/experience/fidelity.ts';
import type { HistoryStep } from '../src/experience/types.ts';
import { actionKind, pageKind } from '../src/replay/embed.ts';

export function stepKind(state: Observation, action: string, history: readonly HistoryStep[] = []): string {
  try {
    const parsed = parseState(state.text);
    const kind = `${pageKind(parsed)} · ${actionKind(action, parsed)}`;
    // A product opened after going back from another is what going back is for, and the buffer
    // holds far fewer of those pages than of first products: name them apart.
    return kind.endsWith('click link') && history.some((h) => linkClicked(h)) ? `${kind} (another)` : kind;
  } catch {
    return 'unparsed';
  }
}

function linkClicked(step: HistoryStep): boolean {
  try {
    return actionKind(step.action, parseState(step.state.text)) === 'click link';
  } catch {
    return false;
  }
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

/** Means per kind of step (most frequent first) and over all steps. */
export function scoresByStep(rows: readonly { kind: string; score: TransitionScore }[]): { all: ScoreMeans & { steps: number }; byStep: Record<string, ScoreMeans & { steps: number }> } {
  const summary = (scores: TransitionScore[]) => {
    const means = meanScores(scores);
    return { steps: scores.length, ...(Object.fromEntries(Object.entries(means).map(([k, v]) => [k, round(v)])) as unknown as ScoreMeans) };
  };
  const groups = new Map<string, TransitionScore[]>();
  for (const r of rows) {
    const group = groups.get(r.kind);
    if (group) group.push(r.score);
    else groups.set(r.kind, [r.score]);
  }
  const byStep = Object.fromEntries([...groups].sort((a, b) => b[1].length - a[1].length).map(([kind, scores]) => [kind, summary(scores)]));
  return { all: summary(rows.map((r) => r.score)), byStep };
}
