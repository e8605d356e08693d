/**
 * Supervised fitting of the neural experience model on the replay buffer's real transitions, as
 * the paper trains its experience model on offline trajectories. Each transition is posed exactly
 * as a prediction will be: its k retrieved examples come from other episodes (its own is
 * excluded), its candidates are labelled by the real next state, its actions by the real list, its
 * reward and done by what really happened. A share of the episodes is held out to report fidelity
 * after every epoch (the app's chart).
 */
import { DreamGymError } from '../../core/errors.ts';
import { matchKey } from '../../core/actions.ts';
import { breather } from '../../core/event-loop.ts';
import { Rng } from '../../core/rng.ts';
import type { Task, Transition } from '../../core/types.ts';
import type { ReplayBuffer } from '../../replay/retrieval.ts';
import { tf } from '../../platform/tf.ts';
import { meanScores, scoreTransition, type ScoreMeans, type TransitionScore } from '../fidelity.ts';
import { episodeHistories, withoutReasoning } from '../history.ts';
import type { ExperienceInput, ExperiencePrediction } from '../types.ts';
import { calibrateSuccessReward, isRealSuccess, successRewardOfEndings } from '../success.ts';
import { actionCandidates } from './action-candidates.ts';
import { transitionCandidates, type LineCandidate } from './transition-candidates.ts';
import { reasoningLabels, reasoningSummary, REASONING_SUMMARY_SLOTS, type ReasoningCandidate, type ReasoningSource } from './reasoning.ts';
import { thingNames } from './analogy.ts';
import { elementNumber } from './element-numbers.ts';
import { lineFields, stateLines, type StateLine } from './lines.ts';
import { architectureOf, DEFAULT_NEURAL_CONFIG, HASH_SLOTS, NeuralExperienceModel, type CandidateCache, type NeuralConfig } from './model.ts';
import { disposeBatch, headBatch, headLoss, HEADS, NeuralNetwork, Rows, type HeadName } from './network.ts';
import { DEFAULT_FIT } from './fit-settings.ts';
import { HostAdam } from './host-adam.ts';

export interface FitOptions {
  buffer: ReplayBuffer;
  env: string;
  /** Retrieved examples per transition (as at prediction time). */
  k?: number;
  config?: NeuralConfig;
  epochs?: number;
  batchSize?: number;
  learningRate?: number;
  seed?: number;
  /** Share of episodes held out for the per-epoch fidelity (0 for none). */
  validationShare?: number;
  /**
   * Let a transition retrieve its own episode (and so itself). Off by default: prediction asks
   * about unseen transitions, and training should pose the same question. Tests turn it on to
   * check that the model can reproduce what it was shown.
   */
  ownEpisodeExamples?: boolean;
  /** Learn from at most this many real transitions (the first by id). */
  maxTransitions?: number;
  /** How much more an episode's last transition weighs in the reward and done losses (default 1: no more). */
  eventWeight?: number;
  /** The transition head takes a step every this many joint steps (DEFAULT_FIT.transitionEvery). */
  transitionEvery?: number;
  /**
   * False fits the model without reasoning: its examples are posed without their annotations, so
   * the reasoning head has nothing to choose and the transition head learns without what it would
   * have said (the ablation `experience eval` compares with).
   */
  reasoning?: boolean;
  /**
   * Start from this model's weights instead of fresh ones (`experience fit --init`): fine-tuning a
   * pretrained model on a new buffer. Its architecture is the fit's (`config` must be left out or
   * be the same); it is read, never changed.
   */
  init?: NeuralExperienceModel;
  /** Ends the fit at once, throwing; what was fitted is freed (the app's Stop). */
  signal?: AbortSignal;
  /**
   * Ends the fit after the epoch in flight, returning the model fitted so far (`FitResult.stopped`):
   * the CLI's Ctrl-C, which keeps finished epochs. Before the first epoch starts it ends the fit
   * as `signal` does, since nothing is fitted yet.
   */
  finish?: AbortSignal;
  onProgress?: (progress: FitProgress) => void;
}

export interface FitProgress {
  phase: 'prepare' | 'train' | 'validate';
  epoch: number;
  epochs: number;
  /** Transitions prepared, or minibatches done in this epoch. */
  done: number;
  total: number;
  loss?: Record<HeadName, number>;
  /** Fidelity on the held-out episodes after this epoch. */
  validation?: ScoreMeans;
}

export interface FitResult {
  model: NeuralExperienceModel;
  /** The training transitions as they were posed (input with its examples, and what really happened). */
  inputs: { input: ExperienceInput; real: Transition }[];
  transitions: number;
  validationTransitions: number;
  rows: Record<HeadName, number>;
  epochs: { epoch: number; loss: Record<HeadName, number>; validation: ScoreMeans | null }[];
  seconds: number;
  /** True when `finish` ended the fit before its last epoch: `epochs` lists those done. */
  stopped: boolean;
}


/** Every real transition of the env in the store, in id order. */
async function realTransitions(buffer: ReplayBuffer, env: string, max: number): Promise<Transition[]> {
  const out: Transition[] = [];
  let after: number | undefined;
  for (;;) {
    const page = await buffer.store.page({ filter: { env, source: 'real' }, ...(after !== undefined ? { after } : {}), limit: 2000 });
    for (const t of page.items) if (out.length < max) out.push(t);
    if (page.next === null || out.length >= max) break;
    after = page.next;
  }
  return out;
}

/** The names numbered things go by in the training transitions' states, sorted (see `analogy`). */
function thingsOf(transitions: readonly Transition[]): string[] {
  const names = new Set<string>();
  for (const t of transitions) for (const o of [t.state, t.next]) for (const name of thingNames(stateLines(o))) names.add(name);
  return [...names].sort();
}

/**
 * The thing names a fit aligns tasks by. Every other input of the network is hashed into fixed
 * buckets (HASH_SLOTS), so its weights mean the same on any buffer and need no vocabulary of their
 * own; the thing names are the one part that comes from the data. A fine-tuned model keeps its
 * initial model's names, which its weights learned their analogies with (a pretrained model's,
 * from thousands of sites), and adds the new buffer's, as a fit from scratch on it would.
 */
function thingsFrom(init: NeuralExperienceModel | undefined, train: readonly Transition[]): string[] {
  const known = init?.knowledge().things;
  return [...new Set([...(Array.isArray(known) ? (known as string[]) : []), ...thingsOf(train)])].sort();
}

function taskOf(t: Transition): Task {
  return { id: t.taskId, env: t.env, instruction: t.instruction, difficulty: 0, origin: 'seed' };
}

/** Each transition posed as a prediction input, with examples from other episodes. */
async function inputsFor(buffer: ReplayBuffer, transitions: readonly Transition[], env: string, k: number, ownEpisode: boolean, reasoning: boolean, onDone: (n: number) => void, pause: () => Promise<void>): Promise<ExperienceInput[]> {
  const byEpisode = new Map<string, number[]>();
  transitions.forEach((t, i) => {
    const key = t.episodeId ?? `${t.runId}/${t.taskId}`;
    const list = byEpisode.get(key) ?? [];
    list.push(i);
    byEpisode.set(key, list);
  });
  const inputs = new Array<ExperienceInput>(transitions.length);
  let done = 0;
  for (const [episode, indices] of byEpisode) {
    const queries = indices.map((i) => transitions[i] as Transition);
    const examples = await buffer.nearest(
      queries.map((t) => ({ instruction: t.instruction, state: t.state, action: t.action })),
      k,
      { env, source: 'real', ...(queries[0]?.episodeId !== undefined && !ownEpisode ? { excludeEpisode: episode } : {}) },
    );
    const histories = episodeHistories(queries);
    indices.forEach((i, j) => {
      const t = transitions[i] as Transition;
      const shown = examples[j] ?? [];
      inputs[i] = { task: taskOf(t), history: histories[j] ?? [], state: t.state, action: t.action, examples: reasoning ? shown : shown.map(withoutReasoning) };
    });
    done += indices.length;
    onDone(done);
    await pause();
  }
  return inputs;
}


/** What a training transition's reasoning summary is computed from again after each reasoning pass. */
interface ReasoningOfRow {
  candidates: ReasoningCandidate[];
  sources: ReasoningSource[];
  /** Its rows in the reasoning head's rows. */
  start: number;
  end: number;
}

const lineKey = (line: StateLine): string => `${line.header}\u0000${line.text}`;

/** A numbered element's kind and first field (`combobox`, `#12 Role`), whatever its other fields say; null for other lines. */
function elementKey(line: StateLine): string | null {
  return elementNumber(line) === null ? null : `${line.key}\u0000${lineFields(line)[0] ?? ''}`;
}

/**
 * The numbered elements of the real next state that no candidate spells exactly (a form's Role
 * box shows this user's role, which no example's page showed): any candidate of the same element
 * is taught to stand for it. Taught only the exact lines, the model learned to drop such elements,
 * and the page it predicted had no Role box to choose a role in.
 */
function uncoveredElements(truth: readonly StateLine[], candidates: readonly LineCandidate[]): Set<string> {
  const spelled = new Set(candidates.map((c) => lineKey(c.line)));
  const out = new Set<string>();
  for (const line of truth) {
    const key = elementKey(line);
    if (key !== null && !spelled.has(lineKey(line))) out.add(key);
  }
  return out;
}

/** What the line head learns of each candidate: 1 for a line of the real next state, or a stand-in for one of its numbered elements (see uncoveredElements). */
export function lineLabels(candidates: readonly LineCandidate[], next: readonly StateLine[]): number[] {
  const truth = new Set(next.map(lineKey));
  const standIns = uncoveredElements(next, candidates);
  return candidates.map((c) => (truth.has(lineKey(c.line)) || (standIns.size > 0 && standIns.has(elementKey(c.line) ?? '')) ? 1 : 0));
}

function addRows(rows: Record<HeadName, Rows>, input: ExperienceInput, real: Transition, things: ReadonlySet<string>): ReasoningOfRow {
  const prepared = transitionCandidates(input, things);
  const start = rows.reasoning.count;
  reasoningLabels(prepared.reasoning, real.reasoning, input.task.instruction).forEach((label, i) => rows.reasoning.push((prepared.reasoning[i] as ReasoningCandidate).features, [label]));
  const labels = lineLabels(prepared.lines, stateLines(real.next));
  prepared.lines.forEach((c, i) => rows.line.push(c.features, [labels[i] as number]));
  const actions = new Set(real.next.actions.map(matchKey));
  // Teacher forcing: templates are filled from the real next state's lines.
  for (const c of actionCandidates(prepared.actionContext, stateLines(real.next))) rows.action.push(c.features, [actions.has(matchKey(c.action)) ? 1 : 0]);
  // Its reasoning summary is filled in by fillReasoning, from what the reasoning head says each epoch.
  rows.transition.push(prepared.transition, [Math.min(1, Math.max(0, real.reward)), real.done ? 1 : 0]);
  return { candidates: prepared.reasoning, sources: prepared.reasoningSources, start, end: rows.reasoning.count };
}

/**
 * Put what the reasoning head now says into every transition row, so the transition head learns
 * from the reasoning it will read at prediction time (its own choices, not the real annotations).
 */
async function fillReasoning(network: NeuralNetwork, rows: Record<HeadName, Rows>, reasoningOf: readonly ReasoningOfRow[]): Promise<void> {
  const probabilities = new Float32Array(rows.reasoning.count);
  const chunk = 8192;
  for (let s = 0; s < rows.reasoning.count; s += chunk) {
    const logits = await network.logits('reasoning', rows.reasoning, Array.from({ length: Math.min(chunk, rows.reasoning.count - s) }, (_, i) => s + i));
    logits.forEach((x, i) => (probabilities[s + i] = 1 / (1 + Math.exp(-x))));
  }
  reasoningOf.forEach((r, row) => {
    const summary = reasoningSummary(r.candidates, probabilities.subarray(r.start, r.end), r.sources);
    rows.transition.patchPrefix(row, summary.dense, Array.from({ length: REASONING_SUMMARY_SLOTS }, (_, i) => summary.hashed[i] ?? ''));
  });
}

/** One gradient step of a head on the rows `batch`; returns its loss. */
async function trainStep(network: NeuralNetwork, head: HeadName, rows: Rows, optimizer: HostAdam, batch: readonly number[], eventWeight: number): Promise<number> {
  const x = headBatch(rows.batch(batch, true), rows.shape);
  const y = tf.tensor2d(rows.targetMatrix(batch), [batch.length, rows.shape.outputs]);
  try {
    return await optimizer.minimize(() => headLoss(head, network.forward(head, x), y, eventWeight));
  } finally {
    disposeBatch(x);
    y.dispose();
  }
}

/** One pass of a head over its rows, in `batchSize` minibatches; returns the mean loss. */
async function trainPass(network: NeuralNetwork, head: HeadName, rows: Rows, optimizer: HostAdam, order: readonly number[], batchSize: number, eventWeight: number, pause: () => Promise<void>): Promise<number> {
  let sum = 0;
  let count = 0;
  for (let start = 0; start < order.length; start += batchSize) {
    await pause();
    sum += await trainStep(network, head, rows, optimizer, order.slice(start, start + batchSize), eventWeight);
    count++;
  }
  return count === 0 ? 0 : sum / count;
}

export async function fitNeuralModel(options: FitOptions): Promise<FitResult> {
  const started = performance.now();
  const k = options.k ?? DEFAULT_FIT.k;
  const epochs = options.epochs ?? DEFAULT_FIT.epochs;
  const batchSize = options.batchSize ?? DEFAULT_FIT.batchSize;
  const init = options.init;
  if (init && init.meta.env !== options.env) throw new RangeError(`the initial model simulates ${init.meta.env}, not ${options.env}`);
  if (init && options.config && JSON.stringify(options.config) !== JSON.stringify(init.meta.config)) throw new RangeError('a fit from an initial model keeps its architecture: leave the config out');
  const config = init?.meta.config ?? options.config ?? DEFAULT_NEURAL_CONFIG;
  const seed = options.seed ?? DEFAULT_FIT.seed;
  const rng = new Rng(`neural-fit-${seed}`);
  // The reasoning head shuffles with a stream of its own, so that fitting with or without reasoning
  // trains the line and action heads on exactly the same minibatches (the ablation differs only in
  // the reasoning and what the transition head reads of it).
  const reasoningRng = new Rng(`neural-fit-reasoning-${seed}`);
  const arch = architectureOf(config);

  const transitions = await realTransitions(options.buffer, options.env, options.maxTransitions ?? Number.POSITIVE_INFINITY);
  if (transitions.length === 0) throw new RangeError(`the buffer holds no real ${options.env} transitions to learn from; seed it from the real environment first`);
  // Between steps: on wasm or cpu nothing here awaits real I/O, so a turn of the event loop now and
  // then lets the worker read its messages (Stop arrives while the fit runs, not after it); then
  // the stop is honoured.
  const breathe = breather();
  const history: FitResult['epochs'] = [];
  let training = false;
  const pause = async (): Promise<void> => {
    await breathe();
    options.signal?.throwIfAborted();
    // Before the first epoch, nothing is fitted that a stop could keep.
    if (!training) options.finish?.throwIfAborted();
  };
  const inputs = await inputsFor(options.buffer, transitions, options.env, k, options.ownEpisodeExamples ?? false, options.reasoning ?? true, (n) => options.onProgress?.({ phase: 'prepare', epoch: 0, epochs, done: n, total: transitions.length }), pause);

  // Hold out whole episodes for the per-epoch fidelity.
  const share = options.validationShare ?? DEFAULT_FIT.validationShare;
  const episodes = [...new Set(transitions.map((t) => t.episodeId ?? t.taskId))];
  const heldEpisodes = new Set(episodes.filter(() => rng.next() < share));
  const train: number[] = [];
  const held: number[] = [];
  transitions.forEach((t, i) => (heldEpisodes.has(t.episodeId ?? t.taskId) ? held : train).push(i));

  const rows: Record<HeadName, Rows> = {
    line: new Rows(arch.heads.line, HASH_SLOTS.line),
    action: new Rows(arch.heads.action, HASH_SLOTS.action),
    transition: new Rows(arch.heads.transition, HASH_SLOTS.transition),
    reasoning: new Rows(arch.heads.reasoning, HASH_SLOTS.reasoning),
  };
  const things = thingsFrom(init, train.map((i) => transitions[i] as Transition));
  const thingSet = new Set(things);
  const reasoningOf: ReasoningOfRow[] = [];
  for (const i of train) {
    reasoningOf.push(addRows(rows, inputs[i] as ExperienceInput, transitions[i] as Transition, thingSet));
    await pause();
  }
  const eventWeight = options.eventWeight ?? DEFAULT_FIT.eventWeight;
  const transitionEvery = Math.max(1, Math.round(options.transitionEvery ?? DEFAULT_FIT.transitionEvery));

  const network = init ? new NeuralNetwork(arch, { weights: await init.network.getWeights() }) : new NeuralNetwork(arch, { seed });
  // The success reward until, or unless, this fit's held-out endings calibrate one: the initial
  // model's, else the one the real endings imply (success.ts). Too few endings to calibrate on (a
  // few demonstrations) must not put the default's strictness in their place.
  const inherited = init?.knowledge().successReward;
  const standing = typeof inherited === 'number' ? inherited : successRewardOfEndings(transitions);
  const model = new NeuralExperienceModel(network, { env: options.env, config, training: { ...(options.reasoning === false ? { reasoning: false } : {}), things, ...(standing !== null ? { successReward: standing } : {}) } });
  const learningRate = options.learningRate ?? DEFAULT_FIT.learningRate;
  const optimizers = Object.fromEntries(await Promise.all(HEADS.map(async (h) => [h, await HostAdam.create(network.headVariables(h), learningRate)]))) as Record<HeadName, HostAdam>;
  // The held-out inputs are posed every epoch; their candidates are worked out once.
  const heldCandidates: CandidateCache = new WeakMap();
  try {
    // No await from here to the loop's test: a stop asked before it ends the fit with nothing to keep.
    options.finish?.throwIfAborted();
    training = true;
    for (let epoch = 1; epoch <= epochs && !(options.finish?.aborted ?? false); epoch++) {
      const orders = Object.fromEntries(JOINT_HEADS.map((h) => [h, rng.shuffle(Array.from({ length: rows[h].count }, (_, i) => i))])) as Record<HeadName, number[]>;
      orders.reasoning = reasoningRng.shuffle(Array.from({ length: rows.reasoning.count }, (_, i) => i));
      const steps = Math.max(...JOINT_HEADS.map((h) => Math.ceil(rows[h].count / batchSize)));
      const sums = { line: 0, action: 0, transition: 0, reasoning: 0 };
      const counts = { line: 0, action: 0, transition: 0, reasoning: 0 };
      // The reasoning first, then the transition head reads what it now says (as at prediction time).
      // Its rows are few (a sentence or two per transition), so it takes several passes to get a
      // number of steps like the other heads'.
      const passes = Math.min(MAX_REASONING_PASSES, Math.max(1, Math.round(steps / Math.max(1, Math.ceil(rows.reasoning.count / batchSize)))));
      for (let pass = 0; pass < passes; pass++) {
        const order = pass === 0 ? orders.reasoning : reasoningRng.shuffle(orders.reasoning);
        sums.reasoning += finiteLoss(await trainPass(network, 'reasoning', rows.reasoning, optimizers.reasoning, order, batchSize, eventWeight, pause), 'reasoning', epoch, learningRate);
        counts.reasoning++;
      }
      await fillReasoning(network, rows, reasoningOf);
      for (let step = 0; step < steps; step++) {
        await pause();
        for (const head of JOINT_HEADS) {
          const order = orders[head];
          // Smaller heads cycle through their rows again so every head takes a step each time.
          const perHead = Math.ceil(order.length / steps);
          const start = (step * perHead) % Math.max(1, order.length);
          const batch = order.slice(start, start + Math.max(perHead, Math.min(batchSize, order.length)));
          if (batch.length === 0 || (head === 'transition' && step % transitionEvery !== 0)) continue;
          sums[head] += finiteLoss(await trainStep(network, head, rows[head], optimizers[head], batch, eventWeight), head, epoch, learningRate);
          counts[head]++;
        }
        if (step % 20 === 0 || step === steps - 1) {
          options.onProgress?.({ phase: 'train', epoch, epochs, done: step + 1, total: steps, loss: meanLoss(sums, counts) });
        }
      }
      let validation: ScoreMeans | null = null;
      if (held.length > 0) {
        const posed: { prediction: ExperiencePrediction; real: Transition }[] = [];
        for (let s = 0; s < held.length; s += 64) {
          await pause();
          const slice = held.slice(s, s + 64);
          const predictions = await model.predict(slice.map((i) => inputs[i] as ExperienceInput), { candidates: heldCandidates });
          predictions.forEach((prediction, j) => posed.push({ prediction, real: transitions[slice[j] as number] as Transition }));
          options.onProgress?.({ phase: 'validate', epoch, epochs, done: Math.min(held.length, s + 64), total: held.length });
        }
        // The success reward, calibrated on this epoch's held-out endings; the success fidelity is
        // then scored with it, as the dream will count successes.
        const calibrated = calibrateSuccessReward(posed.filter((x) => x.real.done && x.prediction.done).map((x) => ({ predictedReward: x.prediction.reward, realSuccess: isRealSuccess(x.real) })));
        const successReward = calibrated ?? standing;
        model.calibrateSuccess(successReward);
        const scores: TransitionScore[] = posed.map(({ prediction, real }) => {
          const { won: _old, ...plain } = prediction;
          return scoreTransition(successReward === null ? plain : { ...plain, won: plain.done && plain.reward >= successReward }, real);
        });
        validation = meanScores(scores);
      }
      const loss = meanLoss(sums, counts);
      history.push({ epoch, loss, validation });
      options.onProgress?.({ phase: 'train', epoch, epochs, done: steps, total: steps, loss, ...(validation ? { validation } : {}) });
    }
  } catch (error) {
    // A stopped or failed fit leaves nothing behind: the half-trained weights are freed (GPU memory on webgpu).
    model.dispose();
    throw error;
  }
  return {
    model,
    inputs: train.map((i) => ({ input: inputs[i] as ExperienceInput, real: transitions[i] as Transition })),
    transitions: train.length,
    validationTransitions: held.length,
    rows: { line: rows.line.count, action: rows.action.count, transition: rows.transition.count, reasoning: rows.reasoning.count },
    epochs: history,
    seconds: (performance.now() - started) / 1000,
    stopped: history.length < epochs,
  };
}

/**
 * A loss that is not a finite number means the weights it came from are not either: the fit stops
 * there, with nothing to keep (the caller's model stays as it was), rather than writing a model
 * whose every prediction is NaN.
 */
function finiteLoss(loss: number, head: HeadName, epoch: number, learningRate: number): number {
  if (Number.isFinite(loss)) return loss;
  throw new DreamGymError('diverged', `the experience model's fit diverged in epoch ${epoch}: its ${head} head's loss became ${loss}, so the fit stopped and kept nothing; the learning rate ${learningRate} is too high for this data (the default is ${DEFAULT_FIT.learningRate})`);
}

function meanLoss(sums: Record<HeadName, number>, counts: Record<HeadName, number>): Record<HeadName, number> {
  return Object.fromEntries(HEADS.map((h) => [h, sums[h] / Math.max(1, counts[h])])) as Record<HeadName, number>;
}

/** The most passes the reasoning head takes over its rows per epoch. */
const MAX_REASONING_PASSES = 8;

/** The heads that take a step together in each minibatch step; the reasoning head takes its own pass before them. */
const JOINT_HEADS: readonly HeadName[] = ['line', 'action', 'transition'];
