/**
 * `SyntheticEnv`: an `Env` whose steps are predicted by an experience model instead of played in a
 * real environment. Every step retrieves the top-k most similar real transitions from the replay
 * buffer as the model's evidence, and the predicted transition is written back to the buffer with
 * `source: 'synthetic'`.
 *
 * Lanes of one `SyntheticWorld` are batched: the rollout steps every lane in the same tick, each
 * `step` joins a queue, and one flush (a microtask later) retrieves for the whole batch and asks
 * the model once. An action outside the admissible list never reaches the model: it leads to the
 * failure state (reward 0, the episode ends), as in the paper.
 */
import { withoutReasoning } from './history.ts';
import { matchAdmissible } from '../core/actions.ts';
import { leavesAChoice } from '../core/queries.ts';
import { EnvStateError } from '../core/errors.ts';
import type { Env, Observation, StepResult, Task, Transition } from '../core/types.ts';
import { envSpec } from '../envs/registry.ts';
import type { EnvSpec } from '../envs/spec.ts';
import { withStepLimit } from '../envs/step-limit.ts';
import { DEFAULT_K, type ReplayBuffer } from '../replay/retrieval.ts';
import { StoreFullError } from '../replay/store.ts';
import { isPredictedSuccess } from './success.ts';
import { failurePrediction, type ExperienceInput, type ExperienceModel, type ExperiencePrediction, type HistoryStep } from './types.ts';

export interface SyntheticWorldOptions {
  /** The real environment this one imitates (its action syntax and step limit). */
  env: string;
  model: ExperienceModel;
  /** Where examples come from and where synthetic transitions go; null: no examples, no write-back. */
  buffer: ReplayBuffer | null;
  /** Retrieved examples per step (default 3). */
  k?: number;
  /** The first observation of a task: a task's start page is not something to predict. */
  initialObservation: (task: Task) => Promise<Observation>;
  /** Run id stamped on written-back transitions (and episode ids). */
  runId: string;
  /** Write predicted transitions to the buffer (default true when there is a buffer). */
  writeBack?: boolean;
  /** Episode step limit (default: the real environment's). */
  maxSteps?: number;
  /**
   * False for the "without reasoning" ablation: the model sees its examples without their
   * reasoning, and its own reasoning is dropped from what it returns and writes back.
   */
  reasoning?: boolean;
  /**
   * Where the model may imagine (PredictOptions.random), the draws it takes them from; absent, every
   * step is the model's likeliest prediction.
   */
  random?: () => number;
  now?: () => number;
}

export interface SyntheticStats {
  steps: number;
  episodes: number;
  /** Actions outside the admissible list (failure state without asking the model). */
  inadmissibleActions: number;
  /** Steps whose prediction was the failure state because the model's output was unusable. */
  modelFailures: number;
  /** Synthetic transitions written back, and those the store refused (full). */
  writtenBack: number;
  writeBackRefused: number;
  /** Predicted states with no admissible action that did not end the episode: ended there. */
  deadEnds: number;
  /** Rewards the model predicted on steps that did not end the episode, paid as 0 (an env that rewards only at the end). */
  rewardsBeforeEnd: number;
  /** Fractional end rewards rounded to 0 or 1 (an env that pays only those). */
  rewardsRounded: number;
}

interface Pending {
  input: ExperienceInput;
  resolve: (prediction: ExperiencePrediction) => void;
  reject: (error: unknown) => void;
}

export interface SyntheticWorldState {
  episodes: number;
  counters: SyntheticStats;
}

export class SyntheticWorld {
  readonly name: string;
  readonly maxSteps: number;
  private readonly k: number;
  private readonly rewardsAtEnd: boolean;
  private readonly roundsEndReward: boolean;
  private readonly proposeQueries: EnvSpec['proposeQueries'];
  private queue: Pending[] = [];
  private episodes = 0;
  private readonly counters: SyntheticStats = { steps: 0, episodes: 0, inadmissibleActions: 0, modelFailures: 0, writtenBack: 0, writeBackRefused: 0, deadEnds: 0, rewardsBeforeEnd: 0, rewardsRounded: 0 };

  constructor(readonly options: SyntheticWorldOptions) {
    const spec = envSpec(options.env);
    this.name = `synthetic:${spec.name}`;
    this.maxSteps = options.maxSteps ?? spec.maxSteps;
    this.k = options.k ?? DEFAULT_K;
    this.rewardsAtEnd = spec.rewardsAtEnd === true;
    this.roundsEndReward = spec.binaryReward === true && spec.dreamRoundsEndReward === true;
    this.proposeQueries = spec.proposeQueries;
  }

  /** A synthetic env over this world, with the real environment's step limit (envs/step-limit.ts). */
  createEnv(): Env {
    return withStepLimit(new SyntheticEnv(this), this.maxSteps);
  }

  stats(): SyntheticStats {
    return { ...this.counters };
  }

  /** Episodes started so far and the counters, for a checkpoint (taken between iterations, with no step pending). */
  snapshot(): SyntheticWorldState {
    return { episodes: this.episodes, counters: this.stats() };
  }

  /** Go on from a `snapshot()`: episode ids continue where it left them. */
  restore(state: SyntheticWorldState): void {
    this.episodes = state.episodes;
    Object.assign(this.counters, state.counters);
  }

  /** @internal A fresh episode id. */
  nextEpisodeId(): string {
    this.counters.episodes++;
    return `${this.options.runId}/${this.episodes++}`;
  }

  /** @internal Count an inadmissible action. */
  countInadmissible(): void {
    this.counters.inadmissibleActions++;
    this.counters.steps++;
  }

  /** @internal Queue a step; the whole queue is predicted in one batch. */
  predict(input: ExperienceInput): Promise<ExperiencePrediction> {
    return new Promise((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      if (this.queue.length === 1) queueMicrotask(() => void this.flush());
    });
  }

  endEpisode(episodeId: string): void {
    this.options.model.endEpisode?.(episodeId);
  }

  private async flush(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    try {
      const { buffer } = this.options;
      const examples: Transition[][] = buffer
        ? await buffer.nearest(
            batch.map((p) => ({ instruction: p.input.task.instruction, state: p.input.state, action: p.input.action })),
            this.k,
            { env: this.options.env, source: 'real' },
          )
        : batch.map(() => []);
      const reasoning = this.options.reasoning !== false;
      const inputs = batch.map((p, i) => ({ ...p.input, examples: reasoning ? (examples[i] ?? []) : (examples[i] ?? []).map(withoutReasoning) }));
      const random = this.options.random;
      const predicted = await this.options.model.predict(inputs, random ? { random } : {});
      const predictions = (reasoning ? predicted : predicted.map((p) => ({ ...p, reasoning: '' }))).map((p, i) => this.rewardAtEnd(this.endDeadEnd(p, batch[i]?.input.task.instruction ?? '')));
      this.counters.steps += batch.length;
      this.counters.modelFailures += predictions.filter((p) => !p.valid).length;
      await this.writeBack(inputs, predictions);
      batch.forEach((p, i) => p.resolve(predictions[i] ?? failurePrediction('the model returned fewer predictions than asked')));
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  }

  /**
   * A predicted state that leaves the policy nothing to choose ends the episode there (with the
   * predicted reward), and it is counted: one that lists no admissible action, or only templates
   * the env's proposer fills with nothing (a web page whose one field is a text box, when neither
   * the instruction nor the page shows a value for it: `type[#7 Reply | …]`). The policy chooses among the
   * templates' expansions, so the second kind stopped a whole dream run with "nothing to choose
   * from" (a web dream on 24 demonstrations did, 14 iterations in).
   */
  private endDeadEnd(p: ExperiencePrediction, instruction: string): ExperiencePrediction {
    if (!p.valid || p.done || leavesAChoice(p.next, instruction, this.proposeQueries)) return p;
    this.counters.deadEnds++;
    return { ...p, done: true };
  }

  /**
   * Where the real environment rewards only the step that ends an episode, a step the model does
   * not end pays 0, as a real one would. A model's reward is a sigmoid, never exactly 0: its 0.01s
   * over a 50-step episode that never succeeds add up to a return of a few hundredths, which
   * differs from episode to episode, and GRPO, dividing by the group's spread, turns a group of
   * failures into full-sized advantages for whichever leaked most (measured on home: in-model
   * returns of 0.005–0.23 over episodes without a success, `npm run experiment -- curriculum-variance`).
   */
  private rewardAtEnd(p: ExperiencePrediction): ExperiencePrediction {
    if (p.done) return this.roundedReward(p);
    if (!this.rewardsAtEnd || p.reward === 0) return p;
    this.counters.rewardsBeforeEnd++;
    return { ...p, reward: 0 };
  }

  /**
   * Where the environment pays only 0 or 1 and its spec says the dream rounds
   * (`dreamRoundsEndReward`), a model's fractional end reward is rounded to the likelier of the
   * two. Paid as it was, a home dream paid 0.3 for putting an object down uncleaned, which the
   * environment never pays, and a policy trained there learned to collect it. Elsewhere the fraction
   * is paid: it ranks a group's endings by how sure the model is of each, which GRPO uses, while
   * rounding makes every ending it is 51% sure of a full success to exploit (on the web suite's
   * train split rounding cost the dream from scratch 10.6 points over 3 seeds). Rounded, the
   * reward is the success: a paid 1 is one, whatever success reward the model calibrated.
   */
  private roundedReward(p: ExperiencePrediction): ExperiencePrediction {
    if (!this.roundsEndReward) return p;
    const reward = p.reward >= 0.5 ? 1 : 0;
    if (reward !== p.reward) this.counters.rewardsRounded++;
    return { ...p, reward, won: reward === 1 };
  }

  private async writeBack(inputs: readonly ExperienceInput[], predictions: readonly ExperiencePrediction[]): Promise<void> {
    const { buffer } = this.options;
    if (!buffer || this.options.writeBack === false) return;
    const now = this.options.now?.() ?? Date.now();
    const transitions: Transition[] = [];
    inputs.forEach((input, i) => {
      const p = predictions[i];
      if (!p?.valid) return; // a failure state is not experience worth retrieving
      transitions.push({
        runId: this.options.runId,
        taskId: input.task.id,
        ...(input.episodeId !== undefined ? { episodeId: input.episodeId } : {}),
        env: this.options.env,
        instruction: input.task.instruction,
        history: input.history.map((h) => h.action),
        state: input.state,
        action: input.action,
        reasoning: p.reasoning,
        next: p.next,
        reward: p.reward,
        done: p.done,
        source: 'synthetic',
        createdAt: now,
      });
    });
    if (transitions.length === 0) return;
    try {
      await buffer.add(transitions);
      this.counters.writtenBack += transitions.length;
    } catch (error) {
      // A full store must not stop training: synthetic write-back is a by-product.
      if (!(error instanceof StoreFullError)) throw error;
      this.counters.writeBackRefused += transitions.length;
    }
  }
}


export class SyntheticEnv implements Env {
  readonly name: string;
  private task: Task | null = null;
  private observation: Observation | null = null;
  private history: HistoryStep[] = [];
  private episodeId = '';
  private done = false;

  constructor(private readonly world: SyntheticWorld) {
    this.name = world.name;
  }

  async reset(task: Task): Promise<Observation> {
    if (this.task && !this.done) this.world.endEpisode(this.episodeId);
    const first = await this.world.options.initialObservation(task);
    this.task = task;
    this.observation = first;
    this.history = [];
    this.episodeId = this.world.nextEpisodeId();
    this.done = false;
    return first;
  }

  /** The step limit ended the episode: let the model go of it (a multi-round chat, say). */
  truncate(): void {
    if (this.task && !this.done) this.world.endEpisode(this.episodeId);
    this.done = true;
  }

  step(action: string): Promise<StepResult> {
    // Synchronous up to the queueing, so every lane stepped in one tick lands in one batch.
    const task = this.task;
    const state = this.observation;
    if (!task || !state) return Promise.reject(new EnvStateError('step() before reset(): reset the synthetic env with a task first'));
    if (this.done) return Promise.reject(new EnvStateError('step() after the episode ended: reset() first'));
    const admissible = matchAdmissible(action, state.actions);
    if (admissible === null) {
      this.world.countInadmissible();
      const failure = failurePrediction(`"${String(action).slice(0, 80)}" is not an admissible action here`);
      return Promise.resolve(this.finish(action, failure, false));
    }
    const input: ExperienceInput = { task, history: this.history, state, action: admissible, examples: [], episodeId: this.episodeId };
    return this.world.predict(input).then((prediction) => this.finish(admissible, prediction, prediction.valid));
  }

  private finish(action: string, prediction: ExperiencePrediction, valid: boolean): StepResult {
    const state = this.observation as Observation;
    this.history = [...this.history, { state, action }];
    const done = prediction.done;
    this.observation = prediction.next;
    this.done = done;
    if (done) this.world.endEpisode(this.episodeId);
    return {
      observation: prediction.next,
      reward: prediction.reward,
      done,
      info: {
        valid,
        won: isPredictedSuccess(prediction),
        truncated: false,
        reasoning: prediction.reasoning,
        ...(prediction.problem !== undefined ? { problem: prediction.problem } : {}),
      },
    };
  }
}
