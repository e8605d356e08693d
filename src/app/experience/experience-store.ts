/**
 * State of the Experience view as signals, and the commands that drive it. The real environment,
 * retrieval and the neural, kNN and HTTP models live in the experience worker (the neural model is
 * fitted there too); a WebLLM model lives on the page (WebLLM's engine must), loaded from a lazily
 * imported chunk. Module signals, so switching tabs keeps the backend, the episode, the meter and
 * a fit in progress. Every failure is shown as it came.
 */
import { FIT_SPEC, MAX_EPOCHS } from '../../jobs/fit-spec.ts';
import { parseSpec } from '../../jobs/spec.ts';
import { DEFAULT_K, MAX_K } from '../../replay/retrieval.ts';
import { DEFAULT_FIT } from '../../experience/neural/fit-settings.ts';
import { computed, signal } from '@preact/signals';
import { proxy, transfer } from 'comlink';
import { errorMessage } from '../../core/errors.ts';
import type { Observation } from '../../core/types.ts';
import { DGX_MAX_BYTES } from '../../experience/neural/model-file.ts';
import { tooLargeMessage } from '../file-size.ts';
import type { ExperiencePrediction, ExperienceStats } from '../../experience/types.ts';
import type {
  BackendChoice, BackendInfo, BufferCounts, ExperienceStart, ExperienceStep, FidelityMeter, NeuralEpoch, NeuralFitEvent, NeuralStatus,
} from '../../services/experience-protocol.ts';
import { defaultSplit, envs, loadEnvs } from '../env-client.ts';
import { experienceClient, onExperienceCrash } from '../experience-client.ts';
import type { LoadProgress, ModelCacheStatus, ModelOption, ModelRecord, PageModel } from './webllm.ts';
import { commandRunner } from '../command.ts';
import { downloadBlob } from '../download.ts';

export type BackendKind = BackendChoice['kind'];
export type LoadState = 'idle' | 'loading' | 'ready' | 'stopped' | 'error';
export type FitState = 'idle' | 'fitting' | 'stopping' | 'done' | 'stopped' | 'error';

/** The worker's default until it says more: the neural model, which is kNN until one is fitted. */
const DEFAULT_BACKEND: BackendInfo = { kind: 'neural', name: 'knn', predictsOnPage: false };
export { MAX_EPOCHS };

/** The last failure, shown in an alert until the next command starts. */
export const error = signal<string | null>(null);
/** What happened that is not a failure (a load or a step stopped by the person). */
export const note = signal<string | null>(null);

// The backend: what the picker shows, and what the steps use.
export const backendKind = signal<BackendKind>('neural');
export const active = signal<BackendInfo>(DEFAULT_BACKEND);
export const applying = signal(false);
export const kExamples = signal(DEFAULT_K);
export const httpBaseUrl = signal('http://127.0.0.1:8080');
export const httpModel = signal('');
export const httpApiKey = signal('');

// WebLLM.
export const modelListState = signal<'idle' | 'listing' | 'listed' | 'error'>('idle');
/** Whether the adapter has shader-f16; null without WebGPU; undefined until probed. */
export const shaderF16 = signal<boolean | null | undefined>(undefined);
export const models = signal<ModelOption[]>([]);
export const selectedModel = signal('');
export const cacheState = signal<ModelCacheStatus | 'checking' | null>(null);
export const customModelUrl = signal('');
export const customLibUrl = signal('');
export const customId = signal('');
export const customRecords = signal<ModelRecord[]>([]);
export const loadState = signal<LoadState>('idle');
export const loadProgress = signal<LoadProgress | null>(null);
export const deleting = signal(false);

// The neural model.
/** The neural model of the chosen env, the worker's tfjs backend, whether a fit runs. */
export const neural = signal<NeuralStatus | null>(null);
export const fitEpochs = signal<number>(DEFAULT_FIT.epochs);
export const fitState = signal<FitState>('idle');
/** The env being fitted (the env picker may move on meanwhile). */
export const fitEnv = signal<string | null>(null);
export const fitProgress = signal<NeuralFitEvent | null>(null);
/** Epochs of the fit in progress (or the last one), for the chart. */
export const fitHistory = signal<NeuralEpoch[]>([]);
/** A .dgx file that could not be imported: shown beside the import control. */
export const neuralFileError = signal<string | null>(null);
export const neuralFileBusy = signal(false);

// The episode.
export const selectedEnv = signal('shop');
export const selectedSplit = signal('test');
export const taskIndex = signal(0);
export const bufferCounts = signal<BufferCounts | null>(null);
export const episode = signal<ExperienceStart | null>(null);
export const steps = signal<ExperienceStep[]>([]);
export const meter = signal<FidelityMeter | null>(null);
export const modelStats = signal<ExperienceStats | null>(null);
/** A command is running (start, step, backend change). */
export const busy = signal(false);
/** A step is waiting on the model: it can be stopped. */
export const stepping = signal(false);

export const currentEnv = computed(() => envs.value.find((e) => e.name === selectedEnv.value));
export const splitSize = computed(() => currentEnv.value?.splits.find((s) => s.name === selectedSplit.value)?.size ?? 0);
export const lastStep = computed(() => steps.value.at(-1) ?? null);
export const isDone = computed(() => lastStep.value?.real.done ?? false);
/** The real current state: each step starts from it (an invalid action leaves it as it was). */
export const observation = computed<Observation | null>(() => {
  let state = episode.value?.observation ?? null;
  for (const step of steps.value) if (step.real.info.valid) state = step.real.observation;
  return state;
});
export const selectedOption = computed(() => models.value.find((m) => m.modelId === selectedModel.value) ?? null);
export const isFitting = computed(() => fitState.value === 'fitting' || fitState.value === 'stopping');
/** The epochs the chart shows: the fit in progress for the chosen env, else the chosen env's model. */
export const chartEpochs = computed<NeuralEpoch[]>(() => {
  if (isFitting.value && fitEnv.value === selectedEnv.value) return fitHistory.value;
  return neural.value?.model?.history ?? [];
});
/** Where tfjs runs in the experience worker, as far as known. */
export const tfBackend = computed(() => fitProgress.value?.backend ?? neural.value?.backend ?? null);

let pageModel: PageModel | null = null;
let stopPageModelCrashWatch: () => void = () => {};
let loadController: AbortController | null = null;
/** Set when the person pressed Stop, so the rejection that follows reads as a note, not an error. */
let stopRequested = false;
let fitStopRequested = false;
let webllm: Promise<typeof import('./webllm.ts')> | null = null;

function webllmModule(): Promise<typeof import('./webllm.ts')> {
  webllm ??= import('./webllm.ts').catch((e: unknown) => {
    webllm = null;
    throw e;
  });
  return webllm;
}

onExperienceCrash((message) => {
  error.value = message;
  busy.value = false;
  stepping.value = false;
  applying.value = false;
  neuralFileBusy.value = false;
  if (isFitting.value) fitState.value = 'error';
});

/** Run a command; its failure becomes the view's error. Returns false when it failed. */
const command = commandRunner(error);

/** The view opened: envs, the buffer's counts, and (once) the backend the worker has. */
export async function openView(): Promise<void> {
  if (envs.value.length === 0) await command(async () => void (await loadEnvs()));
  await refreshCounts();
  await refreshNeural();
  if (backendKind.value === 'webllm' && modelListState.value === 'idle') await listWebLlmModels();
}

/**
 * The chosen env's neural model and what answers there now (the neural choice is kNN where no
 * model is fitted). The worker reads saved models on the first call: a reload finds them again.
 */
export async function refreshNeural(): Promise<void> {
  const env = selectedEnv.value;
  await command(async () => {
    const client = experienceClient();
    // What answers first: it loads a saved model (starting tfjs), which the status then reports.
    const info = await client.backendInfo(env);
    const status = await client.neuralStatus(env);
    if (selectedEnv.value !== env) return;
    neural.value = status;
    active.value = info;
  });
}

export async function refreshCounts(): Promise<void> {
  await command(async () => {
    bufferCounts.value = await experienceClient().bufferCounts(selectedEnv.value);
  });
}

export function chooseEnv(name: string): void {
  selectedEnv.value = name;
  selectedSplit.value = defaultSplit(envs.value.find((e) => e.name === name));
  taskIndex.value = 0;
  void refreshCounts();
  void refreshNeural();
}

export function chooseKind(kind: BackendKind): void {
  backendKind.value = kind;
  if (kind === 'webllm' && (modelListState.value === 'idle' || modelListState.value === 'error')) void listWebLlmModels();
}

// --- the backend -------------------------------------------------------------------------------

async function releasePageModel(): Promise<void> {
  const model = pageModel;
  pageModel = null;
  stopPageModelCrashWatch();
  stopPageModelCrashWatch = () => {};
  if (model) await model.unload().catch(() => undefined);
  if (loadState.value === 'ready') loadState.value = 'idle';
}

async function useBackend(choice: BackendChoice): Promise<void> {
  const client = experienceClient();
  await client.setBackend(choice);
  active.value = await client.backendInfo(selectedEnv.value);
  meter.value = await client.meter();
  modelStats.value = null;
}

/** Make the picked backend the one the steps use (WebLLM: download and load the model). */
export async function applyBackend(): Promise<void> {
  if (backendKind.value === 'webllm') return loadWebLlm();
  if (applying.value || busy.value) return;
  applying.value = true;
  error.value = null;
  note.value = null;
  const choice: BackendChoice = backendKind.value === 'http'
    ? { kind: 'http', baseUrl: httpBaseUrl.value.trim(), model: httpModel.value.trim(), ...(httpApiKey.value ? { apiKey: httpApiKey.value } : {}) }
    : { kind: backendKind.value === 'knn' ? 'knn' : 'neural' };
  const ok = await command(() => useBackend(choice));
  if (ok) await releasePageModel();
  applying.value = false;
}

export async function setK(k: number): Promise<void> {
  kExamples.value = k;
  if (!Number.isInteger(k) || k < 1 || k > MAX_K) return;
  await command(() => experienceClient().setK(k));
}

export async function resetMeter(): Promise<void> {
  await command(async () => {
    meter.value = await experienceClient().resetMeter();
  });
}

// --- WebLLM ------------------------------------------------------------------------------------

export async function listWebLlmModels(): Promise<void> {
  modelListState.value = 'listing';
  const ok = await command(async () => {
    const mod = await webllmModule();
    const list = await mod.listModels(customRecords.value);
    shaderF16.value = list.shaderF16;
    models.value = list.models;
    if (!list.models.some((m) => m.modelId === selectedModel.value)) selectedModel.value = list.models[0]?.modelId ?? '';
  });
  modelListState.value = ok ? 'listed' : 'error';
  if (ok) await refreshCacheState();
}

export function chooseModel(modelId: string): void {
  selectedModel.value = modelId;
  void refreshCacheState();
}

export async function refreshCacheState(): Promise<void> {
  const modelId = selectedModel.value;
  if (!modelId) {
    cacheState.value = null;
    return;
  }
  cacheState.value = 'checking';
  try {
    const status = await (await webllmModule()).cacheStatus(modelId, customRecords.value);
    if (selectedModel.value === modelId) cacheState.value = status;
  } catch {
    if (selectedModel.value === modelId) cacheState.value = 'unavailable';
  }
}

export async function deleteSelectedFromCache(): Promise<void> {
  const modelId = selectedModel.value;
  if (!modelId || deleting.value) return;
  deleting.value = true;
  error.value = null;
  if (await command(async () => (await webllmModule()).deleteFromCache(modelId, customRecords.value))) {
    note.value = `Deleted ${modelId} from the browser cache${pageModel?.modelId === modelId ? ' (the loaded copy stays on the GPU until another backend is chosen)' : ''}.`;
  }
  deleting.value = false;
  await refreshCacheState();
}

export async function addCustomModel(): Promise<void> {
  error.value = null;
  await command(async () => {
    const record = (await webllmModule()).makeCustomModel(customModelUrl.value, customLibUrl.value, customId.value);
    customRecords.value = [record, ...customRecords.value.filter((r) => r.model_id !== record.model_id)];
    selectedModel.value = record.model_id;
    customModelUrl.value = '';
    customLibUrl.value = '';
    customId.value = '';
  });
  await listWebLlmModels();
}

/** Download (or read from the cache) and load the picked model; stoppable; errors say what to do. */
export async function loadWebLlm(): Promise<void> {
  const modelId = selectedModel.value;
  if (!modelId || loadState.value === 'loading' || busy.value) return;
  const controller = new AbortController();
  loadController = controller;
  loadState.value = 'loading';
  loadProgress.value = { progress: 0, text: `Preparing to load ${modelId}…` };
  error.value = null;
  note.value = null;
  // A model already in use ends when the worker is given another to load: steps fall back to the
  // default (the neural model, or kNN where none is fitted) meanwhile.
  if (active.value.kind === 'webllm') {
    await releasePageModel();
    await command(() => useBackend({ kind: 'neural' }));
  }
  try {
    const mod = await webllmModule();
    const model = await mod.loadModel({
      modelId,
      custom: customRecords.value,
      signal: controller.signal,
      onProgress: (progress) => {
        if (loadController === controller) loadProgress.value = progress;
      },
    });
    if (controller.signal.aborted) {
      await model.unload().catch(() => undefined);
      throw new Error('stopped');
    }
    pageModel = model;
    stopPageModelCrashWatch = model.onCrash((crash) => void pageModelCrashed(crash.message));
    await useBackend({ kind: 'webllm', modelId });
    loadState.value = 'ready';
    loadProgress.value = { progress: 1, text: `${modelId} is loaded and ready.` };
    void refreshCacheState();
  } catch (e) {
    if (controller.signal.aborted) {
      loadState.value = 'stopped';
      note.value = `Loading ${modelId} was stopped. Files already downloaded stay in the browser cache.`;
    } else {
      loadState.value = 'error';
      error.value = errorMessage(e);
    }
    await releasePageModel();
    void refreshCacheState();
  } finally {
    if (loadController === controller) loadController = null;
  }
}

export function cancelLoad(): void {
  loadController?.abort();
}

async function pageModelCrashed(message: string): Promise<void> {
  error.value = `${message} The neural experience model (kNN where none is fitted) is in use until a model is loaded again.`;
  loadState.value = 'error';
  pageModel = null;
  stopPageModelCrashWatch();
  (await webllmModule()).endWorker();
  await command(() => useBackend({ kind: 'neural' }));
}

// --- the neural model --------------------------------------------------------------------------

/** A progress report from the worker; each epoch's last one carries its loss and held-out fidelity. */
function onFitEvent(event: NeuralFitEvent): void {
  if (!isFitting.value) return; // a late report after the fit ended
  fitProgress.value = event;
  if (event.phase === 'train' && event.done === event.total && event.loss) {
    const entry: NeuralEpoch = { epoch: event.epoch, loss: event.loss, validation: event.validation ?? null };
    const others = fitHistory.value.filter((e) => e.epoch !== event.epoch);
    const held = fitHistory.value.find((e) => e.epoch === event.epoch);
    fitHistory.value = [...others, { ...entry, validation: entry.validation ?? held?.validation ?? null }].sort((a, b) => a.epoch - b.epoch);
  }
}

const seconds = (s: number) => (s < 60 ? `${Math.max(1, Math.round(s))} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`);

/**
 * Fit the chosen env's neural model in the worker from the buffer's real transitions. Long: it
 * shows progress and can be stopped; a stopped fit leaves the model that was there.
 */
export async function fitNeural(): Promise<void> {
  if (isFitting.value) return;
  const epochs = fitEpochs.value;
  const env = selectedEnv.value;
  try {
    // The fit's own spec bounds the form: the worker and the CLI refuse the same values.
    parseSpec(FIT_SPEC, { env, epochs }, (field) => (field === 'epochs' ? 'Epochs' : field));
  } catch (e) {
    error.value = errorMessage(e);
    return;
  }
  fitStopRequested = false;
  fitState.value = 'fitting';
  fitEnv.value = env;
  fitProgress.value = null;
  fitHistory.value = [];
  error.value = null;
  note.value = null;
  let outcome: FitState = 'done';
  try {
    const client = experienceClient();
    const summary = await client.fitNeural({ env, epochs }, proxy(onFitEvent));
    const kept = summary.model.saved ? 'It is saved in this browser.' : (summary.model.problem ?? '');
    note.value = `Fitted the neural model for ${env} on ${summary.backend} in ${seconds(summary.seconds)} from ${(summary.model.transitions ?? 0).toLocaleString('en-US')} real transitions. ${kept}`;
  } catch (e) {
    outcome = fitStopRequested ? 'stopped' : 'error';
    if (fitStopRequested) note.value = errorMessage(e);
    else error.value = errorMessage(e);
  }
  // The new model (or the one kept) is read before the chart leaves the fit's own epochs.
  await refreshNeural();
  fitState.value = outcome;
  await command(async () => {
    meter.value = await experienceClient().meter();
  });
}

/** The hint's button: choose the neural model and fit it. */
export async function fitFromHint(): Promise<void> {
  chooseKind('neural');
  await fitNeural();
}

export async function stopFit(): Promise<void> {
  if (fitState.value !== 'fitting') return;
  fitStopRequested = true;
  fitState.value = 'stopping';
  await command(() => experienceClient().stopFit());
}

function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
}

/** Download the chosen env's neural model as a `.dgx` file. */
export async function exportNeural(): Promise<void> {
  const env = selectedEnv.value;
  if (neuralFileBusy.value) return;
  neuralFileBusy.value = true;
  error.value = null;
  await command(async () => {
    const bytes = await experienceClient().exportNeural(env);
    downloadBlob(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }), `neural-${env}-${stamp()}.dgx`);
  });
  neuralFileBusy.value = false;
}

/** Load a `.dgx` file as the neural model of the env it names; a bad file changes nothing and says why. */
export async function importNeuralFile(file: File): Promise<void> {
  if (neuralFileBusy.value) return;
  if (isFitting.value) {
    neuralFileError.value = 'Stop the fit before importing a model.';
    return;
  }
  const tooLarge = tooLargeMessage(file, DGX_MAX_BYTES, 'an experience model file');
  if (tooLarge) {
    neuralFileError.value = tooLarge;
    return;
  }
  neuralFileBusy.value = true;
  note.value = null;
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const info = await experienceClient().importNeural(transfer(bytes, [bytes.buffer]), file.name);
    neuralFileError.value = null;
    note.value = `Imported ${file.name}: the neural model for ${info.env} (fitted on ${info.fittedOn}).${info.env === selectedEnv.value ? '' : ` Choose ${info.env} to use it.`}${info.saved ? ' It is saved in this browser.' : ` ${info.problem ?? ''}`}`;
    await refreshNeural();
    meter.value = await experienceClient().meter();
  } catch (e) {
    neuralFileError.value = `${file.name}: ${errorMessage(e)}`;
  } finally {
    neuralFileBusy.value = false;
  }
}

/** Forget the chosen env's neural model (here and in the browser's storage). */
export async function forgetNeural(): Promise<void> {
  const env = selectedEnv.value;
  if (neuralFileBusy.value || isFitting.value) return;
  neuralFileBusy.value = true;
  error.value = null;
  if (await command(() => experienceClient().forgetNeural(env))) {
    note.value = `Forgot the neural model for ${env}: kNN answers there until another is fitted or imported.`;
  }
  neuralFileBusy.value = false;
  await refreshNeural();
}

// --- the episode -------------------------------------------------------------------------------

export async function startEpisode(): Promise<void> {
  if (busy.value) return;
  busy.value = true;
  error.value = null;
  note.value = null;
  await command(async () => {
    const client = experienceClient();
    await client.setK(kExamples.value);
    const start = await client.start(selectedEnv.value, selectedSplit.value, taskIndex.value);
    episode.value = start;
    bufferCounts.value = start.buffer;
    steps.value = [];
    meter.value = await client.meter();
  });
  busy.value = false;
}

/** Take `action` in the simulator and in the real environment, from the real current state. */
export async function act(action: string): Promise<void> {
  if (!episode.value || isDone.value || busy.value) return;
  busy.value = true;
  stepping.value = true;
  stopRequested = false;
  error.value = null;
  note.value = null;
  try {
    const client = experienceClient();
    let step: ExperienceStep;
    if (active.value.predictsOnPage) {
      const model = pageModel;
      if (!model) throw new Error('The WebLLM model is not loaded any more: load it again, or choose the neural model, kNN or an HTTP endpoint.');
      const prepared = await client.prepare(action);
      const prediction: ExperiencePrediction = prepared.kind === 'ask' ? await model.predict(prepared.input) : prepared.prediction;
      if (stopRequested) throw new Error('stopped');
      step = await client.resolve(prediction);
      modelStats.value = model.stats();
    } else {
      step = await client.step(action);
      modelStats.value = await client.modelStats();
    }
    steps.value = [...steps.value, step];
    meter.value = step.meter;
  } catch (e) {
    if (stopRequested) note.value = 'The step was stopped; the real environment did not move.';
    else error.value = errorMessage(e);
  } finally {
    busy.value = false;
    stepping.value = false;
  }
}

/** Stop the model request in flight; the real environment does not move. */
export async function stopStep(): Promise<void> {
  if (!stepping.value) return;
  stopRequested = true;
  pageModel?.stop();
  await command(() => experienceClient().stop());
}
