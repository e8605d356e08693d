/**
 * What the experience worker offers the Experience view: a person steps an experience model by
 * hand beside the real environment playing the same task, and sees how faithful the model is.
 *
 * Every step is teacher-forced, as `measureFidelity` is: the model predicts from the REAL current
 * state (and the real history), the real environment then takes the same action, and the two
 * outcomes are scored with `scoreTransition`. The episode follows the real environment, so one bad
 * prediction never spoils the comparison of the next step.
 *
 * Retrieval reads the app's replay store (the IndexedDB database the Buffer view seeds): only real
 * transitions of the episode's environment, and nothing is written back (stepping by hand is for
 * looking, not for training data). Backends: kNN and an OpenAI-compatible endpoint run here;
 * WebLLM runs on the page (its engine must be created there), which asks `prepare` for the model's
 * input and hands the prediction back to `resolve`.
 *
 * Plain class, no DOM: it runs in workers/experience.worker.ts, or in-process with any store.
 */
import { matchAdmissible } from '../core/actions.ts';
import { UsageError } from '../core/errors.ts';
import type { Env, Observation, StepResult, Task, Transition } from '../core/types.ts';
import { envSpec } from '../envs/registry.ts';
import { meanScores, scoreTransition, type TransitionScore } from '../experience/fidelity.ts';
import { KnnExperienceModel } from '../experience/knn.ts';
import { ChatTransportError } from '../experience/llm/chat.ts';
import { OpenAiHttpClient } from '../experience/llm/http-client.ts';
import { LlmExperienceModel } from '../experience/llm/llm-model.ts';
import { compactState } from '../experience/prompt.ts';
import {
  failurePrediction, type ExperienceInput, type ExperienceModel, type ExperiencePrediction, type ExperienceStats, type HistoryStep,
} from '../experience/types.ts';
import { IdbReplayStore } from '../replay/idb-store.ts';
import { ReplayBuffer } from '../replay/retrieval.ts';
import type { ReplayStore, StoredTransition } from '../replay/store.ts';
import { publicTask, taskAt, type PublicTask } from './env-session.ts';

export type BackendChoice =
  | { kind: 'knn' }
  | { kind: 'http'; baseUrl: string; model: string; apiKey?: string; timeoutMs?: number }
  /** The page runs the model (WebLLM); this service retrieves, steps the real env and scores. */
  | { kind: 'webllm'; modelId: string };

export interface BackendInfo {
  kind: BackendChoice['kind'];
  /** As results record it: `knn`, `llm:http/qwen2.5:0.5b@127.0.0.1:8080`, `llm:webllm/…`. */
  name: string;
  /** True when `step` cannot be used: the page predicts and calls `prepare` and `resolve`. */
  predictsOnPage: boolean;
}

export interface BufferCounts {
  env: string;
  /** Real transitions of this env: what retrieval (and kNN) draws on. */
  real: number;
  synthetic: number;
}

export interface ExperienceStart {
  task: PublicTask;
  split: string;
  index: number;
  observation: Observation;
  buffer: BufferCounts;
  maxSteps: number;
}

/** A retrieved transition, shortened for the page (its state and next state as the prompt shows them). */
export interface ExampleSummary {
  id: number;
  runId: string;
  instruction: string;
  state: string;
  action: string;
  next: string;
  reward: number;
  done: boolean;
}

/** Running means over the scored steps so far (see `FidelityReport` for the measures). */
export interface FidelityMeter {
  /** Steps scored: those whose action was admissible in the real state. */
  steps: number;
  nextStateF1: number;
  actionSetF1: number;
  rewardMae: number;
  /** Share of steps whose reward is within REWARD_TOLERANCE of the real one. */
  rewardAccuracy: number;
  doneAccuracy: number;
  /** Share of steps whose predicted next state is exactly the real one (1 − ε_P). */
  exactNextState: number;
  /** Scored steps whose model output could not be used (the failure state). */
  invalidOutputs: number;
  /** Steps not scored: the action was not admissible, so no real transition compares. */
  unscored: number;
}

export interface ExperienceStep {
  /** 1-based number of this step in the episode. */
  index: number;
  /** The action as the person gave it. */
  action: string;
  /** The admissible action it named, spelled as the state lists it; null when it names none. */
  admissible: string | null;
  real: StepResult;
  predicted: ExperiencePrediction;
  examples: ExampleSummary[];
  /** Null for an action that was not admissible: the model was not asked, the step is not scored. */
  score: TransitionScore | null;
  meter: FidelityMeter;
  backend: string;
}

export type PreparedStep =
  /** Ask the model with `input` (the task carries no goal), then hand its prediction to `resolve`. */
  | { kind: 'ask'; input: ExperienceInput; examples: ExampleSummary[] }
  /** Not admissible: the simulator's answer is the failure state without asking; `resolve` it as is. */
  | { kind: 'inadmissible'; prediction: ExperiencePrediction };

export interface ExperienceServiceOptions {
  /** The replay store retrieval reads; default the app's IndexedDB database. */
  openStore?: () => Promise<ReplayStore>;
  /** The fetch HTTP backends use (tests inject one). */
  fetch?: typeof fetch;
  now?: () => number;
}

const DEFAULT_K = 3;
const MAX_K = 8;
const RUN_ID = 'experience-view';

/** What the page may show of an example: one state's fields, shortened like the prompt's. */
function summarise(t: StoredTransition): ExampleSummary {
  return {
    id: t.id,
    runId: t.runId,
    instruction: t.instruction.length > 160 ? `${t.instruction.slice(0, 159)}…` : t.instruction,
    state: compactState(t.state.text),
    action: t.action,
    next: compactState(t.next.text),
    reward: t.reward,
    done: t.done,
  };
}

/** The transition without its vector: 512 floats the page never reads. */
function withoutVector(t: StoredTransition): StoredTransition {
  const { vector: _vector, ...rest } = t;
  return rest;
}

/** Means of the scores so far; zeros (with `steps: 0`) before the first. */
export function fidelityMeter(scores: readonly TransitionScore[], unscored: number): FidelityMeter {
  const { invalidRate: _rate, ...means } = meanScores(scores);
  return { steps: scores.length, ...means, invalidOutputs: scores.filter((s) => !s.valid).length, unscored };
}

interface Episode {
  env: Env;
  task: Task;
  split: string;
  index: number;
  state: Observation;
  history: HistoryStep[];
  steps: number;
  done: boolean;
}

interface Pending {
  /** The episode it was prepared in (a new episode voids it). */
  episode: Episode;
  action: string;
  admissible: string | null;
  examples: ExampleSummary[];
}

export class ExperienceService {
  private readonly openStore: () => Promise<ReplayStore>;
  private opening: Promise<ReplayStore> | null = null;
  /** One retrieval index per env, with what the store held when it was built. */
  private readonly buffers = new Map<string, { buffer: ReplayBuffer; signature: string }>();
  private backend: BackendInfo = { kind: 'knn', name: 'knn', predictsOnPage: false };
  private model: ExperienceModel | null = new KnnExperienceModel();
  private k = DEFAULT_K;
  private episode: Episode | null = null;
  private pending: Pending | null = null;
  private scores: TransitionScore[] = [];
  private unscored = 0;
  private controller = new AbortController();

  constructor(private readonly options: ExperienceServiceOptions = {}) {
    this.openStore = options.openStore ?? (() => IdbReplayStore.open());
  }

  /**
   * Choose the experience model. kNN and HTTP run here; for WebLLM the page predicts. The address
   * of an endpoint is checked now (a UsageError says what is wrong); whether it answers shows at
   * the first step. The fidelity meter starts over: it measures one backend.
   */
  setBackend(choice: BackendChoice): BackendInfo {
    let model: ExperienceModel | null;
    switch (choice.kind) {
      case 'knn':
        model = new KnnExperienceModel();
        break;
      case 'http': {
        const client = new OpenAiHttpClient({
          baseUrl: choice.baseUrl,
          model: choice.model,
          ...(choice.apiKey ? { apiKey: choice.apiKey } : {}),
          ...(choice.timeoutMs !== undefined ? { timeoutMs: choice.timeoutMs } : {}),
          ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
          // A person is waiting on each step: one request at a time, no long retry ladder.
          concurrency: 1,
          retries: 1,
        });
        model = new LlmExperienceModel({ client, framing: 'single' });
        break;
      }
      case 'webllm':
        if (typeof choice.modelId !== 'string' || choice.modelId.trim() === '') throw new UsageError('Name the WebLLM model the page loaded.');
        model = null;
        break;
      default:
        throw new UsageError(`unknown experience backend ${JSON.stringify((choice as { kind?: unknown }).kind)}; use knn, http or webllm`);
    }
    this.stop();
    this.model = model;
    this.backend = { kind: choice.kind, name: model?.name ?? `llm:webllm/${(choice as { modelId: string }).modelId.trim()}`, predictsOnPage: model === null };
    this.resetMeter();
    return { ...this.backend };
  }

  backendInfo(): BackendInfo {
    return { ...this.backend };
  }

  /** How many retrieved transitions the model sees per step (1–8). */
  setK(k: number): void {
    if (!Number.isInteger(k) || k < 1 || k > MAX_K) throw new UsageError(`the number of retrieved examples must be a whole number from 1 to ${MAX_K}, got ${k}`);
    this.k = k;
  }

  resetMeter(): FidelityMeter {
    this.scores = [];
    this.unscored = 0;
    return this.meter();
  }

  meter(): FidelityMeter {
    return fidelityMeter(this.scores, this.unscored);
  }

  /** The model's counters (calls, retries, invalid outputs, tokens); null when the page runs it. */
  modelStats(): ExperienceStats | null {
    return this.model ? this.model.stats() : null;
  }

  async bufferCounts(env: string): Promise<BufferCounts> {
    envSpec(env);
    const store = await this.store();
    const [real, synthetic] = await Promise.all([store.count({ env, source: 'real' }), store.count({ env, source: 'synthetic' })]);
    return { env, real, synthetic };
  }

  /** Start task `index` of `split` in the real environment; retrieval is brought up to date with the store. */
  async start(envName: string, split: string, index: number): Promise<ExperienceStart> {
    const spec = envSpec(envName);
    const task = taskAt(envName, split, index);
    this.stop();
    this.pending = null;
    this.episode = null;
    await this.bufferFor(envName);
    const env = spec.createEnv();
    const observation = await env.reset(task);
    this.episode = { env, task, split, index, state: observation, history: [], steps: 0, done: false };
    return { task: publicTask(task), split, index, observation, buffer: await this.bufferCounts(envName), maxSteps: spec.maxSteps };
  }

  /**
   * The model's input for `action` from the real current state, with the k most similar real
   * transitions; or, for an action the state does not admit, the failure state (no model asked).
   */
  async prepare(action: string): Promise<PreparedStep> {
    const episode = this.current();
    if (typeof action !== 'string' || action.trim() === '') throw new UsageError('type an action first');
    const admissible = matchAdmissible(action, episode.state.actions);
    if (admissible === null) {
      this.pending = { episode, action, admissible, examples: [] };
      return { kind: 'inadmissible', prediction: failurePrediction(`"${action.slice(0, 80)}" is not an admissible action here`) };
    }
    const task = episode.task;
    const buffer = await this.bufferFor(task.env);
    const [found = []] = await buffer.nearest([{ instruction: task.instruction, state: episode.state, action: admissible }], this.k, { env: task.env, source: 'real' });
    const examples = found.map(summarise);
    this.pending = { episode, action, admissible, examples };
    // No episode id: every step restarts from the real state, so each request stands alone.
    const input: ExperienceInput = { task: publicTask(task), history: [...episode.history], state: episode.state, action: admissible, examples: found.map(withoutVector) };
    return { kind: 'ask', input, examples };
  }

  /**
   * Take the prepared action in the real environment, score `prediction` against what happened,
   * and move the episode on to the real next state.
   */
  async resolve(prediction: ExperiencePrediction): Promise<ExperienceStep> {
    const episode = this.current();
    const pending = this.pending;
    if (!pending || pending.episode !== episode) throw new UsageError('prepare a step before resolving it');
    this.pending = null;
    const checked = checkPrediction(prediction);
    const state = episode.state;
    const real = await episode.env.step(pending.admissible ?? pending.action);
    let score: TransitionScore | null = null;
    if (pending.admissible !== null && real.info.valid) {
      const transition: Transition = {
        runId: RUN_ID,
        taskId: episode.task.id,
        env: episode.task.env,
        instruction: episode.task.instruction,
        history: episode.history.map((h) => h.action),
        state,
        action: pending.admissible,
        next: real.observation,
        reward: real.reward,
        done: real.done,
        source: 'real',
        createdAt: this.options.now?.() ?? Date.now(),
      };
      score = scoreTransition(checked, transition);
      this.scores.push(score);
    } else {
      this.unscored++;
    }
    episode.history = [...episode.history, { state, action: pending.admissible ?? pending.action }];
    episode.steps++;
    if (real.info.valid) episode.state = real.observation;
    episode.done = real.done;
    return {
      index: episode.steps,
      action: pending.action,
      admissible: pending.admissible,
      real,
      predicted: checked,
      examples: pending.examples,
      score,
      meter: this.meter(),
      backend: this.backend.name,
    };
  }

  /** One whole step with the model this service runs (kNN or HTTP). */
  async step(action: string): Promise<ExperienceStep> {
    const model = this.model;
    if (!model) throw new UsageError(`${this.backend.name} runs on the page: it predicts there and hands the prediction to resolve()`);
    const controller = new AbortController();
    this.controller = controller;
    const prepared = await this.prepare(action);
    const prediction = prepared.kind === 'ask' ? (await model.predict([prepared.input], { signal: controller.signal }))[0] : prepared.prediction;
    if (controller.signal.aborted) throw new ChatTransportError('aborted', 'The step was stopped; the real environment did not move.');
    return this.resolve(prediction ?? failurePrediction('the model returned no prediction'));
  }

  /** Stop the model request in flight (HTTP); the real environment does not move. */
  stop(): void {
    this.controller.abort();
  }

  private current(): Episode {
    if (!this.episode) throw new UsageError('start an episode first');
    if (this.episode.done) throw new UsageError('the episode is over; start another one');
    return this.episode;
  }

  private store(): Promise<ReplayStore> {
    this.opening ??= this.openStore().catch((error: unknown) => {
      this.opening = null;
      throw error;
    });
    return this.opening;
  }

  /**
   * The env's retrieval index, rebuilt when the store changed since it was built (the Buffer view
   * seeds, imports and deletes in another worker): its real count and its runs tell.
   */
  private async bufferFor(env: string): Promise<ReplayBuffer> {
    const store = await this.store();
    const [real, runs] = await Promise.all([store.count({ env, source: 'real' }), store.runs()]);
    const signature = `${real}|${runs.map((r) => r.id).sort().join(',')}`;
    const cached = this.buffers.get(env);
    if (cached?.signature === signature) return cached.buffer;
    const buffer = await ReplayBuffer.open(store, { filter: { env, source: 'real' } });
    this.buffers.set(env, { buffer, signature });
    return buffer;
  }
}

/**
 * A prediction that crossed a worker boundary, checked for shape: a page is trusted less than this
 * module's own models. Anything malformed becomes the failure state, as unusable output does.
 */
function checkPrediction(p: ExperiencePrediction): ExperiencePrediction {
  const ok =
    typeof p === 'object' && p !== null &&
    typeof p.next?.text === 'string' && Array.isArray(p.next.actions) && p.next.actions.every((a) => typeof a === 'string') &&
    typeof p.reward === 'number' && Number.isFinite(p.reward) && typeof p.done === 'boolean' && typeof p.valid === 'boolean';
  if (!ok) return failurePrediction('the prediction handed to the service is malformed');
  return {
    reasoning: typeof p.reasoning === 'string' ? p.reasoning : '',
    next: { text: p.next.text, actions: [...p.next.actions] },
    reward: p.reward,
    done: p.done,
    valid: p.valid,
    ...(typeof p.problem === 'string' ? { problem: p.problem } : {}),
  };
}
