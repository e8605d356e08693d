/**
 * State of the Experience view as signals, and the commands that drive it: the backend picker and
 * the hand-stepped episode. The real environment, retrieval and every model that runs in a worker
 * live in the experience worker; WebLLM (webllm-store.ts) and the neural model (neural-store.ts)
 * keep their own state; experience-state.ts holds what they share. Module signals, so switching
 * tabs keeps the backend, the episode, the meter and a fit in progress. Every failure is shown as
 * it came.
 */
import { computed, signal } from '@preact/signals';
import { errorMessage } from '../../core/errors.ts';
import type { Observation } from '../../core/types.ts';
import type { ExperiencePrediction } from '../../experience/types.ts';
import { DEFAULT_K, MAX_K, MIN_K } from '../../jobs/experience-models/retrieval-k.ts';
import type { ExperienceViewChoice, BufferCounts, ExperienceStart, ExperienceStep } from '../../services/experience-protocol.ts';
import { defaultSplit, envs, loadEnvs } from '../env-client.ts';
import { experienceClient, onExperienceCrash } from '../experience-client.ts';
import {
  active, experienceKind, experienceModels, busy, command, error, joinedRoom, meter, modelStats, note, selectedEnv, selectedSplit, taskIndex, useExperience, type ExperienceKind,
} from './experience-state.ts';
import { fitNeural, fitState, isFitting, neuralFileBusy, refreshNeural } from './neural-store.ts';
import { currentPageModel, listWebLlmModels, loadWebLlm, modelListState, releasePageModel } from './webllm-store.ts';

export const applying = signal(false);
export const kExamples = signal(DEFAULT_K);
export const httpEndpoint = signal('http://127.0.0.1:8080');
export const httpModel = signal('');
export const httpApiKey = signal('');

export const bufferCounts = signal<BufferCounts | null>(null);
export const episode = signal<ExperienceStart | null>(null);
export const steps = signal<ExperienceStep[]>([]);
/** A step is waiting on the model: it can be stopped. */
export const stepping = signal(false);
/** When the step waiting on the model was asked (ms since the epoch), so the view can count the wait. */
export const steppingSince = signal<number | null>(null);

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

/** Set when the person pressed Stop, so the rejection that follows reads as a note, not an error. */
let stopRequested = false;

onExperienceCrash((message) => {
  error.value = message;
  busy.value = false;
  stepping.value = false;
  applying.value = false;
  neuralFileBusy.value = false;
  if (isFitting.value) fitState.value = 'error';
});

/**
 * The settings of a model the picker offers without a panel of its own (one added to the registry):
 * field → the text typed, by kind.
 */
export const otherSettings = signal<Record<string, Record<string, string>>>({});

/** The view opened: envs, the models the worker offers, the buffer's counts, and (once) the model the worker has. */
export async function openView(): Promise<void> {
  if (envs.value.length === 0) await command(async () => void (await loadEnvs()));
  if (experienceModels.value.length === 0) await command(async () => void (experienceModels.value = await experienceClient().experienceModels()));
  // Side by side: the counts open the replay store, the model's answer may wait for tfjs to start.
  await Promise.all([refreshCounts(), refreshNeural()]);
  if (experienceKind.value === 'webllm' && modelListState.value === 'idle') await listWebLlmModels();
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

export function chooseKind(kind: ExperienceKind): void {
  experienceKind.value = kind;
  if (kind === 'webllm' && (modelListState.value === 'idle' || modelListState.value === 'error')) void listWebLlmModels();
}

// --- the experience model ----------------------------------------------------------------------

/** The picked model as the worker takes it: its kind and the settings its panel holds. */
export function pickedExperience(kind: ExperienceKind = experienceKind.value): ExperienceViewChoice {
  if (kind === 'http') {
    const room = joinedRoom.value;
    const endpoint = httpEndpoint.value.trim();
    return {
      kind,
      settings: { endpoint, model: httpModel.value.trim(), ...(httpApiKey.value ? { apiKey: httpApiKey.value } : {}) },
      // Only the room's own server gets the participant header (another server's CORS may refuse it).
      ...(room && room.endpoint === endpoint ? { participant: room.participant } : {}),
    };
  }
  if (kind === 'neural' || kind === 'knn') return { kind };
  const typed = otherSettings.value[kind] ?? {};
  const summary = experienceModels.value.find((m) => m.kind === kind);
  const settings = Object.fromEntries(
    Object.entries(typed)
      .filter(([, text]) => text.trim() !== '')
      .map(([field, text]) => [field, summary?.settings.find((s) => s.field === field)?.input === 'number' ? Number(text) : text]),
  );
  return { kind, settings };
}

/** Make the picked model the one the steps use (WebLLM: download and load the model). */
export async function applyExperience(): Promise<void> {
  if (experienceKind.value === 'webllm') return loadWebLlm();
  if (applying.value || busy.value) return;
  applying.value = true;
  error.value = null;
  note.value = null;
  const ok = await command(() => useExperience(pickedExperience()));
  if (ok) await releasePageModel();
  applying.value = false;
}

export async function setK(k: number): Promise<void> {
  kExamples.value = k;
  if (!Number.isInteger(k) || k < MIN_K || k > MAX_K) return;
  await command(() => experienceClient().setK(k));
}

export async function resetMeter(): Promise<void> {
  await command(async () => {
    meter.value = await experienceClient().resetMeter();
  });
}

/** The hint's button: choose the neural model and fit it. */
export async function fitFromHint(): Promise<void> {
  chooseKind('neural');
  await fitNeural();
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
  steppingSince.value = Date.now();
  stopRequested = false;
  error.value = null;
  note.value = null;
  try {
    const client = experienceClient();
    let step: ExperienceStep;
    if (active.value.predictsOnPage) {
      const model = currentPageModel();
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
    steppingSince.value = null;
  }
}

/** Stop the model request in flight; the real environment does not move. */
export async function stopStep(): Promise<void> {
  if (!stepping.value) return;
  stopRequested = true;
  currentPageModel()?.stop();
  await command(() => experienceClient().stop());
}
