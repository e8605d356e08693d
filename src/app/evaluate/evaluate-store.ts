/**
 * State of the Evaluate view: a `.dgp` policy file loaded into the trainer worker, and an episode
 * the policy plays greedily, one step at a time or to the end. A bad file is refused by the worker
 * with a message that says what is wrong; the page shows it and keeps what it had.
 */
import { computed, signal } from '@preact/signals';
import { transfer } from 'comlink';
import { errorMessage } from '../../core/errors.ts';
import { DGP_MAX_BYTES, type PolicyFileHeader } from '../../policy/dgp.ts';
import { traceReportHtml } from '../../jobs/trace-report.ts';
import { downloadBlob } from '../download.ts';
import { tooLargeMessage } from '../file-size.ts';
import type { EpisodeStart } from '../../services/env-session.ts';
import type { PolicyStep } from '../../services/policy-player.ts';
import { defaultSplit, envs, loadEnvs } from '../env-client.ts';
import { onTrainerCrash, playerClient } from '../trainer-client.ts';
import { evaluateTraceReport, traceFileName } from './evaluate-trace.ts';

export const header = signal<PolicyFileHeader | null>(null);
export const fileName = signal<string | null>(null);
/** Why the last file could not be loaded (shown in an alert); null after a good load. */
export const fileError = signal<string | null>(null);
export const loading = signal(false);

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

onTrainerCrash((message) => {
  episodeError.value = message;
  busy.value = false;
  loading.value = false;
  running.value = false;
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

/** Load a `.dgp` file (or safetensors weights with their config) into the worker; on any problem show the worker's message and change nothing else. */
export async function loadPolicyFile(file: File, config?: File): Promise<void> {
  if (loading.value) return;
  if (running.value) {
    fileError.value = 'Stop the running episode before loading another policy.';
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
    fileError.value = null;
    episode.value = null;
    steps.value = [];
    episodeError.value = null;
    await ensureEnvs();
    split.value = defaultSplit(envs.value.find((e) => e.name === loaded.env));
    taskIndex.value = 0;
  } catch (e) {
    fileError.value = `${file.name}: ${errorMessage(e)}`;
  } finally {
    loading.value = false;
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
