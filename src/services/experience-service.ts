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
 * the same store's real transitions (tfjs on the fastest backend a probe measures), kept as `.dgx` bytes in
 * a small IndexedDB database of its own so it survives a reload, and exported or imported as a
 * file. Until one is fitted for an environment, kNN answers there (and `ExperienceInfo.fallback`
 * says so): the page never waits for a model to exist.
 *
 * Plain class, no DOM: it runs in workers/experience.worker.ts, or in-process with any store.
 */
import type { BackendProbe } from '../platform/backend-probe.ts';
import { startBackend } from '../jobs/probe-workload.ts';
import { matchAdmissible } from '../core/actions.ts';
import { UsageError } from '../core/errors.ts';
import { ROOM_CLIENT_HEADER } from '../experience/llm/chat.ts';
import type { Env, Observation, Task, Transition } from '../core/types.ts';
import { envSpec } from '../envs/registry.ts';
import { eventFidelity, meanScores, scoreTransition, type TransitionScore } from '../experience/fidelity.ts';
import { KnnExperienceModel } from '../experience/knn.ts';
import { ChatTransportError } from '../experience/llm/chat.ts';
import { DEFAULT_TIMEOUT_MS } from '../experience/llm/http-client.ts';
import { compactState } from '../experience/prompt.ts';
import {
  emptyStats, failurePrediction, MAX_SHOWN_REPLY, type ExperienceInput, type ExperienceModel, type ExperiencePrediction, type ExperienceStats, type HistoryStep,
} from '../experience/types.ts';
import { createExperienceModel } from '../jobs/experience-models/create.ts';
import { checkFormSettings, experienceModel, experienceModelSummaries } from '../jobs/experience-models/registry.ts';
import { MAX_K, MIN_K } from '../jobs/experience-models/retrieval-k.ts';
import type { BackendName } from '../platform/tf.ts';
import { IdbReplayStore } from '../replay/idb-store.ts';
import { DEFAULT_K } from '../replay/retrieval.ts';
import { withoutVector, type ReplayStore, type StoredTransition } from '../replay/store.ts';
import { publicTask, taskAt } from './env-session.ts';
import type {
  ExperienceViewChoice, ExperienceInfo, ExperienceModelSummary, BufferCounts, ExampleSummary, ExperienceStart, ExperienceStep, FidelityMeter, NeuralFitEvent, NeuralFitRequest,
  NeuralFitSummary, NeuralStatus, PreparedStep,
} from './experience-protocol.ts';
import { IdbNeuralModelStore, type NeuralModelInfo, type NeuralModelStore } from './neural-model-store.ts';
import { NeuralModelRegistry } from './neural-registry.ts';
import { Once } from './once.ts';
import { RetrievalCache } from './retrieval-cache.ts';

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

/** Means of the scores so far; zeros (with `steps: 0`) before the first. */
export function fidelityMeter(scores: readonly TransitionScore[], unscored: number): FidelityMeter {
  const { invalidRate: _rate, ...means } = meanScores(scores);
  return {
    steps: scores.length,
    ...means,
    invalidOutputs: scores.filter((s) => !s.valid).length,
    unscored,
    success: eventFidelity(scores, (s) => s.realSuccess, (s) => s.predictedSuccess),
    done: eventFidelity(scores, (s) => s.realDone, (s) => s.predictedDone),
  };
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
  private readonly retrieval: RetrievalCache;
  private readonly neural: NeuralModelRegistry;
  private experience: ExperienceInfo = { kind: 'neural', name: 'neural', predictsOnPage: false };
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

  /** This worker's tfjs backend, started on first need (the neural model's). */
  private readonly tf: Once<BackendName>;
  private preference: readonly BackendName[] | null = null;
  private tfBackendName: BackendName | null = null;
  /** How `auto` chose it (null when the backend was named, or before anything needed one). */
  private probe: BackendProbe | null = null;

  constructor(private readonly options: ExperienceServiceOptions = {}) {
    this.retrieval = new RetrievalCache(options.openStore ?? (() => IdbReplayStore.open()));
    this.tf = new Once(async () => {
      const { backend, probe } = await startBackend(this.preference ?? options.backends);
      this.probe = probe;
      this.tfBackendName = backend;
      return backend;
    });
    this.neural = new NeuralModelRegistry({
      openModelStore: options.openModelStore ?? (() => IdbNeuralModelStore.open()),
      backend: () => this.tf.get(),
      bufferFor: (env) => this.retrieval.bufferFor(env),
      // The meter measures one model: a new one starts it over.
      onInstall: () => {
        if (this.experience.kind === 'neural') this.resetMeter();
      },
      ...(options.now ? { now: options.now } : {}),
    });
  }

  /**
   * Choose the experience model, a kind of the registry (jobs/experience-models/): the neural model
   * (fitted here per env) and every kind that runs in a worker answer here; for one that runs only
   * on the page (WebLLM) the page predicts. The settings are checked now (a UsageError names the
   * field as the view labels it); whether an endpoint answers shows at the first step. The
   * fidelity meter starts over: it measures one model.
   */
  async chooseExperience(choice: ExperienceViewChoice): Promise<ExperienceInfo> {
    const entry = experienceModel(choice.kind);
    const settings = checkFormSettings(entry, choice.settings, this.k);
    let model: ExperienceModel | null = null;
    if (entry.kind !== 'neural' && entry.runsIn.includes('worker')) {
      model = await createExperienceModel(
        { kind: entry.kind, settings },
        {
          runtime: 'worker',
          // A person is waiting on each step.
          interactive: true,
          fetch: this.options.fetch,
          ...(choice.participant !== undefined ? { headers: { [ROOM_CLIENT_HEADER]: choice.participant } } : {}),
        },
      );
    } else if (entry.kind !== 'neural' && !entry.runsIn.includes('page')) {
      throw new UsageError(`the ${entry.kind} experience model cannot run in the app`);
    }
    this.stop();
    this.model = model;
    this.fallbackKnn = new KnnExperienceModel();
    this.lastModel = null;
    const onPage = model === null && entry.kind !== 'neural';
    const name = entry.kind === 'neural' ? 'neural' : onPage ? `llm:${entry.kind}/${String(settings.modelId ?? '')}` : (model as ExperienceModel).name;
    this.experience = {
      kind: entry.kind,
      name,
      predictsOnPage: onPage,
      ...(entry.kind === 'http' ? { requestTimeoutMs: (settings.timeoutMs as number | undefined) ?? DEFAULT_TIMEOUT_MS } : {}),
    };
    this.resetMeter();
    return { ...this.experience };
  }

  /** The experience models the app offers, from the registry: the Experience view's picker lists these. */
  experienceModels(): ExperienceModelSummary[] {
    return experienceModelSummaries();
  }

  /**
   * The experience model chosen, as it answers for `env`: with the neural choice and no usable neural model
   * for that env, kNN answers (`name` is `knn`) and `fallback` says why.
   */
  async experienceInfo(env?: string): Promise<ExperienceInfo> {
    if (this.experience.kind !== 'neural' || env === undefined) return { ...this.experience };
    envSpec(env);
    const answering = await this.neuralFor(env);
    return answering.model === this.fallbackKnn ? { ...this.experience, name: 'knn', fallback: answering.fallback } : { ...this.experience };
  }

  /** How many retrieved transitions the model sees per step (the one bound of `k`: MIN_K–MAX_K, 0 without retrieval). */
  setK(k: number): void {
    if (!Number.isInteger(k) || k < MIN_K || k > MAX_K) throw new UsageError(`the number of retrieved examples must be a whole number from ${MIN_K} to ${MAX_K}, got ${k}`);
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

  bufferCounts(env: string): Promise<BufferCounts> {
    return this.retrieval.counts(env);
  }

  /** Start task `index` of `split` in the real environment; retrieval is brought up to date with the store. */
  async start(envName: string, split: string, index: number): Promise<ExperienceStart> {
    const spec = envSpec(envName);
    const task = taskAt(envName, split, index);
    this.stop();
    this.pending = null;
    // The last episode's page (a web env's frame) is let go of before the next one opens.
    await this.episode?.env.close?.();
    this.episode = null;
    await this.retrieval.bufferFor(envName);
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
    const buffer = await this.retrieval.bufferFor(task.env);
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
    return this.resolveAs(prediction, this.experience.name);
  }

  private async resolveAs(prediction: ExperiencePrediction, experience: string): Promise<ExperienceStep> {
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
      experience,
    };
  }

  /** One whole step with the model this service runs (neural, kNN or HTTP). */
  async step(action: string): Promise<ExperienceStep> {
    if (this.experience.predictsOnPage) throw new UsageError(`${this.experience.name} runs on the page: it predicts there and hands the prediction to resolve()`);
    const controller = new AbortController();
    this.controller = controller;
    const episode = this.current();
    const model = this.model ?? (await this.neuralFor(episode.task.env)).model;
    return this.neural.using(async () => {
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
      return this.resolveAs(prediction ?? failurePrediction('the model returned no prediction'), model.name);
    });
  }

  /** Stop the model request in flight (HTTP); the real environment does not move. */
  stop(): void {
    this.controller.abort();
  }

  // --- the neural model: NeuralModelRegistry does the work --------------------------------------

  /**
   * Start tfjs for the neural model on the fastest backend a short probe measures here, or on the
   * first of `preference` that works. Call it before anything loads a model: tensors stay on the
   * backend that made them.
   */
  async init(preference?: readonly BackendName[]): Promise<BackendName> {
    if (preference) {
      this.preference = preference;
      this.tf.forget();
    }
    return this.tf.get();
  }

  /** The neural model of `env` (if any), whether a fit runs, and this worker's tfjs backend (with the probe that chose it). */
  async neuralStatus(env: string): Promise<NeuralStatus> {
    return { ...(await this.neural.status(env, this.tfBackendName)), backendProbe: this.probe };
  }

  /** Fit `request.env`'s neural model with this service's k (see NeuralModelRegistry.fit). */
  fitNeural(request: NeuralFitRequest, onProgress?: (event: NeuralFitEvent) => void): Promise<NeuralFitSummary> {
    const { init, ...spec } = request;
    return this.neural.fit({ ...spec, k: this.k }, onProgress, init);
  }

  /** Stop the fit in progress; the env keeps the model it had. */
  stopFit(): void {
    this.neural.stopFit();
  }

  /** The `.dgx` file of `env`'s neural model (exactly the bytes that are saved). */
  exportNeural(env: string): Promise<Uint8Array> {
    return this.neural.export(env);
  }

  /** Load a `.dgx` file as the neural model of the env its header names; a bad file changes nothing. */
  importNeural(bytes: Uint8Array, fileName?: string): Promise<NeuralModelInfo> {
    return this.neural.import(bytes, fileName);
  }

  /** Forget `env`'s neural model here and in the browser's storage; kNN answers there again. */
  forgetNeural(env: string): Promise<void> {
    return this.neural.forget(env);
  }

  /** What answers for `env` under the neural choice: its neural model, or kNN with the reason. */
  private async neuralFor(env: string): Promise<{ model: ExperienceModel; fallback: string }> {
    const answer = await this.neural.modelFor(env);
    return answer.model ? { model: answer.model, fallback: '' } : { model: this.fallbackKnn, fallback: answer.problem };
  }

  private current(): Episode {
    if (!this.episode) throw new UsageError('start an episode first');
    if (this.episode.done) throw new UsageError('the episode is over; start another one');
    return this.episode;
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
    ...(typeof p.reply === 'string' ? { reply: p.reply.slice(0, MAX_SHOWN_REPLY + 1) } : {}),
  };
}
