/**
 * `NeuralExperienceModel`: the learned experience model that needs no download. For a batch of
 * inputs it lists candidate lines and actions (transition-candidates.ts, action-candidates.ts),
 * scores them all in one pass per head (network.ts), and assembles each next state from the lines
 * it keeps:
 *
 * - lines derived from one current line (the line itself and its edits) compete: at most one stays;
 * - a header key appears once (the likeliest line with that key);
 * - the order follows the source that contributed most lines (the current state, or one example's
 *   next state), the rest after it in their own order.
 *
 * The reasoning comes first (reasoning.ts): the reasoning head chooses among the sentences of the
 * retrieved examples' teacher annotations (the real environments' explanations), carried over by
 * the same analogy, and the transition head, whose reward and done the prediction reports, reads
 * what it chose. When it chooses no sentence, the reasoning is the annotation of the example whose
 * next state agrees best with the prediction.
 */
import { matchKey } from '../../core/actions.ts';
import { Rng } from '../../core/rng.ts';
import { emptyStats, failurePrediction, type ExperienceInput, type ExperienceModel, type ExperiencePrediction, type ExperienceStats, type PredictOptions } from '../types.ts';
import { actionCandidates } from './action-candidates.ts';
import { successSupported, TASK_RELATIVE_DENSE } from './analogous-steps.ts';
import { HISTORY_STATES } from './history-sources.ts';
import { CLAUSE_FEATURES, CLAUSE_SLOTS, EVIDENCE_WIDTH } from './requirement-evidence.ts';
import { transitionCandidates, type LineCandidate, type TransitionCandidates } from './transition-candidates.ts';
import { withReasoning } from './transition-features.ts';
import { elementNumber } from './element-numbers.ts';
import { lineFields, renderLines, type StateLine } from './lines.ts';
import { containsPhrase } from './phrase-map.ts';
import { quotingOurTask, REASONING_DENSE, REASONING_SUMMARY_DENSE, reasoningSummary } from './reasoning.ts';
import { NeuralNetwork, Rows, type NeuralArchitecture, type RequirementShape } from './network.ts';

export const LINE_DENSE = 30 + HISTORY_STATES + 1;
export const ACTION_DENSE = 21 + HISTORY_STATES + 1;
/**
 * The reasoning summary (REASONING_SUMMARY_DENSE, reasoning.ts), 20 scalars, our requirement evidence (4 × EVIDENCE_WIDTH), its difference from the peers'
 * (4 × EVIDENCE_WIDTH), the task-relative evidence (TASK_RELATIVE_DENSE), then the requirement rows (CLAUSE_SLOTS × CLAUSE_FEATURES); see transitionFeatures.
 */
export const TRANSITION_DENSE = REASONING_SUMMARY_DENSE + 20 + 8 * EVIDENCE_WIDTH + TASK_RELATIVE_DENSE + CLAUSE_SLOTS * CLAUSE_FEATURES;
/** The transition head's requirement sub-network: one row per requirement slot, 16 hidden units. */
export const REQUIREMENTS: RequirementShape = { slots: CLAUSE_SLOTS, features: CLAUSE_FEATURES, hidden: 16 };
export const HASH_SLOTS = { line: 5, action: 3, transition: 19, reasoning: 4 } as const;

export interface NeuralConfig {
  hidden: number;
  lineBuckets: number;
  actionBuckets: number;
  transitionBuckets: number;
  reasoningBuckets: number;
  /** An element line is kept when its probability reaches this (token F1 rewards a likely line). */
  keepThreshold: number;
}

export const DEFAULT_NEURAL_CONFIG: NeuralConfig = { hidden: 64, lineBuckets: 256, actionBuckets: 128, transitionBuckets: 256, reasoningBuckets: 256, keepThreshold: 0.35 };

export function architectureOf(config: NeuralConfig): NeuralArchitecture {
  return {
    kind: 'candidate-mlp',
    heads: {
      line: { dense: LINE_DENSE, buckets: config.lineBuckets, hidden: config.hidden, outputs: 1 },
      action: { dense: ACTION_DENSE, buckets: config.actionBuckets, hidden: config.hidden, outputs: 1 },
      transition: { dense: TRANSITION_DENSE, buckets: config.transitionBuckets, hidden: config.hidden, outputs: 2, requirements: REQUIREMENTS },
      reasoning: { dense: REASONING_DENSE, buckets: config.reasoningBuckets, hidden: config.hidden, outputs: 1 },
    },
  };
}

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/**
 * Keep the lines the scores choose, in the order of the source that contributed most. A header key
 * the examples' next states agree on is always kept (its likeliest value): a state without its
 * `location` or `feedback` line is never right, while a likely value often is.
 */
export function assembleLines(candidates: readonly LineCandidate[], scores: ArrayLike<number>, headerKeys: readonly string[], threshold = 0.5, random?: () => number): StateLine[] {
  const chosen = new Map<string, { c: LineCandidate; p: number }>();
  const required = new Set(headerKeys);
  const headerChoices = new Map<string, { c: LineCandidate; p: number }[]>();
  candidates.forEach((c, i) => {
    const p = sigmoid(scores[i] as number);
    // One line per current line (itself or an edit of it), one per header key, one per element
    // number (a page numbers one element so: `#23 To | empty` and an example's `#23 To | value: …`
    // are two readings of one text box).
    const number = elementNumber(c.line);
    const group = c.line.header ? `h\u0000${c.line.key}` : number !== null ? `n\u0000${number}` : c.origin >= 0 ? `o\u0000${c.origin}` : `t\u0000${c.line.text}`;
    // Imagining, a line the state gains is drawn with its probability: each of a room's objects is
    // unlikely alone, so the likeliest room holds none of them.
    if (random && !c.line.header && c.origin < 0) {
      const held = chosen.get(group);
      if (random() < p && (!held || p > held.p)) chosen.set(group, { c, p });
      return;
    }
    if (p < threshold && !(c.line.header && required.has(c.line.key))) return;
    if (random && c.line.header) {
      const choices = headerChoices.get(group);
      if (choices) choices.push({ c, p });
      else headerChoices.set(group, [{ c, p }]);
    }
    const held = chosen.get(group);
    if (!held || p > held.p) chosen.set(group, { c, p });
  });
  if (random) {
    for (const [group, choices] of headerChoices) {
      // Among the plausible ones only: a line a tenth as likely as the best is another step's (an inventory's feedback after a `go to`).
      const best = Math.max(...choices.map((x) => x.p));
      chosen.set(group, drawByWeight(choices.filter((x) => x.p >= best / 10), random));
    }
  }
  keepWhatHeadersName(candidates, chosen);
  const kept = [...chosen.values()].map((x) => x.c);
  const votes = new Map<number, number>();
  for (const c of kept) if (!c.line.header) for (const source of c.positions.keys()) votes.set(source, (votes.get(source) ?? 0) + 1);
  let anchor = 0;
  for (const [source, n] of votes) if (n > (votes.get(anchor) ?? 0)) anchor = source;
  const firstSource = (c: LineCandidate): [number, number] => [...c.positions.entries()].sort((a, b) => a[0] - b[0])[0] ?? [0, 0];
  const headerRank = (c: LineCandidate): number => {
    const at = headerKeys.indexOf(c.line.key);
    return at >= 0 ? at : headerKeys.length + firstSource(c)[1];
  };
  const rank = (c: LineCandidate): number => {
    if (c.line.header) return headerRank(c);
    const atAnchor = c.positions.get(anchor);
    if (atAnchor !== undefined) return 1_000_000 + atAnchor;
    const [source, position] = firstSource(c);
    return 1_000_000 + (1 + source) * 10_000 + position;
  };
  const seen = new Set<string>();
  return kept
    .sort((a, b) => rank(a) - rank(b))
    .map((c) => c.line)
    .filter((l) => {
      const key = `${l.header}\u0000${l.text}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/**
 * One of the choices, drawn in proportion to its probability. Which header line a step shows (the
 * feedback that names a room's objects) is drawn rather than taken at its likeliest when the model
 * imagines: what a receptacle holds differs from task to task, so the likeliest room is the one
 * without the task's object, and a dream that always shows it lets no search succeed.
 */
function drawByWeight<T extends { p: number }>(choices: readonly T[], random: () => number): T {
  const total = choices.reduce((sum, x) => sum + x.p, 0);
  let point = random() * total;
  for (const choice of choices) {
    point -= choice.p;
    if (point < 0) return choice;
  }
  return choices[choices.length - 1] as T;
}

/**
 * An example's next state is one picture: where a header line of it was kept, the element lines of
 * the same example that the header names come with it. Scored one by one, each of a room's objects
 * is unlikely (which objects a receptacle holds varies from task to task), so each fell below the
 * threshold while the likeliest `feedback` line, which is always kept, still said "you see a
 * soapbottle 1": the predicted room then offered nothing to take, and the oracle, played inside the
 * model, never got past its first `take` (`npm run experiment -- dream-scripted`).
 */
function keepWhatHeadersName(candidates: readonly LineCandidate[], chosen: Map<string, { c: LineCandidate; p: number }>): void {
  const headers = [...chosen.values()].map((x) => x.c).filter((c) => c.line.header);
  // Each candidate's name, read once however many headers and sources ask it.
  const names: (string | undefined)[] = [];
  for (const header of headers) {
    // Only what the step says anew: a header the current state has too (the task, the instruction) names what it always did.
    if (header.positions.has(0)) continue;
    const text = header.line.text.toLowerCase();
    for (const source of header.positions.keys()) {
      for (let j = 0; j < candidates.length; j++) {
        const c = candidates[j] as LineCandidate;
        if (c.line.header || c.origin >= 0 || !c.positions.has(source)) continue;
        const name = (names[j] ??= (lineFields(c.line)[0] ?? '').toLowerCase());
        if (name.length < 2 || !containsPhrase(text, name)) continue;
        const group = `t\u0000${c.line.text}`;
        if (!chosen.has(group)) chosen.set(group, { c, p: 0 });
      }
    }
  }
}

export interface NeuralMeta {
  env: string;
  config: NeuralConfig;
  /** What it was trained on and how well it did (the .dgx header's training/evaluation). */
  training: Record<string, unknown>;
}

/**
 * A cache of the candidates of inputs posed again unchanged (the fit's held-out transitions, every
 * epoch): candidates depend on the input and the model's thing names, never on its weights, and
 * they are most of a prediction's cost. Keyed by the input object, so an input must not change
 * while its entry lives.
 */
export type CandidateCache = WeakMap<ExperienceInput, TransitionCandidates>;

export interface NeuralPredictOptions extends PredictOptions {
  candidates?: CandidateCache;
  /**
   * Imagine, each input from its own stream seeded here (`imaginationSeeds`), in place of `random`:
   * how a prediction pool (prediction-pool.ts) hands each worker its inputs' draws.
   */
  seeds?: readonly number[];
}

/**
 * The seed of each input's imagination, drawn from `random` in the batch's order. Each input draws
 * from a stream of its own, never from one shared by the batch, so that a batch split across
 * workers imagines exactly what it imagines whole, whatever the number of workers.
 */
export function imaginationSeeds(random: () => number, count: number): number[] {
  return Array.from({ length: count }, () => Math.floor(random() * 2 ** 32));
}

function imaginationStreams(count: number, options: NeuralPredictOptions): (() => number)[] | undefined {
  const seeds = options.seeds ?? (options.random ? imaginationSeeds(options.random, count) : undefined);
  if (!seeds) return undefined;
  if (seeds.length !== count) throw new RangeError(`${seeds.length} imagination seeds for a batch of ${count}`);
  return seeds.map((seed) => {
    const rng = new Rng(seed);
    return () => rng.next();
  });
}

export class NeuralExperienceModel implements ExperienceModel {
  readonly name = 'neural';
  private readonly counters: ExperienceStats = emptyStats();
  /** The names numbered things go by in its data (none in a file fitted before they were kept). */
  private readonly things: ReadonlySet<string>;
  /**
   * The end reward from which it calls an ending a success (success.ts), as its fit calibrated it on
   * held-out real endings; null (a file fitted before, or too few endings): the default rule decides.
   */
  private successReward: number | null;

  constructor(
    readonly network: NeuralNetwork,
    readonly meta: NeuralMeta,
  ) {
    const things = meta.training['things'];
    this.things = new Set(Array.isArray(things) ? things.filter((t): t is string => typeof t === 'string' && /^[a-z]+$/.test(t)) : []);
    const successReward = meta.training['successReward'];
    this.successReward = typeof successReward === 'number' && successReward >= 0.5 && successReward <= 1 ? successReward : null;
  }

  /** The fit's calibration (success.ts `calibrateSuccessReward`); null keeps the default rule. */
  calibrateSuccess(successReward: number | null): void {
    this.successReward = successReward;
  }

  /** What it reads besides its weights (the thing names it aligns tasks by, whether it reasons, its success reward), for its file's training record. */
  knowledge(): Record<string, unknown> {
    return {
      ...(this.things.size > 0 ? { things: [...this.things] } : {}),
      ...(this.meta.training['reasoning'] === false ? { reasoning: false } : {}),
      ...(this.successReward !== null ? { successReward: this.successReward } : {}),
    };
  }

  async predict(batch: readonly ExperienceInput[], options: NeuralPredictOptions = {}): Promise<ExperiencePrediction[]> {
    const arch = this.network.architecture;
    // A model fitted without reasoning never learned to read any: its examples' annotations are set aside.
    const reasons = this.meta.training['reasoning'] !== false;
    const imagination = imaginationStreams(batch.length, options);
    const prepared: TransitionCandidates[] = batch.map((input) => {
      let p = options.candidates?.get(input);
      if (!p) {
        p = transitionCandidates(input, this.things);
        options.candidates?.set(input, p);
      }
      return reasons ? p : { ...p, reasoning: [], reasoningSources: [] };
    });
    options.signal?.throwIfAborted();

    // The reasoning first: the transition head reads what it chose.
    const reasoningRows = new Rows(arch.heads.reasoning, HASH_SLOTS.reasoning);
    const reasoningSpans: [number, number][] = [];
    for (const p of prepared) {
      const start = reasoningRows.count;
      for (const c of p.reasoning) reasoningRows.push(c.features, [0]);
      reasoningSpans.push([start, reasoningRows.count]);
    }
    const reasoningLogits = await this.network.logits('reasoning', reasoningRows, range(reasoningRows.count));
    const summaries = prepared.map((p, i) => {
      const [start, end] = reasoningSpans[i] as [number, number];
      return reasoningSummary(p.reasoning, Array.from(reasoningLogits.subarray(start, end), sigmoid), p.reasoningSources);
    });

    const lineRows = new Rows(arch.heads.line, HASH_SLOTS.line);
    const transitionRows = new Rows(arch.heads.transition, HASH_SLOTS.transition);
    const lineSpans: [number, number][] = [];
    prepared.forEach((p, i) => {
      const start = lineRows.count;
      for (const c of p.lines) lineRows.push(c.features, [0]);
      lineSpans.push([start, lineRows.count]);
      transitionRows.push(withReasoning(p.transition, summaries[i] as ReturnType<typeof reasoningSummary>), [0, 0]);
    });
    const lineLogits = await this.network.logits('line', lineRows, range(lineRows.count));
    const transitionLogits = await this.network.logits('transition', transitionRows, range(transitionRows.count));
    const nextLines = prepared.map((p, i) => {
      const [start, end] = lineSpans[i] as [number, number];
      return assembleLines(p.lines, lineLogits.subarray(start, end), p.headerKeys, this.meta.config.keepThreshold, imagination?.[i]);
    });

    const actionRows = new Rows(arch.heads.action, HASH_SLOTS.action);
    const actionLists = prepared.map((p, i) => actionCandidates(p.actionContext, nextLines[i] as StateLine[]));
    const actionSpans: [number, number][] = [];
    for (const list of actionLists) {
      const start = actionRows.count;
      for (const c of list) actionRows.push(c.features, [0]);
      actionSpans.push([start, actionRows.count]);
    }
    const actionLogits = await this.network.logits('action', actionRows, range(actionRows.count));
    options.signal?.throwIfAborted();

    return prepared.map((p, i) => {
      this.counters.predictions++;
      const input = batch[i] as ExperienceInput;
      const lines = nextLines[i] as StateLine[];
      if (lines.length === 0) {
        this.counters.invalidOutputs++;
        return failurePrediction('the neural model kept no line of any candidate next state');
      }
      const [start, end] = actionSpans[i] as [number, number];
      const actions: string[] = [];
      const seen = new Set<string>();
      (actionLists[i] ?? []).forEach((c, j) => {
        if (sigmoid(actionLogits[start + j] as number) < 0.5 || end <= start) return;
        const key = matchKey(c.action);
        if (seen.has(key)) return;
        seen.add(key);
        actions.push(c.action);
      });
      let reward = sigmoid(transitionLogits[2 * i] as number);
      let done = sigmoid(transitionLogits[2 * i + 1] as number) >= 0.5;
      // Imagining, no success without an example that vouches for it: pessimism where the model has
      // no evidence, as model-based offline RL penalises what its model does not know. The episode
      // goes on unpaid.
      if (imagination && done && reward >= 0.5 && !successSupported(input, p.actionContext.views)) {
        this.counters.unsupportedSuccesses++;
        reward = 0;
        done = false;
      }
      const roundedReward = Math.round(reward * 100) / 100;
      const said = (summaries[i] as ReturnType<typeof reasoningSummary>).said;
      return {
        reasoning: said.length > 0 ? said.map((c) => c.text).join(' ') : reasoningFor(p, input, lines, roundedReward),
        next: { text: renderLines(lines), actions },
        reward: roundedReward,
        done,
        valid: true,
        ...(this.successReward !== null ? { won: done && roundedReward >= this.successReward } : {}),
      };
    });
  }

  stats(): ExperienceStats {
    return { ...this.counters };
  }

  dispose(): void {
    this.network.dispose();
  }
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

/** The annotation of the example whose carried-over next state agrees best with the prediction. */
function reasoningFor(p: TransitionCandidates, input: ExperienceInput, lines: readonly StateLine[], reward: number): string {
  const predicted = new Set(lines.map((l) => l.text));
  let best = -1;
  let bestScore = -1;
  p.actionContext.views.forEach((view, i) => {
    const overlap = view.nextBase.filter((l) => predicted.has(l.text)).length / Math.max(1, view.nextBase.length + predicted.size);
    if (overlap > bestScore) {
      best = i;
      bestScore = overlap;
    }
  });
  const view = p.actionContext.views[best];
  const said = view?.example.reasoning ? quotingOurTask(view.reasoningMap(view.example.reasoning), view.example.instruction, input.task.instruction) : '';
  const base = said !== '' ? said : `"${input.action}" leads to a state like the one after "${view?.example.action ?? 'a similar action'}" in a similar real transition.`;
  const exampleReward = view?.example.reward;
  return exampleReward !== undefined && Math.abs(exampleReward - reward) > 0.05 ? `${base} Here the expected reward is ${reward.toFixed(2)}, not ${exampleReward.toFixed(2)}.` : base;
}
