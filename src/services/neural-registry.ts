/**
 * The app's neural experience models, one per environment: fitted here from the replay store (the
 * fit job), imported from a `.dgx` file, exported, forgotten, and kept in this browser
 * (neural-model-store.ts) so they survive a reload. A saved model's bytes are read once and the
 * model is built when first used; one that cannot be used says why, and kNN answers meanwhile.
 *
 * A model replaced while a prediction uses it is disposed only when no prediction is running
 * (`using`), so a fit or an import never pulls tensors from under a step.
 */
import { DreamGymError, errorMessage, UsageError } from '../core/errors.ts';
import { envSpec } from '../envs/registry.ts';
import { ModelFileError } from '../experience/neural/model-file.ts';
import { importNeuralModel, importNeuralModelFor } from '../experience/neural/model-io.ts';
import type { NeuralExperienceModel } from '../experience/neural/model.ts';
import { readTrainingRecord } from '../experience/neural/training-record.ts';
import { fitExperienceModel, fitSpec } from '../jobs/fit-experience-model.ts';
import { fetchPretrained } from './pretrained-fetch.ts';
import type { FitSpecInput } from '../jobs/fit-spec.ts';
import type { BackendName } from '../platform/tf.ts';
import type { ReplayBuffer } from '../replay/retrieval.ts';
import type { NeuralFitEvent, NeuralFitSummary, NeuralStatus } from './experience-protocol.ts';
import type { NeuralModelInfo, NeuralModelStore, SavedNeuralModel } from './neural-model-store.ts';
import { Once } from './once.ts';

/** A neural model held for one env: its file, and the model once it is loaded (lazily, after a reload). */
interface NeuralEntry {
  info: NeuralModelInfo;
  bytes: Uint8Array;
  model: NeuralExperienceModel | null;
}

export interface NeuralRegistryOptions {
  openModelStore: () => Promise<NeuralModelStore>;
  /** The worker's tfjs backend, started on first need. */
  backend: () => Promise<BackendName>;
  /** The retrieval index a fit learns from. */
  bufferFor: (env: string) => Promise<ReplayBuffer>;
  /** A model was installed for `env` (the service's meter starts over). */
  onInstall?: (env: string) => void;
  now?: () => number;
}

/** The neural model that answers for an env, or why there is none. */
export type NeuralAnswer = { model: NeuralExperienceModel; problem: null } | { model: null; problem: string };

export class NeuralModelRegistry {
  private readonly entries = new Map<string, NeuralEntry>();
  private readonly store: Once<NeuralModelStore>;
  private readonly saved: Once<void>;
  private fitController: AbortController | null = null;
  /** Predictions running now: a model replaced meanwhile is disposed only when they are done. */
  private predicting = 0;
  private retired: NeuralExperienceModel[] = [];

  constructor(private readonly options: NeuralRegistryOptions) {
    this.store = new Once(options.openModelStore);
    this.saved = new Once(() => this.readSaved());
  }

  get fitting(): boolean {
    return this.fitController !== null;
  }

  async status(env: string, backend: BackendName | null): Promise<NeuralStatus> {
    envSpec(env);
    await this.saved.get();
    const entry = this.entries.get(env);
    return { env, backend, fitting: this.fitting, model: entry ? { ...entry.info } : null };
  }

  /** `env`'s model, built from its saved bytes on first use; or why none answers. */
  async modelFor(env: string): Promise<NeuralAnswer> {
    await this.saved.get();
    const entry = this.entries.get(env);
    if (!entry) return { model: null, problem: `No neural model is fitted for ${env} yet, so kNN answers.` };
    if (!entry.model && entry.info.problem === undefined) {
      try {
        await this.options.backend();
        const { model } = importNeuralModelFor(entry.bytes, env);
        // Another call may have loaded it meanwhile (the backend was awaited).
        if (entry.model) model.dispose();
        else entry.model = model;
      } catch (error) {
        entry.info = { ...entry.info, problem: `The saved neural model for ${env} cannot be used (${errorMessage(error)}); fit it again or import a .dgx file.` };
      }
    }
    if (!entry.model) return { model: null, problem: `${entry.info.problem ?? 'The neural model is not loaded.'} kNN answers meanwhile.` };
    return { model: entry.model, problem: null };
  }

  /** Run `predict` while the models it may use stay alive. */
  async using<T>(predict: () => Promise<T>): Promise<T> {
    this.predicting++;
    try {
      return await predict();
    } finally {
      this.predicting--;
      if (this.predicting === 0) this.disposeRetired();
    }
  }

  /**
   * Fit `request.env`'s model from the replay store's real transitions of that env. Progress
   * streams to `onProgress`; `stopFit()` ends it early, and then the env keeps the model it had.
   * The new model replaces the old one only once it is complete, and is saved in this browser.
   */
  async fit(request: FitSpecInput, onProgress?: (event: NeuralFitEvent) => void, init?: { url: string }): Promise<NeuralFitSummary> {
    if (this.fitController) throw new DreamGymError('busy', 'a neural model is being fitted already; stop it first');
    const spec = fitSpec(request);
    const env = spec.env;
    const controller = new AbortController();
    this.fitController = controller;
    const report = (event: NeuralFitEvent): void => {
      // A comlink callback answers with a promise; a page that went away must not fail the fit.
      if (onProgress) void Promise.resolve(onProgress(event)).catch(() => undefined);
    };
    try {
      const backend = await this.options.backend();
      await this.saved.get();
      const buffer = await this.options.bufferFor(env);
      const initial = init ? await fetchPretrained(init.url, 'model') : undefined;
      controller.signal.throwIfAborted();
      const fitted = await fitExperienceModel(spec, {
        buffer,
        ...(initial ? { init: initial } : {}),
        backend,
        source: 'app',
        signal: controller.signal,
        onProgress: (p) => report({ ...p, env, backend }),
        ...(this.options.now ? { now: this.options.now } : {}),
      });
      const info: NeuralModelInfo = {
        env,
        origin: 'fitted',
        ...(initial ? { fineTuned: true } : {}),
        fittedOn: backend,
        createdAt: fitted.createdAt,
        transitions: fitted.record.transitions,
        validationTransitions: fitted.record.validationTransitions,
        history: fitted.record.history,
        bytes: fitted.bytes.byteLength,
        saved: false,
      };
      await this.install(env, fitted.model, fitted.bytes, info);
      return { model: { ...(this.entries.get(env)?.info ?? info) }, backend, seconds: fitted.fit.seconds };
    } catch (error) {
      if (controller.signal.aborted) {
        const had = this.entries.has(env) ? `keeps the model it had` : `still has none, so kNN answers there`;
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

  /** The `.dgx` file of `env`'s model (exactly the bytes that are saved). */
  async export(env: string): Promise<Uint8Array> {
    envSpec(env);
    await this.saved.get();
    const entry = this.entries.get(env);
    if (!entry) throw new UsageError(`no neural model is fitted for ${env} yet: fit one first`);
    return entry.bytes.slice();
  }

  /**
   * Load a `.dgx` file as the model of the env its header names. Every check runs before anything
   * is replaced: a bad file throws (a ModelFileError saying what is wrong) and changes nothing.
   */
  async import(bytes: Uint8Array, fileName?: string): Promise<NeuralModelInfo> {
    if (!(bytes instanceof Uint8Array)) throw new ModelFileError('wrong-kind', 'expected the bytes of a .dgx file');
    if (this.fitController) throw new DreamGymError('busy', 'a neural model is being fitted; stop it before importing one');
    const backend = await this.options.backend();
    await this.saved.get();
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
      ...(training.stoppedAfter !== null && training.epochsAsked !== null ? { stopped: { after: training.stoppedAfter, of: training.epochsAsked } } : {}),
      bytes: bytes.byteLength,
      ...(fileName ? { fileName: fileName.slice(0, 200) } : {}),
      saved: false,
    };
    await this.install(header.env, model, bytes.slice(), info);
    return { ...(this.entries.get(header.env)?.info ?? info) };
  }

  /** Forget `env`'s model here and in the browser's storage; kNN answers there again. */
  async forget(env: string): Promise<void> {
    envSpec(env);
    if (this.fitController) throw new DreamGymError('busy', 'a neural model is being fitted; stop it first');
    await this.saved.get();
    const entry = this.entries.get(env);
    if (!entry) return;
    await (await this.store.get()).delete(env);
    this.entries.delete(env);
    if (entry.model) this.retire(entry.model);
  }

  /**
   * Read the saved models once (their bytes; each is built when first used). Storage that cannot
   * be read leaves kNN answering, never a broken page.
   */
  private async readSaved(): Promise<void> {
    let saved: SavedNeuralModel[];
    try {
      saved = await (await this.store.get()).all();
    } catch {
      return;
    }
    for (const record of saved) {
      if (!record || typeof record.env !== 'string' || !(record.bytes instanceof Uint8Array) || typeof record.info !== 'object' || this.entries.has(record.env)) continue;
      this.entries.set(record.env, { info: { ...record.info, env: record.env, bytes: record.bytes.byteLength, saved: true }, bytes: record.bytes, model: null });
    }
  }

  /** Make `model` the env's model, save its file, and retire the one it replaces. */
  private async install(env: string, model: NeuralExperienceModel, bytes: Uint8Array, info: NeuralModelInfo): Promise<void> {
    let saved: NeuralModelInfo;
    try {
      await (await this.store.get()).put({ env, bytes, info: { ...info, saved: true } });
      saved = { ...info, saved: true };
    } catch (error) {
      saved = { ...info, saved: false, problem: `Not saved in this browser (${errorMessage(error)}): it lasts until the page is closed; export it to keep it.` };
    }
    const old = this.entries.get(env)?.model;
    this.entries.set(env, { info: saved, bytes, model });
    if (old && old !== model) this.retire(old);
    this.options.onInstall?.(env);
  }

  private retire(model: NeuralExperienceModel): void {
    this.retired.push(model);
    if (this.predicting === 0) this.disposeRetired();
  }

  private disposeRetired(): void {
    for (const model of this.retired.splice(0)) model.dispose();
  }
}
