/**
 * How faithful an experience model is to the real environment, on held-out real transitions
 * (teacher-forced: every step starts from the real state). The measures (README, "Experience models and dream mode"):
 * next-state token F1, admissible-action set F1, reward accuracy and MAE, done accuracy, and the two
 * error terms of the paper's bound — ε_R, the mean absolute reward error, and an estimate of ε_P,
 * the share of transitions whose predicted next state differs from the real one.
 *
 * Averages that rare events cannot move are not enough: fewer than 2% of transitions end an
 * episode in success, so a model that never predicts one still scores 0.98 on reward accuracy.
 * The report therefore also counts the events a policy learns from, success and `done`, with the
 * model's precision and recall on each, and the reward error on the real terminal steps alone.
 */
import { matchKey } from '../core/actions.ts';
import { canonicalState, parseState } from '../core/state.ts';
import { tokens } from '../core/text.ts';
import type { Observation, Task, Transition } from '../core/types.ts';
import { envSpec } from '../envs/registry.ts';
import type { EnvSpec } from '../envs/spec.ts';
import { pageKind } from '../replay/embed.ts';
import type { ReplayBuffer } from '../replay/retrieval.ts';
import { EnvFailureTally, seedEpisodes, type EnvFailures, type SeedMix } from '../replay/seed.ts';
import { adaptToTask } from './knn.ts';
import { episodeHistories } from './history.ts';
import type { ExperienceInput, ExperienceModel, ExperiencePrediction, HistoryStep } from './types.ts';
import { isPredictedSuccess, isRealSuccess, REWARD_TOLERANCE } from './success.ts';


export interface TransitionScore {
  nextStateF1: number;
  actionSetF1: number;
  rewardError: number;
  doneRight: boolean;
  sameNextState: boolean;
  valid: boolean;
  /** The events, real and predicted: the episode ended; it ended in success. */
  realDone: boolean;
  predictedDone: boolean;
  realSuccess: boolean;
  predictedSuccess: boolean;
  /**
   * The real episode ended here only because it reached the environment's step limit (an unrewarded
   * end at the limit). The dream's own step limit ends its episodes there whatever the model says,
   * so these are not episode ends a model has to predict.
   */
  cutOff: boolean;
  /** Actions the step made admissible (in the real next state, not in the state before), and how many of them the prediction offers. */
  revealedActions: number;
  revealedActionsFound: number;
}

/** How well the model predicts one kind of event: how often it happened and was predicted, precision and recall (null with nothing to divide by). */
export interface EventFidelity {
  real: number;
  predicted: number;
  precision: number | null;
  recall: number | null;
}

export interface FidelityReport {
  transitions: number;
  nextStateF1: number;
  actionSetF1: number;
  rewardAccuracy: number;
  rewardMae: number;
  doneAccuracy: number;
  /** ε_R: mean absolute reward error (the same number as rewardMae, under the paper's name). */
  epsilonR: number;
  /** ε_P estimate: share of transitions whose predicted next state is not the real one. */
  epsilonP: number;
  invalidOutputRate: number;
  transitionsPerSecond: number;
  /** Where it goes wrong: mean next-state F1 by the kind of state the action was taken in. */
  byStateKind: Record<string, { transitions: number; nextStateF1: number; rewardMae: number }>;
  /**
   * The steps that end an episode in success (reward 1), and those that end it of themselves (a
   * purchase, a goal): `done` leaves out the `cutOffEnds` real ends at the step limit, and the
   * model's predictions on those steps.
   */
  success: EventFidelity;
  done: EventFidelity;
  cutOffEnds: number;
  /** Mean absolute reward error on the real terminal steps alone, where the reward is given; null without any. */
  terminalRewardMae: number | null;
  /**
   * What a step reveals: the actions it made admissible (the object found on arrival, "take apple 1
   * from countertop 1"), over all steps, and the share the model offers. Averages over whole states
   * hide them (a room's 30 `go to`s agree); a dream that misses them leaves its policy, even the
   * oracle, nothing to take (`npm run experiment -- dream-scripted`).
   */
  revealedActions: { real: number; found: number; recall: number | null };
}

/** Precision and recall of an event over the scores. */
export function eventFidelity(scores: readonly TransitionScore[], real: (s: TransitionScore) => boolean, predicted: (s: TransitionScore) => boolean): EventFidelity {
  let tp = 0;
  let realCount = 0;
  let predictedCount = 0;
  for (const s of scores) {
    const r = real(s);
    const p = predicted(s);
    if (r) realCount++;
    if (p) predictedCount++;
    if (r && p) tp++;
  }
  return {
    real: realCount,
    predicted: predictedCount,
    precision: predictedCount === 0 ? null : round(tp / predictedCount),
    recall: realCount === 0 ? null : round(tp / realCount),
  };
}

/** Multiset F1 of two token bags. */
export function tokenF1(predicted: readonly string[], real: readonly string[]): number {
  if (predicted.length === 0 && real.length === 0) return 1;
  if (predicted.length === 0 || real.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const t of real) counts.set(t, (counts.get(t) ?? 0) + 1);
  let overlap = 0;
  for (const t of predicted) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      overlap++;
      counts.set(t, c - 1);
    }
  }
  if (overlap === 0) return 0;
  const precision = overlap / predicted.length;
  const recall = overlap / real.length;
  return (2 * precision * recall) / (precision + recall);
}

/** F1 of two action sets, compared case- and whitespace-insensitively. */
export function setF1(predicted: readonly string[], real: readonly string[]): number {
  const p = new Set(predicted.map(matchKey));
  const r = new Set(real.map(matchKey));
  if (p.size === 0 && r.size === 0) return 1;
  if (p.size === 0 || r.size === 0) return 0;
  let overlap = 0;
  for (const a of p) if (r.has(a)) overlap++;
  if (overlap === 0) return 0;
  const precision = overlap / p.size;
  const recall = overlap / r.size;
  return (2 * precision * recall) / (precision + recall);
}

export function scoreTransition(prediction: ExperiencePrediction, real: Transition, stepLimit?: number): TransitionScore {
  // The task's own words are given, not predicted: compare as if the prediction carried them.
  const predictedNext: Observation = adaptToTask(prediction.next, real.instruction);
  const sameNextState = canonicalState(predictedNext.text) === canonicalState(real.next.text) && setF1(predictedNext.actions, real.next.actions) === 1;
  return {
    nextStateF1: tokenF1(tokens(predictedNext.text), tokens(real.next.text)),
    actionSetF1: setF1(predictedNext.actions, real.next.actions),
    rewardError: Math.abs(prediction.reward - real.reward),
    doneRight: prediction.done === real.done,
    sameNextState,
    valid: prediction.valid,
    realDone: real.done,
    predictedDone: prediction.done,
    realSuccess: isRealSuccess(real),
    predictedSuccess: isPredictedSuccess(prediction),
    cutOff: stepLimit !== undefined && real.done && real.reward === 0 && real.history.length + 1 >= stepLimit,
    ...revealed(predictedNext.actions, real),
  };
}

/** The registered environment's step limit (held-out episodes are played under it); none for an unknown env. */
function stepLimitOf(env: string): number | undefined {
  try {
    return envSpec(env).maxSteps;
  } catch {
    return undefined;
  }
}

function revealed(predicted: readonly string[], real: Transition): { revealedActions: number; revealedActionsFound: number } {
  const before = new Set(real.state.actions);
  const offered = new Set(predicted);
  const fresh = real.next.actions.filter((a) => !before.has(a));
  return { revealedActions: fresh.length, revealedActionsFound: fresh.filter((a) => offered.has(a)).length };
}

/** The kind of state an action was taken in (shop's page, the household's place), as retrieval groups them. */
function stateKind(state: Observation): string {
  try {
    return pageKind(parseState(state.text));
  } catch {
    return 'unparsed';
  }
}

/** Means of transition scores: the measures a fidelity report and the app's meter both show. */
export interface ScoreMeans {
  nextStateF1: number;
  actionSetF1: number;
  rewardMae: number;
  /** Share within REWARD_TOLERANCE of the real reward. */
  rewardAccuracy: number;
  doneAccuracy: number;
  /** Share whose predicted next state is exactly the real one (1 − ε_P). */
  exactNextState: number;
  /** Share that ended in the failure state because the model's output could not be used. */
  invalidRate: number;
}

/** Means over the scores; zeros when there are none. */
export function meanScores(scores: readonly TransitionScore[]): ScoreMeans {
  const n = scores.length;
  const mean = (f: (s: TransitionScore) => number): number => (n === 0 ? 0 : scores.reduce((a, s) => a + f(s), 0) / n);
  return {
    nextStateF1: mean((s) => s.nextStateF1),
    actionSetF1: mean((s) => s.actionSetF1),
    rewardMae: mean((s) => s.rewardError),
    rewardAccuracy: mean((s) => (s.rewardError <= REWARD_TOLERANCE ? 1 : 0)),
    doneAccuracy: mean((s) => (s.doneRight ? 1 : 0)),
    exactNextState: mean((s) => (s.sameNextState ? 1 : 0)),
    invalidRate: mean((s) => (s.valid ? 0 : 1)),
  };
}

export interface HeldoutTransition {
  transition: Transition;
  task: Task;
  /** The history with the states the episode passed through; without it each step stands in for its own history's states. */
  history?: HistoryStep[];
}

/**
 * Held-out real transitions as played, and the episodes they came from. `envErrors`: episodes the environment ended (a page that stopped answering: the last step's
 * `info.error`), left out: their last step's next state is the failure, not what the action did.
 * `retried`: plays a failing page ended that were played again.
 */
export interface HeldoutPlay extends EnvFailures {
  heldout: HeldoutTransition[];
  /** Episodes whose steps are in `heldout`. */
  episodes: number;
}

/**
 * `count` real transitions played fresh on the env's held-out split by scripted agents (the mix
 * seeds the buffer's way), so none of them is in a buffer seeded from the train split; or on
 * another `split`, to choose a setting off the split a figure reports. Episodes the environment
 * ended (a page that stopped answering) are left out and counted: their last step's next state is
 * the failure, not what the action did.
 */
export async function heldoutTransitions(spec: EnvSpec, count: number, mix: SeedMix, seed: number, split = spec.testSplit): Promise<HeldoutPlay> {
  const tasks = new Map<string, Task>(spec.tasks(split).map((t) => [t.id, t]));
  const heldout: HeldoutTransition[] = [];
  let episodes = 0;
  const failures = new EnvFailureTally();
  // `count` episodes are always enough (each has at least one transition), unless the env fails in some.
  for await (const episode of seedEpisodes({ spec, episodes: count, mix, seed, split, runId: `heldout-${spec.name}-${seed}`, createdAt: 0 })) {
    if (failures.count(episode)) continue;
    episodes++;
    const histories = episodeHistories(episode.transitions);
    episode.transitions.forEach((transition, i) => {
      if (heldout.length < count) heldout.push({ transition, task: tasks.get(transition.taskId) as Task, history: histories[i] ?? [] });
    });
    if (heldout.length >= count) break;
  }
  return { heldout, episodes, ...failures.summary() };
}

/**
 * A held-out transition posed as the model's input, teacher-forced from its real state. No episode
 * id: teacher forcing restarts every step from the real state, so each request is self-contained.
 * Without its history's states (`history`), each step stands in with the transition's own state.
 */
export function heldoutInput({ transition: t, task, history }: HeldoutTransition, examples: Transition[]): ExperienceInput {
  return { task, history: history ?? episodeHistories([t])[0] ?? [], state: t.state, action: t.action, examples };
}

/**
 * One scored step, as `experience eval --steps` writes it: what was asked and what the model said
 * against what happened, to find where a model goes wrong (the tasks whose successes it misses).
 * Without the states (a page's text is kilobytes): the task and the action name the step.
 */
export interface ScoredStep {
  taskId: string;
  instruction: string;
  /** Steps taken before this one in its episode. */
  step: number;
  action: string;
  real: { reward: number; done: boolean; success: boolean };
  predicted: { reward: number; done: boolean; success: boolean };
  nextStateF1: number;
}

export function scoredStep({ transition: t }: HeldoutTransition, prediction: ExperiencePrediction, score: TransitionScore): ScoredStep {
  return {
    taskId: t.taskId,
    instruction: t.instruction,
    step: t.history.length,
    action: t.action,
    real: { reward: t.reward, done: t.done, success: score.realSuccess },
    predicted: { reward: prediction.reward, done: prediction.done, success: score.predictedSuccess },
    nextStateF1: score.nextStateF1,
  };
}

export interface FidelityOptions {
  model: ExperienceModel;
  /** Retrieval over the offline (training) data; null gives the model no examples. */
  buffer: ReplayBuffer | null;
  k: number;
  /** Held-out real transitions, each with its task. */
  heldout: readonly HeldoutTransition[];
  /** Transitions per model call (default 32). */
  batchSize?: number;
  onProgress?: (done: number, total: number) => void;
}

/**
 * Predict every held-out transition from its real state and score it against what really happened.
 * `scores` are per transition, in `heldout`'s order, for callers that group them their own way.
 */
export async function measureFidelity(options: FidelityOptions): Promise<{ report: FidelityReport; inputs: ExperienceInput[]; scores: TransitionScore[]; predictions: ExperiencePrediction[] }> {
  const { model, buffer, k, heldout } = options;
  const batchSize = options.batchSize ?? 32;
  const scores: { score: TransitionScore; kind: string }[] = [];
  const inputs: ExperienceInput[] = [];
  const predicted: ExperiencePrediction[] = [];
  const started = performance.now();
  for (let start = 0; start < heldout.length; start += batchSize) {
    const slice = heldout.slice(start, start + batchSize);
    const examples = buffer
      ? await buffer.nearest(
          slice.map(({ transition: t }) => ({ instruction: t.instruction, state: t.state, action: t.action })),
          k,
          { env: slice[0]?.transition.env as string, source: 'real' },
        )
      : slice.map(() => []);
    const batch = slice.map((h, i) => heldoutInput(h, examples[i] ?? []));
    const predictions = await model.predict(batch);
    predictions.forEach((p, i) => {
      const real = (slice[i] as HeldoutTransition).transition;
      scores.push({ score: scoreTransition(p, real, stepLimitOf(real.env)), kind: stateKind(real.state) });
    });
    inputs.push(...batch);
    predicted.push(...predictions);
    options.onProgress?.(Math.min(heldout.length, start + batchSize), heldout.length);
  }
  const seconds = (performance.now() - started) / 1000;
  const byStateKind: FidelityReport['byStateKind'] = {};
  for (const kind of new Set(scores.map((s) => s.kind))) {
    const group = scores.filter((s) => s.kind === kind).map((s) => s.score);
    const means = meanScores(group);
    byStateKind[kind] = { transitions: group.length, nextStateF1: round(means.nextStateF1), rewardMae: round(means.rewardMae) };
  }
  const plain = scores.map((s) => s.score);
  const all = meanScores(plain);
  const terminal = plain.filter((s) => s.realDone);
  return {
    report: {
      transitions: scores.length,
      nextStateF1: round(all.nextStateF1),
      actionSetF1: round(all.actionSetF1),
      rewardAccuracy: round(all.rewardAccuracy),
      rewardMae: round(all.rewardMae),
      doneAccuracy: round(all.doneAccuracy),
      epsilonR: round(all.rewardMae),
      epsilonP: round(1 - all.exactNextState),
      invalidOutputRate: round(all.invalidRate),
      transitionsPerSecond: Math.round(scores.length / Math.max(seconds, 1e-9)),
      byStateKind,
      success: eventFidelity(plain, (s) => s.realSuccess, (s) => s.predictedSuccess),
      done: eventFidelity(plain.filter((s) => !s.cutOff), (s) => s.realDone, (s) => s.predictedDone),
      cutOffEnds: plain.filter((s) => s.cutOff).length,
      terminalRewardMae: terminal.length === 0 ? null : round(terminal.reduce((a, s) => a + s.rewardError, 0) / terminal.length),
      revealedActions: revealedRecall(plain),
    },
    inputs,
    scores: scores.map((s) => s.score),
    predictions: predicted,
  };
}

function revealedRecall(scores: readonly TransitionScore[]): FidelityReport['revealedActions'] {
  const real = scores.reduce((a, s) => a + s.revealedActions, 0);
  const found = scores.reduce((a, s) => a + s.revealedActionsFound, 0);
  return { real, found, recall: real === 0 ? null : round(found / real) };
}

function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
