/**
 * State of the Evaluate view: a policy loaded into the trainer worker (a `.dgp` file, or the policy
 * kept with a stored run: `#evaluate?run=<id>` opens one), an episode the policy plays greedily,
 * one step at a time or to the end, and its evaluation on N held-out tasks in the real environment
 * (training's own evaluation, in the worker). A bad file is refused by the worker with a message
 * that says what is wrong; the page shows it and keeps what it had.
 */
import { computed, signal } from '@preact/signals';
import { proxy, transfer } from 'comlink';
import { errorMessage } from '../../core/errors.ts';
import { DGP_MAX_BYTES, type PolicyFileHeader } from '../../policy/dgp.ts';
import { traceReportHtml } from '../../jobs/trace-report.ts';
import { downloadBlob } from '../download.ts';
import { tooLargeMessage } from '../file-size.ts';
import type { EpisodeStart } from '../../services/env-session.ts';
import type { HeldOutEvaluation, PolicyStep } from '../../services/policy-player.ts';
import { defaultSplit, envs, loadEnvs } from '../env-client.ts';
import type { StoredRun } from '../runs/run-library.ts';
import { ensureRuns, evaluateRunHash, runIdFromHash, runs, storedPolicy } from '../runs/runs-store.ts';
import { onTrainerCrash, playerClient } from '../trainer-client.ts';
import { evaluateTraceReport, traceFileName } from './evaluate-trace.ts';

export const header = signal<PolicyFileHeader | null>(null);
export const fileName = signal<string | null>(null);
/** Why the last file could not be loaded (shown in an alert); null after a good load. */
export const fileError = signal<string | null>(null);
export const loading = signal(false);
/** The stored run whose policy is loaded (null: a policy from a file, or none). */
export const sourceRun = signal<StoredRun | null>(null);
/** The stored runs that keep a policy, newest first: what the view offers to open. */
export const runsWithPolicy = computed(() => (runs.value ?? []).filter((r) => (r.policyBytes ?? 0) > 0).reverse());

/** Held-out tasks the next evaluation plays (the form's field). */
export const heldOutEpisodes = signal(100);
/** The held-out evaluation going on: episodes done of all, and when it started (ms). */
export const heldOutProgress = signal<{ done: number; total: number; startedAt: number } | null>(null);
/** The loaded policy's held-out evaluations here, oldest first (a new policy starts a new list). */
export const heldOutResults = signal<HeldOutEvaluation[]>([]);
export const heldOutError = signal<string | null>(null);
/** Redrawn every second during an evaluation, so its time left counts down between episodes. */
export const clock = signal(Date.now());
export const heldOutRunning = computed(() => heldOutProgress.value !== null);

export const split = signal('');
export const taskIndex = signal(0);
export const episode = signal<EpisodeStart | null>(null);
export const steps = signal<PolicyStep[]>([]);
export const busy = signal(false);
/** True while "Run to end" is stepping; setting it false stops after the current step. */
export const running = signal(false);
export const episodeError = signal<string | null>(null);

/** The loaded policy's environment as the env worker describes it (its splits and sizes). */
export const policyEnv = computed(() => (header.value ? envs.value.find((e) => e.name === header.value?.env) ?? null : null));
export const splitSize = computed(() => policyEnv.value?.splits.find((s) => s.name === split.value)?.size ?? 0);
/** Why the Task field's number names no task of the split (null when it does, or while the split is unknown). */
export const taskProblem = computed(() => {
  const n = taskIndex.value;
  const size = splitSize.value;
  if (size === 0 || (Number.isInteger(n) && n >= 0 && n < size)) return null;
  return `Task: a whole number from 0 to ${(size - 1).toLocaleString('en-US')} (the ${split.value} split has ${size.toLocaleString('en-US')} tasks); ${Number.isNaN(n) ? 'the field is empty' : `got ${n}`}.`;
});
export const lastStep = computed(() => steps.value.at(-1) ?? null);
export const observation = computed(() => lastStep.value?.result.observation ?? episode.value?.observation ?? null);
export const isDone = computed(() => lastStep.value?.result.done ?? false);
export const totalReward = computed(() => steps.value.reduce((sum, s) => sum + s.result.reward, 0));

/** The loaded policy's environment's held-out split (its size bounds the field). */
export const testSplit = computed(() => {
  const env = policyEnv.value;
  return env ? env.splits.find((s) => s.name === env.testSplit) ?? null : null;
});
/** Why the held-out tasks field cannot be played (null when it can, or while the split is unknown). */
export const heldOutProblem = computed(() => {
  const n = heldOutEpisodes.value;
  const size = testSplit.value?.size ?? 0;
  if (size === 0 || (Number.isInteger(n) && n >= 1 && n <= size)) return null;
  return `Held-out tasks: a whole number from 1 to ${size.toLocaleString('en-US')} (the ${testSplit.value?.name ?? 'test'} split has ${size.toLocaleString('en-US')} tasks); ${Number.isNaN(n) ? 'the field is empty' : `got ${n}`}.`;
});

/** Seconds left in the evaluation at its rate so far; null until an episode has finished. */
export function heldOutSecondsLeft(progress: { done: number; total: number; startedAt: number } | null, now: number): number | null {
  if (!progress || progress.done <= 0) return null;
  const elapsed = Math.max(0, now - progress.startedAt) / 1000;
  return Math.max(0, (elapsed / progress.done) * (progress.total - progress.done));
}

onTrainerCrash((message) => {
  episodeError.value = message;
  busy.value = false;
  loading.value = false;
  running.value = false;
  heldOutError.value = message;
  heldOutProgress.value = null;
});

/** The splits to choose from need the env list (from the env worker); a failure shows here. */
export async function ensureEnvs(): Promise<void> {
  try {
    await loadEnvs();
  } catch (e) {
    episodeError.value = errorMessage(e);
  }
}

/**
 * What a person dropped or chose: one `.dgp`, or a policy exported as safetensors (its
 * `.safetensors` weights and its `config.json` card, together).
 */
export async function loadPolicyFiles(files: readonly File[]): Promise<void> {
  const weights = files.find((f) => f.name.endsWith('.safetensors'));
  const config = files.find((f) => f.name.endsWith('.json'));
  if (files.length === 1 && files[0]) return loadPolicyFile(files[0]);
  if (files.length === 2 && weights && config) return loadPolicyFile(weights, config);
  fileError.value = `Choose one .dgp file, or a policy's .safetensors weights together with its config.json (got ${files.map((f) => f.name).join(', ') || 'nothing'}).`;
}

/** The hash this view last acted on, so a visit back to the tab does not load the run again over a file. */
let hashSeen: string | null = null;

/** Why no other policy may be loaded now (null: one may). */
function busyLoading(): string | null {
  if (running.value) return 'Stop the running episode before loading another policy.';
  if (heldOutRunning.value) return 'Stop the held-out evaluation before loading another policy.';
  return null;
}

/** A hash without `?run=…`: a policy from a file is not the stored run a reload would open. */
function forgetRunInHash(): void {
  hashSeen = null;
  if (runIdFromHash(window.location.hash) !== null) window.history.replaceState(window.history.state, '', '#evaluate');
}

/** Everything about the policy before: its episode, its evaluations. */
function freshPolicy(): void {
  fileError.value = null;
  episode.value = null;
  steps.value = [];
  episodeError.value = null;
  heldOutResults.value = [];
  heldOutError.value = null;
}

/** Load a `.dgp` file (or safetensors weights with their config) into the worker; on any problem show the worker's message and change nothing else. */
export async function loadPolicyFile(file: File, config?: File): Promise<void> {
  if (loading.value) return;
  const busyNow = busyLoading();
  if (busyNow) {
    fileError.value = busyNow;
    return;
  }
  const tooLarge = tooLargeMessage(file, DGP_MAX_BYTES, 'a policy file');
  if (tooLarge) {
    fileError.value = tooLarge;
    return;
  }
  if (!config && file.name.endsWith('.safetensors')) {
    fileError.value = `${file.name} holds only the weights: choose it together with its config.json (the policy's card).`;
    return;
  }
  loading.value = true;
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const loaded = config
      ? await playerClient().loadSafetensorsPolicy(transfer(bytes, [bytes.buffer]), await config.text())
      : await playerClient().loadPolicy(transfer(bytes, [bytes.buffer]));
    header.value = loaded;
    fileName.value = config ? `${file.name} + ${config.name}` : file.name;
    sourceRun.value = null;
    forgetRunInHash();
    freshPolicy();
    await ensureEnvs();
    split.value = defaultSplit(envs.value.find((e) => e.name === loaded.env));
    taskIndex.value = 0;
  } catch (e) {
    fileError.value = `${file.name}: ${errorMessage(e)}`;
  } finally {
    loading.value = false;
  }
}

/** The stored runs with a policy, for the view's list (read once). */
export async function ensureStoredRuns(): Promise<void> {
  try {
    await ensureRuns();
  } catch (e) {
    fileError.value = errorMessage(e);
  }
}

/**
 * Open the policy kept with stored run `id` (the Runs view's Evaluate, the list here, or a reload
 * of `#evaluate?run=<id>`); on any problem say so and keep what was loaded.
 */
export async function openStoredRun(id: string): Promise<void> {
  if (loading.value || sourceRun.value?.id === id) return;
  const busyNow = busyLoading();
  if (busyNow) {
    fileError.value = busyNow;
    return;
  }
  loading.value = true;
  try {
    const { run, bytes } = await storedPolicy(id);
    const loaded = await playerClient().loadPolicy(transfer(bytes, [bytes.buffer]));
    header.value = loaded;
    fileName.value = run.label;
    sourceRun.value = run;
    const hash = evaluateRunHash(id);
    if (window.location.hash !== hash) window.history.replaceState(window.history.state, '', hash);
    hashSeen = hash;
    freshPolicy();
    await ensureEnvs();
    split.value = defaultSplit(envs.value.find((e) => e.name === loaded.env));
    taskIndex.value = 0;
  } catch (e) {
    fileError.value = `The stored run's policy could not be opened: ${errorMessage(e)}`;
  } finally {
    loading.value = false;
  }
}

/** Open the run the hash names (`#evaluate?run=<id>`), once per hash. */
export function openFromHash(hash: string): void {
  const id = runIdFromHash(hash);
  if (id === null || hash === hashSeen) return;
  hashSeen = hash;
  void openStoredRun(id);
}

/**
 * Play the loaded policy greedily on `heldOutEpisodes` tasks of its environment's held-out split,
 * in the real environment (in the trainer worker, training's own evaluation), with progress and
 * time left; Stop keeps the episodes played so far.
 */
export async function evaluateHeldOutTasks(): Promise<void> {
  if (!header.value || heldOutRunning.value || heldOutProblem.value) return;
  const episodes = heldOutEpisodes.value;
  const weights = header.value.weightsSha256;
  heldOutError.value = null;
  heldOutProgress.value = { done: 0, total: episodes, startedAt: Date.now() };
  clock.value = Date.now();
  const ticker = setInterval(() => (clock.value = Date.now()), 1000);
  try {
    const outcome = await playerClient().evaluate(episodes, proxy((done: number, total: number) => {
      if (heldOutProgress.value) heldOutProgress.value = { ...heldOutProgress.value, done, total };
    }), weights);
    heldOutResults.value = [...heldOutResults.value, outcome];
  } catch (e) {
    heldOutError.value = errorMessage(e);
  } finally {
    clearInterval(ticker);
    heldOutProgress.value = null;
  }
}

export async function stopHeldOut(): Promise<void> {
  try {
    await playerClient().stopEvaluation();
  } catch (e) {
    heldOutError.value = errorMessage(e);
  }
}

/** The loaded policy as files others can read: `model.safetensors` and `config.json`, two downloads. */
export async function exportSafetensors(): Promise<void> {
  try {
    const { weights, config } = await playerClient().exportLoadedSafetensors();
    downloadBlob(new Blob([weights as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }), 'model.safetensors');
    downloadBlob(new Blob([config], { type: 'application/json' }), 'config.json');
  } catch (e) {
    fileError.value = `Export: ${errorMessage(e)}`;
  }
}

/**
 * The episode so far as the trace report `rollout --trace` writes (one HTML file, its pictures
 * inside it), downloaded.
 */
export function downloadReport(): void {
  const ep = episode.value;
  const h = header.value;
  if (!ep || !h || steps.value.length === 0) return;
  const html = traceReportHtml(evaluateTraceReport({ env: h.env, policy: fileName.value ?? 'policy', episode: ep, steps: steps.value }));
  downloadBlob(new Blob([html], { type: 'text/html' }), traceFileName(ep.task.id));
}

async function guarded(work: () => Promise<void>): Promise<void> {
  busy.value = true;
  episodeError.value = null;
  try {
    await work();
  } catch (e) {
    episodeError.value = errorMessage(e);
    running.value = false;
  } finally {
    busy.value = false;
  }
}

export async function startEpisode(): Promise<void> {
  if (!header.value || busy.value) return;
  // The view shows the problem beside the field and keeps Start disabled; a submit by Enter stops here.
  if (taskProblem.value) return;
  await guarded(async () => {
    episode.value = await playerClient().startEpisode(split.value, taskIndex.value);
    steps.value = [];
  });
}

export async function stepOnce(): Promise<void> {
  if (!episode.value || isDone.value || busy.value) return;
  await guarded(async () => {
    const step = await playerClient().stepPolicy();
    steps.value = [...steps.value, step];
  });
}

/** Let the policy play until the episode ends (the env's step limit ends every episode) or Stop. */
export async function runToEnd(): Promise<void> {
  if (!episode.value || isDone.value || running.value) return;
  running.value = true;
  while (running.value && episode.value && !isDone.value) {
    await stepOnce();
    // Yield so the page paints each step.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  running.value = false;
}
