/**
 * State of the Train view as signals, and the commands that drive the trainer worker. The run
 * itself lives in the worker; the page keeps the metrics it streams (for the charts and the
 * progress bar) and shows every error to the person.
 */
import { DEFAULT_CURRICULUM } from '../../curriculum/curriculum.ts';
import { pretrainedInit } from '../pretrained.ts';
import { checkAppTrainRun } from '../../jobs/train-spec.ts';
import { CURRICULUM_BY_DEFAULT } from '../../train/modes.ts';
import { computed, signal } from '@preact/signals';
import { proxy } from 'comlink';
import { errorMessage } from '../../core/errors.ts';
import type { AlgoName } from '../../rl/config.ts';
import type { BackendName } from '../../platform/tf.ts';
import type { BackendProbe } from '../../platform/backend-probe.ts';
import type { AppTrainMode, SavedRunInfo, TrainRequest, TrainerEvent } from '../../services/trainer-service.ts';
import { DEFAULT_CHECKPOINT_SECONDS } from '../../train/checkpoint.ts';
import type { IterationMetrics } from '../../train/metrics.ts';
import type { TrainResult } from '../../train/trainer.ts';
import { loadEnvs } from '../env-client.ts';
import { onTrainerCrash, trainerClient } from '../trainer-client.ts';
import { downloadBlob } from '../download.ts';
import { commandRunner } from '../command.ts';
import { keepFinishedRun } from '../runs/runs-store.ts';
import { savedStoreLimits } from '../buffer/store-limits.ts';
import { backendPreference, type BackendChoice } from '../BackendSelect.tsx';
import { experienceKind, experienceModels } from '../experience/experience-state.ts';
import { kExamples, pickedExperience } from '../experience/experience-store.ts';

/** The experience model a dream run will use, as the Experience view's picker names it. */
export const experienceLabel = computed(() => experienceModels.value.find((m) => m.kind === experienceKind.value)?.label ?? experienceKind.value);

export type RunState = 'idle' | 'starting' | 'running' | 'pausing' | 'paused' | 'stopping' | 'done' | 'stopped' | 'error';


// The form.
export const formEnv = signal<string>('shop');
export const formAlgo = signal<AlgoName>('ppo');
/** Real environment, or dream: the experience model chosen in the Experience view (by default the neural one this browser keeps for the env). */
export const formMode = signal<AppTrainMode>('real');
/** Real transitions (mode real). */
export const formBudget = signal(20_000);
/** Synthetic transitions (mode dream). */
export const formSyntheticBudget = signal(20_000);
export const formSeed = signal(1);
export const formEvalEvery = signal(10);
export const formEvalEpisodes = signal(100);
/** Episodes of the final held-out evaluation; empty (NaN): every held-out task once, as the CLI does without --final-eval-episodes. */
export const formFinalEvalEpisodes = signal(Number.NaN);
/** Env web: the tasks to train on (ids, or @app / @widgets, comma-separated); empty: all of the site's. */
export const formTasks = signal('');

/** The form's final evaluation size: undefined when the field is empty (every held-out task). */
function finalEvalEpisodes(): number | undefined {
  return Number.isNaN(formFinalEvalEpisodes.value) ? undefined : formFinalEvalEpisodes.value;
}

/** The form's Tasks as the request's list (env web only). */
export function chosenTasks(): string[] {
  return formEnv.value === 'web' ? formTasks.value.split(/[\s,]+/).filter((t) => t !== '') : [];
}
export const formBackend = signal<BackendChoice>('auto');
/** How often the run saves itself to this browser (seconds; 0: after every iteration). */
export const formCheckpointSeconds = signal(DEFAULT_CHECKPOINT_SECONDS);
/** Choose tasks with the curriculum (by outcome variance, with generated variations). */
export const formCurriculum = signal(false);
/** λ: the largest share of an iteration's tasks that may be generated. */
export const formLambda = signal(DEFAULT_CURRICULUM.lambda);

// The run.
export const runState = signal<RunState>('idle');
export const backend = signal<BackendName | null>(null);
/** How `auto` chose it: the probe's figures per backend (null when the backend was named). */
export const backendProbe = signal<BackendProbe | null>(null);
/** How a backend that was not measured was chosen (named under Advanced, or the one a resumed run was saved on). */
export const backendWhy = signal<string | null>(null);
/** The request of the run shown (the form may change while it runs). */
export const runRequest = signal<TrainRequest | null>(null);
/** Every iteration's metrics, in order; a new array on each iteration so views re-render. */
export const history = signal<IterationMetrics[]>([]);
export const evaluating = signal<{ done: number; total: number } | null>(null);
export const result = signal<TrainResult | null>(null);
export const error = signal<string | null>(null);
export const exporting = signal(false);
/** A run a reload, a crashed worker or a closed tab interrupted, which this browser keeps to resume. */
export const savedRun = signal<SavedRunInfo | null>(null);
/** The run's last save (iteration and ISO time), or why it could not be saved. */
export const lastSave = signal<{ iteration: number; savedAt: string } | null>(null);
export const saveProblem = signal<string | null>(null);
/** The latest prediction worker a dream lost (it predicts on without it, only slower). */
export const workerProblem = signal<string | null>(null);

export const latest = computed(() => history.value.at(-1) ?? null);
export const realTransitions = computed(() => result.value?.realTransitions ?? latest.value?.realTransitions ?? 0);
export const syntheticTransitions = computed(() => result.value?.syntheticTransitions ?? latest.value?.syntheticTransitions ?? 0);
/** What the shown run's budget counts: real transitions, or synthetic ones in mode dream. */
export const budgetKind = computed<'real' | 'synthetic'>(() => (runRequest.value?.mode === 'dream' ? 'synthetic' : 'real'));
export const budgetUsed = computed(() => (budgetKind.value === 'synthetic' ? syntheticTransitions.value : realTransitions.value));
export const budgetTotal = computed(() => {
  const request = runRequest.value;
  if (!request) return 0;
  return budgetKind.value === 'synthetic' ? (request.syntheticBudget ?? 0) : request.realBudget;
});
export const isActive = computed(() => ['starting', 'running', 'pausing', 'paused', 'stopping'].includes(runState.value));
export const canStop = computed(() => ['running', 'pausing', 'paused'].includes(runState.value));
// Only once the shown run has an iteration: after a start that failed, the worker still holds the previous run's policy.
export const canExport = computed(() => runRequest.value !== null && (history.value.length > 0 || result.value !== null) && !exporting.value);

/** Choose the mode; the curriculum follows the mode's default, as in the CLI (a person may change it again). */
export function setFormMode(mode: AppTrainMode): void {
  if (mode === formMode.value) return;
  formMode.value = mode;
  formCurriculum.value = CURRICULUM_BY_DEFAULT[mode];
}

/**
 * Problems with the form, or null when it can start a run: the train job's spec for the Train view
 * (jobs/train-spec.ts), the same bounds the trainer worker and the CLI apply, in the form's labels.
 */
export const formProblem = computed(() => {
  const run = {
    seed: formSeed.value,
    evalEvery: formEvalEvery.value,
    evalEpisodes: formEvalEpisodes.value,
    finalEvalEpisodes: finalEvalEpisodes(),
    curriculum: formCurriculum.value ? { lambda: formLambda.value } : null,
    checkpointEverySeconds: formCheckpointSeconds.value,
  };
  try {
    if (formMode.value === 'dream') checkAppTrainRun('dream', { ...run, syntheticBudget: formSyntheticBudget.value });
    else checkAppTrainRun('real', { ...run, realBudget: formBudget.value });
    return null;
  } catch (e) {
    return `${errorMessage(e)}.`;
  }
});

/** Seconds left for the budget at the recent sampling rate (mean of the last three iterations). */
export const secondsLeft = computed(() => {
  const request = runRequest.value;
  const recent = history.value.slice(-3).filter((m) => Number.isFinite(m.samplesPerSecond) && m.samplesPerSecond > 0);
  if (!request || recent.length === 0 || !isActive.value) return null;
  const rate = recent.reduce((a, m) => a + m.samplesPerSecond, 0) / recent.length;
  return Math.max(0, budgetTotal.value - budgetUsed.value) / rate;
});

/** The worker is gone (the page must be reloaded, and then offers the run's checkpoint). */
let crashed = false;
onTrainerCrash((message) => {
  crashed = true;
  error.value = message;
  evaluating.value = null;
  exporting.value = false;
  if (isActive.value) runState.value = 'error';
});

/** The environment <select> is built from the env worker's list; a failure shows in this view. */
export async function ensureEnvs(): Promise<void> {
  try {
    await loadEnvs();
  } catch (e) {
    error.value = errorMessage(e);
  }
}

/**
 * Progress only: the outcome ('done' / 'error') is what the awaited `train()` resolves or throws.
 * Events travel on the callback's own channel, so the last may land after `train()` resolved: an
 * evaluation's progress then no longer applies.
 */
function onEvent(event: TrainerEvent): void {
  if (event.kind === 'iteration') {
    history.value = [...history.value, event.metrics];
    evaluating.value = null;
  } else if (event.kind === 'evaluating' && isActive.value) {
    evaluating.value = { done: event.done, total: event.total };
  } else if (event.kind === 'checkpoint') {
    lastSave.value = { iteration: event.iteration, savedAt: event.savedAt };
    saveProblem.value = null;
  } else if (event.kind === 'checkpoint-failed') {
    saveProblem.value = sentence(event.message);
  } else if (event.kind === 'prediction-worker-lost') {
    workerProblem.value = `The dream goes on, only slower: ${event.message}.`;
  }
}

/** A message the trainer words as a clause, shown as a sentence. */
function sentence(message: string): string {
  return `${message.charAt(0).toUpperCase()}${message.slice(1)}${/[.!?]$/.test(message) ? '' : '.'}`;
}

/**
 * Ask the trainer whether this browser keeps an interrupted run (the Train view offers to resume
 * it). The answer waits while a run trains in any tab, this one included: it is dropped if a run
 * started here meanwhile.
 */
export async function loadSavedRun(): Promise<void> {
  if (isActive.value) return;
  try {
    const saved = await trainerClient().savedRun();
    if (!isActive.value) savedRun.value = saved;
  } catch (e) {
    error.value = `Could not read whether a run was interrupted: ${errorMessage(e)}`;
  }
}

export async function discardSavedRun(): Promise<void> {
  await command(async () => {
    await trainerClient().discardSavedRun();
    savedRun.value = null;
  });
}

export async function startTraining(): Promise<void> {
  if (isActive.value || formProblem.value) return;
  const tasks = chosenTasks();
  const init = await pretrainedInit(formEnv.value, 'policy');
  const request: TrainRequest = {
    env: formEnv.value,
    algo: formAlgo.value,
    mode: formMode.value,
    ...(formMode.value === 'dream'
      ? { realBudget: 0, syntheticBudget: formSyntheticBudget.value, storeLimits: savedStoreLimits(), experience: pickedExperience(), k: kExamples.value }
      : { realBudget: formBudget.value }),
    ...(tasks.length > 0 ? { tasks } : {}),
    ...(init ? { init } : {}),
    seed: formSeed.value,
    evalEvery: formEvalEvery.value,
    evalEpisodes: formEvalEpisodes.value,
    ...(finalEvalEpisodes() !== undefined ? { finalEvalEpisodes: finalEvalEpisodes() } : {}),
    curriculum: formCurriculum.value ? { lambda: formLambda.value } : null,
    // Outcomes by policy version (and generated tasks) go to the replay store with the buffer's data.
    recordStats: true,
    checkpointEverySeconds: formCheckpointSeconds.value,
  };
  const choice = formBackend.value;
  await runTraining(request, [], (client) => client.init(backendPreference(choice)), (client) => client.train(request, proxy(onEvent)), choice === 'auto' ? null : 'the one the form names');
}

/** The form as `request` set it, so a resumed run's settings are the ones shown. */
export function fillForm(request: TrainRequest, backendName?: string): void {
  formEnv.value = request.env;
  formAlgo.value = request.algo;
  formMode.value = request.mode ?? 'real';
  if (request.mode === 'dream') formSyntheticBudget.value = request.syntheticBudget ?? formSyntheticBudget.value;
  else formBudget.value = request.realBudget;
  formSeed.value = request.seed;
  if (request.evalEvery !== undefined) formEvalEvery.value = request.evalEvery;
  if (request.evalEpisodes !== undefined) formEvalEpisodes.value = request.evalEpisodes;
  formFinalEvalEpisodes.value = request.finalEvalEpisodes ?? Number.NaN;
  formTasks.value = (request.tasks ?? []).join(', ');
  formCurriculum.value = request.curriculum != null;
  if (request.curriculum) formLambda.value = request.curriculum.lambda;
  if (request.checkpointEverySeconds !== undefined) formCheckpointSeconds.value = request.checkpointEverySeconds;
  if (backendName === 'webgpu' || backendName === 'wasm' || backendName === 'cpu') formBackend.value = backendName;
}

/**
 * Go on with the interrupted run: its request, its curve so far, on the backend it trained on (so
 * it ends where it would have; the platform's first working one if that is gone).
 */
export async function resumeSavedRun(): Promise<void> {
  const saved = savedRun.value;
  if (isActive.value || !saved) return;
  fillForm(saved.request, saved.backend);
  await runTraining(
    saved.request,
    saved.history,
    (client) => client.init([saved.backend as BackendName]).catch(() => client.init()),
    (client) => client.resumeSavedRun(proxy(onEvent)),
    'the backend the run was saved on, so it ends where it would have',
  );
}

type Client = ReturnType<typeof trainerClient>;

async function runTraining(
  request: TrainRequest,
  before: IterationMetrics[],
  init: (client: Client) => Promise<BackendName>,
  start: (client: Client) => Promise<TrainResult>,
  why: string | null,
): Promise<void> {
  runState.value = 'starting';
  runRequest.value = request;
  history.value = before;
  result.value = null;
  evaluating.value = null;
  error.value = null;
  backend.value = null;
  backendProbe.value = null;
  backendWhy.value = why;
  lastSave.value = null;
  saveProblem.value = null;
  workerProblem.value = null;
  try {
    const client = trainerClient();
    backend.value = await init(client);
    backendProbe.value = await client.backendProbe();
    if (runState.value !== 'starting') return; // crashed meanwhile
    runState.value = 'running';
    // A new run's checkpoints take the interrupted one's place.
    savedRun.value = null;
    const final = await start(client);
    result.value = final;
    evaluating.value = null;
    runState.value = final.stopped ? 'stopped' : 'done';
    await keepRun(final, request);
  } catch (e) {
    error.value = errorMessage(e);
    evaluating.value = null;
    runState.value = 'error';
    // A run that failed keeps its last checkpoint: offer it (a resume that failed offers it again, to discard).
    if (!crashed) await loadSavedRun();
  }
}

/** Keep the finished run for the Runs view; a run stopped before its first iteration has nothing to compare. */
async function keepRun(final: TrainResult, request: TrainRequest): Promise<void> {
  if (final.history.length === 0 && !final.eval) return;
  try {
    // Its policy is kept with it, for the Runs view's download and Evaluate; a run keeps its curve even if the export fails.
    const policy = await trainerClient().exportPolicy().catch(() => null);
    await keepFinishedRun(final, request, policy);
  } catch (e) {
    error.value = `The run finished, but could not be kept for the Runs view: ${errorMessage(e)}`;
  }
}

const command = commandRunner(error);

export async function pauseTraining(): Promise<void> {
  if (runState.value !== 'running') return;
  runState.value = 'pausing';
  await command(async () => {
    const state = await trainerClient().pause();
    // The run may have ended while the command travelled; only a run still going is paused.
    if (runState.value === 'pausing') runState.value = state === 'paused' ? 'paused' : 'running';
  });
}

export async function resumeTraining(): Promise<void> {
  if (runState.value !== 'paused') return;
  await command(async () => {
    await trainerClient().resume();
    if (runState.value === 'paused') runState.value = 'running';
  });
}

export async function stopTraining(): Promise<void> {
  if (!canStop.value) return;
  runState.value = 'stopping';
  await command(() => trainerClient().stop());
}

/** `dreamgym-<env>-<algo>[-dream]-<seed>.dgp`, from the run (not the form, which may have changed). */
function exportFileName(request: TrainRequest): string {
  return `dreamgym-${request.env}-${request.algo}${request.mode === 'dream' ? '-dream' : ''}-${request.seed}.dgp`;
}

/** Download the current policy of the run (mid-run, paused or finished) as a `.dgp` file. */
export async function exportCurrentPolicy(): Promise<void> {
  const request = runRequest.value;
  if (!request || exporting.value) return;
  exporting.value = true;
  try {
    const bytes = await trainerClient().exportPolicy();
    downloadBlob(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }), exportFileName(request));
  } catch (e) {
    error.value = errorMessage(e);
  } finally {
    exporting.value = false;
  }
}

// Chart data, in uPlot's aligned form: x = the transitions the budget counts, then one array per series.

type Column = (number | null)[];

function columns(width: number, pick: (m: IterationMetrics) => Column): [number[], ...Column[]] {
  const rows = history.value;
  const synthetic = budgetKind.value === 'synthetic';
  const x = rows.map((m) => (synthetic ? m.syntheticTransitions : m.realTransitions));
  const cols: Column[] = Array.from({ length: width }, () => []);
  for (const m of rows) pick(m).forEach((v, i) => cols[i]!.push(v));
  return [x, ...cols];
}

/** The held-out result of an iteration, or of the whole run on its last iteration (the final evaluation). */
function heldOut(m: IterationMetrics): { successRate: number; meanScore: number } | null {
  if (m.eval) return m.eval;
  const final = result.value;
  return final?.eval && m === history.value.at(-1) ? final.eval : null;
}

/** Train success, held-out success (left, 0–1); train score, held-out score (right, 0–100). */
export const successData = computed(() =>
  columns(4, (m) => [m.successRate, heldOut(m)?.successRate ?? null, m.meanScore, heldOut(m)?.meanScore ?? null]),
);
export const lossData = computed(() => columns(2, (m) => [m.policyLoss, m.valueLoss]));
export const stabilityData = computed(() => columns(2, (m) => [m.entropy, m.approxKl]));
