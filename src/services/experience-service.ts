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
 * looking, not for training data). Backends: the neural model, kNN and an OpenAI-compatible
 * endpoint run here; WebLLM runs on the page (its engine must be created there), which asks
 * `prepare` for the model's input and hands the prediction back to `resolve`.
 *
 * The neural model is the default: it needs no download. It is fitted here, per environment, from
 * the same store's real transitions (tfjs on webgpu, then wasm, then cpu), kept as `.dgx` bytes in
 * a small IndexedDB database of its own so it survives a reload, and exported or imported as a
 * file. Until one is fitted for an environment, kNN answers there (and `BackendInfo.fallback`
 * says so): the page never waits for a model to exist.
 *
 * Plain class, no DOM: it runs in workers/experience.worker.ts, or in-process with any store.
 */
import { matchAdmissible } from '../core/actions.ts';
import { DreamGymError, errorMessage, UsageError } from '../core/errors.ts';
import type { Env, Observation, StepResult, Task, Transition } from '../core/types.ts';
import { envSpec } from '../envs/registry.ts';
import { meanScores, scoreTransition, type ScoreMeans, type TransitionScore } from '../experience/fidelity.ts';
import { KnnExperienceModel } from '../experience/knn.ts';
import { ChatTransportError } from '../experience/llm/chat.ts';
import { OpenAiHttpClient } from '../experience/llm/http-client.ts';
import { LlmExperienceModel } from '../experience/llm/llm-model.ts';
import type { FitProgress } from '../experience/neural/fit.ts';
import { ModelFileError } from '../experience/neural/model-file.ts';
import { importNeuralModel, importNeuralModelFor } from '../experience/neural/model-io.ts';
import type { NeuralExperienceModel } from '../experience/neural/model.ts';
import { compactState } from '../experience/prompt.ts';
import {
  emptyStats, failurePrediction, type ExperienceInput, type ExperienceModel, type ExperiencePrediction, type ExperienceStats, type HistoryStep,
} from '../experience/types.ts';
import { IdbReplayStore } from '../replay/idb-store.ts';
import { DEFAULT_K, MAX_K, ReplayBuffer } from '../replay/retrieval.ts';
import { fitExperienceModel, fitSpec } from '../jobs/fit-experience-model.ts';
import { readTrainingRecord } from '../experience/neural/training-record.ts';
import type { ReplayStore, StoredTransition } from '../replay/store.ts';
import { publicTask, taskAt, type PublicTask } from './env-session.ts';
import { IdbNeuralModelStore, type NeuralModelInfo, type NeuralModelStore, type SavedNeuralModel } from './neural-model-store.ts';
import { platformBackends, useBackend, type BackendName } from '../platform/tf.ts';

export type BackendChoice =
  /** The neural model fitted for the episode's env; kNN answers where none is fitted yet. */
  | { kind: 'neural' }
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
  /**
   * Kind `neural` asked about an env with no usable neural model: kNN answers there (`name` is
   * `knn`), and this says why.
   */
  fallback?: string;
}

export interface NeuralStatus {
  env: string;
  /** The tfjs backend of this worker; null until something needed it. */
  backend: BackendName | null;
  /** A fit is running (for any env). */
  fitting: boolean;
  model: NeuralModelInfo | null;
}

export interface NeuralFitRequest {
  env: string;
  /** Passes over the training transitions (1–100; default 6). */
  epochs?: number;
  batchSize?: number;
  /** Learn from at most this many real transitions. */
  maxTransitions?: number;
  /** Share of episodes held out for the per-epoch fidelity (default 0.1). */
  validationShare?: number;
  seed?: number;
}

/** One progress report of a fit, as the page receives it. */
export type NeuralFitEvent = FitProgress & { env: string; backend: BackendName };

export interface NeuralFitSummary {
  model: NeuralModelInfo;
  backend: BackendName;
  seconds: number;
}

// The stores moved to their own module; importers of this one keep working.
export { IdbNeuralModelStore, MemoryNeuralModelStore, MODELS_DB_NAME, type NeuralModelInfo, type NeuralModelStore, type SavedNeuralModel } from './neural-model-store.ts';
export type { NeuralEpoch, NeuralLoss } from '../experience/neural/training-record.ts';

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
export interface FidelityMeter extends Omit<ScoreMeans, 'invalidRate'> {
  /** Steps scored: those whose action was admissible in the real state. */
  steps: number;
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
  /** The replay store retrieval reads (and the neural model learns from); default the app's IndexedDB database. */
  openStore?: () => Promise<ReplayStore>;
  /** Where neural models are kept; default an IndexedDB database of their own. */
  openModelStore?: () => Promise<NeuralModelStore>;
  /** tfjs backends to try for the neural model, most preferred first (default the platform's: webgpu, wasm, cpu). */
  backends?: readonly BackendName[];
  /** The fetch HTTP backends use (tests inject one). */
  fetch?: typeof fetch;
  now?: () => number;
}

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

/** A neural model held for one env: its file, and the model once it is loaded (lazily, after a reload). */
interface NeuralEntry {
  info: NeuralModelInfo;
  bytes: Uint8Array;
  model: NeuralExperienceModel | null;
}


export class ExperienceService {
  private readonly openStore: () => Promise<ReplayStore>;
  private opening: Promise<ReplayStore> | null = null;
  /** One retrieval index per env, with what the store held when it was built. */
  private readonly buffers = new Map<string, { buffer: ReplayBuffer; signature: string }>();
  private backend: BackendInfo = { kind: 'neural', name: 'neural', predictsOnPage: false };
  /** The model of a knn or http choice; null for neural (chosen per env) and WebLLM (on the page). */
  private model: ExperienceModel | null = null;
  /** What answers where the neural choice has no model for the env. */
  private fallbackKnn = new KnnExperienceModel();
  /** The model that answered the last step, and its counters when it started answering here. */
  private lastModel: ExperienceModel | null = null;
  private statsBase: ExperienceStats = emptyStats();
  private k = DEFAULT_K;
  private episode: Episode | null = null;
  private pending: Pending | null = null;
  private scores: TransitionScore[] = [];
  private unscored = 0;
  private controller = new AbortController();

  // The neural model.
  private tfBackend: Promise<BackendName> | null = null;
  private tfBackendName: BackendName | null = null;
  private readonly neural = new Map<string, NeuralEntry>();
  private modelStoreOpening: Promise<NeuralModelStore> | null = null;
  private savedLoading: Promise<void> | null = null;
  private fitController: AbortController | null = null;
  /** Steps predicting right now: a model replaced meanwhile is disposed only when they are done. */
  private predicting = 0;
  private retired: NeuralExperienceModel[] = [];

  constructor(private readonly options: ExperienceServiceOptions = {}) {
    this.openStore = options.openStore ?? (() => IdbReplayStore.open());
  }

  /**
   * Choose the experience model. Neural, kNN and HTTP run here; for WebLLM the page predicts. The
   * address of an endpoint is checked now (a UsageError says what is wrong); whether it answers
   * shows at the first step. The fidelity meter starts over: it measures one backend.
   */
  setBackend(choice: BackendChoice): BackendInfo {
    let model: ExperienceModel | null;
    switch (choice.kind) {
      case 'neural':
        model = null;
        break;
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
        throw new UsageError(`unknown experience backend ${JSON.stringify((choice as { kind?: unknown }).kind)}; use neural, knn, http or webllm`);
    }
    this.stop();
    this.model = model;
    this.fallbackKnn = new KnnExperienceModel();
    this.lastModel = null;
    const name = choice.kind === 'neural' ? 'neural' : choice.kind === 'webllm' ? `llm:webllm/${choice.modelId.trim()}` : (model as ExperienceModel).name;
    this.backend = { kind: choice.kind, name, predictsOnPage: choice.kind === 'webllm' };
    this.resetMeter();
    return { ...this.backend };
  }

  /**
   * The backend chosen, as it answers for `env`: with the neural choice and no usable neural model
   * for that env, kNN answers (`name` is `knn`) and `fallback` says why.
   */
  async backendInfo(env?: string): Promise<BackendInfo> {
    if (this.backend.kind !== 'neural' || env === undefined) return { ...this.backend };
    envSpec(env);
    const answering = await this.neuralFor(env);
    return answering.model === this.fallbackKnn ? { ...this.backend, name: 'knn', fallback: answering.fallback } : { ...this.backend };
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

  /**
   * The counters (calls, retries, invalid outputs, tokens) of the model that answered the steps,
   * since it began answering them (a neural model's fit validation is not counted); null when the
   * page runs it.
   */
  modelStats(): ExperienceStats | null {
    const model = this.lastModel ?? this.model;
    if (!model) return null;
    const now = model.stats();
    if (model !== this.lastModel) return now;
    const base = this.statsBase;
    return Object.fromEntries(Object.entries(now).map(([key, value]) => [key, value - (base[key as keyof ExperienceStats] ?? 0)])) as unknown as ExperienceStats;
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
  resolve(prediction: ExperiencePrediction): Promise<ExperienceStep> {
    return this.resolveAs(prediction, this.backend.name);
  }

  private async resolveAs(prediction: ExperiencePrediction, backend: string): Promise<ExperienceStep> {
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
      backend,
    };
  }

  /** One whole step with the model this service runs (neural, kNN or HTTP). */
  async step(action: string): Promise<ExperienceStep> {
    if (this.backend.predictsOnPage) throw new UsageError(`${this.backend.name} runs on the page: it predicts there and hands the prediction to resolve()`);
    const controller = new AbortController();
    this.controller = controller;
    const episode = this.current();
    const model = this.model ?? (await this.neuralFor(episode.task.env)).model;
    this.predicting++;
    try {
      const prepared = await this.prepare(action);
      let prediction: ExperiencePrediction | undefined;
      if (prepared.kind === 'ask') {
        if (this.lastModel !== model) {
          this.lastModel = model;
          this.statsBase = model.stats();
        }
        prediction = (await model.predict([prepared.input], { signal: controller.signal }))[0];
      } else {
        prediction = prepared.prediction;
      }
      if (controller.signal.aborted) throw new ChatTransportError('aborted', 'The step was stopped; the real environment did not move.');
      return await this.resolveAs(prediction ?? failurePrediction('the model returned no prediction'), model.name);
    } finally {
      this.predicting--;
      if (this.predicting === 0) this.disposeRetired();
    }
  }

  /** Stop the model request in flight (HTTP); the real environment does not move. */
  stop(): void {
    this.controller.abort();
  }

  // --- the neural model --------------------------------------------------------------------------

  /**
   * Start tfjs for the neural model on the first backend that works here (webgpu, then wasm, then
   * cpu in a browser), or on `preference`. Call it before anything loads a model: tensors stay on
   * the backend that made them.
   */
  async init(preference?: readonly BackendName[]): Promise<BackendName> {
    if (preference) this.tfBackend = null;
    return this.ensureBackend(preference);
  }

  /** The neural model of `env` (if any), whether a fit runs, and this worker's tfjs backend. */
  async neuralStatus(env: string): Promise<NeuralStatus> {
    envSpec(env);
    await this.loadSaved();
    const entry = this.neural.get(env);
    return { env, backend: this.tfBackendName, fitting: this.fitController !== null, model: entry ? { ...entry.info } : null };
  }

  /**
   * Fit the neural model of `request.env` on the replay store's real transitions of that env.
   * Progress streams to `onProgress` (a comlink proxy in the app); `stopFit()` ends it early, and
   * then the env keeps the model it had (or none). The new model replaces the old one only once it
   * is complete, and is saved in this browser.
   */
  async fitNeural(request: NeuralFitRequest, onProgress?: (event: NeuralFitEvent) => void): Promise<NeuralFitSummary> {
    if (this.fitController) throw new DreamGymError('busy', 'a neural model is being fitted already; stop it first');
    const spec = fitSpec({ ...request, k: this.k });
    const env = spec.env;
    const controller = new AbortController();
    this.fitController = controller;
    const report = (event: NeuralFitEvent): void => {
      // A comlink callback answers with a promise; a page that went away must not fail the fit.
      if (onProgress) void Promise.resolve(onProgress(event)).catch(() => undefined);
    };
    try {
      const backend = await this.ensureBackend();
      await this.loadSaved();
      const buffer = await this.bufferFor(env);
      controller.signal.throwIfAborted();
      const fitted = await fitExperienceModel(spec, {
        buffer,
        backend,
        source: 'app',
        signal: controller.signal,
        onProgress: (p) => report({ ...p, env, backend }),
        ...(this.options.now ? { now: this.options.now } : {}),
      });
      const info: NeuralModelInfo = {
        env,
        origin: 'fitted',
        fittedOn: backend,
        createdAt: fitted.createdAt,
        transitions: fitted.record.transitions,
        validationTransitions: fitted.record.validationTransitions,
        history: fitted.record.history,
        bytes: fitted.bytes.byteLength,
        saved: false,
      };
      await this.install(env, fitted.model, fitted.bytes, info);
      return { model: { ...(this.neural.get(env)?.info ?? info) }, backend, seconds: fitted.fit.seconds };
    } catch (error) {
      if (controller.signal.aborted) {
        const had = this.neural.has(env) ? `keeps the model it had` : `still has none, so kNN answers there`;
        throw new DreamGymError('stopped', `The fit was stopped; ${env} ${had}.`, { cause: error });
      }
      throw error;
    } finally {
      if (this.fitController === controller) this.fitController = null;
    }
  }

  /** Stop the fit in progress; the env keeps the model it had. */
  stopFit(): void {
    this.fitController?.abort();
  }

  /** The `.dgx` file of `env`'s neural model (exactly the bytes that are saved). */
  async exportNeural(env: string): Promise<Uint8Array> {
    envSpec(env);
    await this.loadSaved();
    const entry = this.neural.get(env);
    if (!entry) throw new UsageError(`no neural model is fitted for ${env} yet: fit one first`);
    return entry.bytes.slice();
  }

  /**
   * Load a `.dgx` file as the neural model of the env its header names. Every check runs before
   * anything is replaced: a bad file throws (a ModelFileError saying what is wrong) and changes
   * nothing.
   */
  async importNeural(bytes: Uint8Array, fileName?: string): Promise<NeuralModelInfo> {
    if (!(bytes instanceof Uint8Array)) throw new ModelFileError('wrong-kind', 'expected the bytes of a .dgx file');
    if (this.fitController) throw new DreamGymError('busy', 'a neural model is being fitted; stop it before importing one');
    const backend = await this.ensureBackend();
    await this.loadSaved();
    const { model, header } = importNeuralModel(bytes);
    try {
      envSpec(header.env);
    } catch {
      model.dispose();
      throw new ModelFileError('header', `the file holds an experience model for the environment "${header.env.slice(0, 40)}", which this app does not have`);
    }
    const training = readTrainingRecord(header.training);
    const info: NeuralModelInfo = {
      env: header.env,
      origin: 'imported',
      fittedOn: typeof header.backend === 'string' && header.backend !== '' ? header.backend : backend,
      createdAt: header.createdAt,
      transitions: training.transitions,
      validationTransitions: training.validationTransitions,
      history: training.history,
      bytes: bytes.byteLength,
      ...(fileName ? { fileName: fileName.slice(0, 200) } : {}),
      saved: false,
    };
    await this.install(header.env, model, bytes.slice(), info);
    return { ...(this.neural.get(header.env)?.info ?? info) };
  }

  /** Forget `env`'s neural model here and in the browser's storage; kNN answers there again. */
  async forgetNeural(env: string): Promise<void> {
    envSpec(env);
    if (this.fitController) throw new DreamGymError('busy', 'a neural model is being fitted; stop it first');
    await this.loadSaved();
    const entry = this.neural.get(env);
    if (!entry) return;
    await (await this.modelStore()).delete(env);
    this.neural.delete(env);
    if (entry.model) this.retire(entry.model);
  }

  private ensureBackend(preference?: readonly BackendName[]): Promise<BackendName> {
    this.tfBackend ??= useBackend(preference ?? this.options.backends ?? platformBackends()).then(
      (name) => {
        this.tfBackendName = name;
        return name;
      },
      (error: unknown) => {
        this.tfBackend = null;
        throw error;
      },
    );
    return this.tfBackend;
  }

  private modelStore(): Promise<NeuralModelStore> {
    const open = this.options.openModelStore ?? (() => IdbNeuralModelStore.open());
    this.modelStoreOpening ??= open().catch((error: unknown) => {
      this.modelStoreOpening = null;
      throw error;
    });
    return this.modelStoreOpening;
  }

  /**
   * Read the saved neural models once (their bytes; each is loaded when first used). Storage that
   * cannot be read leaves kNN answering, never a broken page.
   */
  private loadSaved(): Promise<void> {
    this.savedLoading ??= (async () => {
      let saved: SavedNeuralModel[];
      try {
        saved = await (await this.modelStore()).all();
      } catch {
        return;
      }
      for (const record of saved) {
        if (!record || typeof record.env !== 'string' || !(record.bytes instanceof Uint8Array) || typeof record.info !== 'object' || this.neural.has(record.env)) continue;
        this.neural.set(record.env, { info: { ...record.info, env: record.env, bytes: record.bytes.byteLength, saved: true }, bytes: record.bytes, model: null });
      }
    })();
    return this.savedLoading;
  }

  /** What answers for `env` under the neural choice: its neural model, or kNN with the reason. */
  private async neuralFor(env: string): Promise<{ model: ExperienceModel; fallback: string }> {
    await this.loadSaved();
    const entry = this.neural.get(env);
    if (!entry) return { model: this.fallbackKnn, fallback: `No neural model is fitted for ${env} yet, so kNN answers.` };
    if (!entry.model && entry.info.problem === undefined) {
      try {
        await this.ensureBackend();
        const { model } = importNeuralModelFor(entry.bytes, env);
        // Another call may have loaded it meanwhile (ensureBackend awaited).
        if (entry.model) model.dispose();
        else entry.model = model;
      } catch (error) {
        entry.info = { ...entry.info, problem: `The saved neural model for ${env} cannot be used (${errorMessage(error)}); fit it again or import a .dgx file.` };
      }
    }
    if (!entry.model) return { model: this.fallbackKnn, fallback: `${entry.info.problem ?? 'The neural model is not loaded.'} kNN answers meanwhile.` };
    return { model: entry.model, fallback: '' };
  }

  /** Make `model` the env's neural model, save its file, and retire the one it replaces. */
  private async install(env: string, model: NeuralExperienceModel, bytes: Uint8Array, info: NeuralModelInfo): Promise<void> {
    let saved: NeuralModelInfo;
    try {
      await (await this.modelStore()).put({ env, bytes, info: { ...info, saved: true } });
      saved = { ...info, saved: true };
    } catch (error) {
      saved = { ...info, saved: false, problem: `Not saved in this browser (${errorMessage(error)}): it lasts until the page is closed; export it to keep it.` };
    }
    const old = this.neural.get(env)?.model;
    this.neural.set(env, { info: saved, bytes, model });
    if (old && old !== model) this.retire(old);
    // The meter measures one model: a new one starts it over.
    if (this.backend.kind === 'neural') this.resetMeter();
  }

  private retire(model: NeuralExperienceModel): void {
    this.retired.push(model);
    if (this.predicting === 0) this.disposeRetired();
  }

  private disposeRetired(): void {
    for (const model of this.retired.splice(0)) model.dispose();
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
