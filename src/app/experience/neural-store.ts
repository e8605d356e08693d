/**
 * The neural experience model of the Experience view: the chosen env's model, its fit (progress,
 * chart, Stop), and its `.dgx` file (export, import, forget). The model lives in the experience
 * worker; the fit's form is bounded by the fit job's spec.
 */
import { batch, computed, signal } from '@preact/signals';
import { proxy, transfer } from 'comlink';
import { errorMessage } from '../../core/errors.ts';
import { pretrainedInit } from '../pretrained.ts';
import { DEFAULT_FIT } from '../../experience/neural/fit-settings.ts';
import { DGX_MAX_BYTES } from '../../experience/neural/model-file.ts';
import { FIT_SPEC, MAX_EPOCHS } from '../../jobs/fit-spec.ts';
import { parseSpec } from '../../jobs/spec.ts';
import type { NeuralEpoch, NeuralFitEvent, NeuralStatus } from '../../services/experience-protocol.ts';
import { downloadBlob } from '../download.ts';
import { experienceClient } from '../experience-client.ts';
import { tooLargeMessage } from '../file-size.ts';
import { active, activeKnown, command, error, meter, note, selectedEnv } from './experience-state.ts';

export type FitState = 'idle' | 'fitting' | 'stopping' | 'done' | 'stopped' | 'error';
export { MAX_EPOCHS };

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

export const isFitting = computed(() => fitState.value === 'fitting' || fitState.value === 'stopping');
/** The epochs the chart shows: the fit in progress for the chosen env, else the chosen env's model. */
export const chartEpochs = computed<NeuralEpoch[]>(() => {
  if (isFitting.value && fitEnv.value === selectedEnv.value) return fitHistory.value;
  return neural.value?.model?.history ?? [];
});
/** Where tfjs runs in the experience worker, as far as known. */
export const tfBackend = computed(() => fitProgress.value?.backend ?? neural.value?.backend ?? null);

let fitStopRequested = false;

/**
 * The chosen env's neural model and what answers there now (the neural choice is kNN where no
 * model is fitted). The worker reads saved models on the first call: a reload finds them again.
 *
 * The saved model's record is shown first: reading it is quick, while loading the model waits for
 * tfjs to start in the worker (after a reload, a backend probe of several seconds, more than 16 on
 * a machine without a GPU), and the view said "No neural model is fitted" all that time.
 */
export async function refreshNeural(): Promise<void> {
  const env = selectedEnv.value;
  await command(async () => {
    if (await showSavedRecord(env)) await showWhatAnswers(env);
  });
  // After a failure (shown in the alert) the picker shows the last answer it had rather than checking forever.
  activeKnown.value = true;
}

/**
 * The saved model's record (quick); false when the chosen env changed meanwhile. `alongside` changes
 * other signals in the same batch, so no render shows one change without the other.
 */
async function showSavedRecord(env: string, alongside: () => void = () => {}): Promise<boolean> {
  const saved = await experienceClient().neuralStatus(env);
  if (selectedEnv.value !== env) return false;
  batch(() => {
    showRecord(saved);
    alongside();
  });
  return true;
}

function showRecord(saved: NeuralStatus): void {
  neural.value = saved;
  // Under the neural choice, a saved model that is not known to be broken answers once loaded,
  // and without one kNN answers: either is known from the record alone.
  if (active.value.kind === 'neural' && (!saved.model || saved.model.problem === undefined)) {
    active.value = { kind: 'neural', name: saved.model ? 'neural' : 'knn', predictsOnPage: false };
    activeKnown.value = true;
  }
}

/** What answers: this loads the saved model (starting tfjs), which the status then reports with its backend. */
async function showWhatAnswers(env: string): Promise<void> {
  const client = experienceClient();
  const info = await client.experienceInfo(env);
  const status = await client.neuralStatus(env);
  if (selectedEnv.value !== env) return;
  neural.value = status;
  active.value = info;
  activeKnown.value = true;
}

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
    const init = await pretrainedInit(env, 'model');
    const fit = client.fitNeural({ env, epochs, ...(init ? { init } : {}) }, proxy(onFitEvent));
    // A Stop pressed while the pretrained weights were read reached the worker before the fit did,
    // found nothing to stop and was lost (the fit then ran to its end): send it again behind the fit.
    if (fitStopRequested) await command(() => client.stopFit());
    const summary = await fit;
    const kept = summary.model.saved ? 'It is saved in this browser.' : (summary.model.problem ?? '');
    note.value = `Fitted the neural model for ${env} on ${summary.backend} in ${seconds(summary.seconds)} from ${(summary.model.transitions ?? 0).toLocaleString('en-US')} real transitions. ${kept}`;
  } catch (e) {
    outcome = fitStopRequested ? 'stopped' : 'error';
    if (fitStopRequested) note.value = errorMessage(e);
    else error.value = errorMessage(e);
  }
  // The new model's record (or the one kept) is read before the chart leaves the fit's own epochs,
  // and the fit says how it ended as soon as the record shows: the view never names the new model
  // as the one answering while its status still shows the last epoch's progress.
  let recordShown = false;
  await command(async () => {
    recordShown = await showSavedRecord(env, () => (fitState.value = outcome));
  });
  fitState.value = outcome;
  if (recordShown) await command(() => showWhatAnswers(env));
  activeKnown.value = true;
  await command(async () => {
    meter.value = await experienceClient().meter();
  });
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

