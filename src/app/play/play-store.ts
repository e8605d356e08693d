/**
 * State of the Play view as signals, and the commands that change it. Every command goes to the
 * environment worker; errors are shown to the person, never swallowed.
 */
import { computed, signal } from '@preact/signals';
import { errorMessage } from '../../core/errors.ts';
import type { EpisodeStart, PlayedStep } from '../../services/env-session.ts';
import { defaultSplit, envClient, envs, loadEnvs, onEnvCrash } from '../env-client.ts';

export interface LogEntry extends PlayedStep {
  actor: 'you' | 'oracle';
}

export const selectedEnv = signal('shop');
export const selectedSplit = signal('test');
export const taskIndex = signal(0);
export const episode = signal<EpisodeStart | null>(null);
export const log = signal<LogEntry[]>([]);
export const busy = signal(false);
export const error = signal<string | null>(null);
export const autoplay = signal(false);

export const currentEnv = computed(() => envs.value.find((e) => e.name === selectedEnv.value));
export const splitSize = computed(() => currentEnv.value?.splits.find((s) => s.name === selectedSplit.value)?.size ?? 0);
export const lastResult = computed(() => log.value.at(-1)?.result ?? null);
export const observation = computed(() => {
  const last = log.value.at(-1);
  if (last) return last.result.observation;
  return episode.value?.observation ?? null;
});
export const isDone = computed(() => lastResult.value?.done ?? false);
export const totalReward = computed(() => log.value.reduce((sum, e) => sum + e.result.reward, 0));

async function guarded<T>(work: () => Promise<T>): Promise<T | undefined> {
  busy.value = true;
  error.value = null;
  try {
    return await work();
  } catch (e) {
    error.value = errorMessage(e);
    autoplay.value = false;
    return undefined;
  } finally {
    busy.value = false;
  }
}

onEnvCrash((message) => {
  error.value = message;
  autoplay.value = false;
  busy.value = false;
});

/** The env cards need the env list; the worker is asked once per page, not on every visit. */
export async function ensureEnvs(): Promise<void> {
  if (envs.value.length === 0) await guarded(loadEnvs);
}

export function chooseEnv(name: string): void {
  const env = envs.value.find((e) => e.name === name);
  selectedEnv.value = name;
  selectedSplit.value = defaultSplit(env);
  taskIndex.value = 0;
}

export async function startEpisode(): Promise<void> {
  autoplay.value = false;
  await guarded(async () => {
    episode.value = await envClient().start(selectedEnv.value, selectedSplit.value, taskIndex.value);
    log.value = [];
  });
}

export async function act(action: string): Promise<void> {
  if (!episode.value || isDone.value) return;
  await guarded(async () => {
    const played = await envClient().step(action);
    log.value = [...log.value, { actor: 'you', ...played }];
  });
}

export async function oracleStep(): Promise<void> {
  if (!episode.value || isDone.value) return;
  await guarded(async () => {
    const played = await envClient().oracleStep();
    log.value = [...log.value, { actor: 'oracle', ...played }];
  });
}

/** Restart the task and let the oracle play it, one step every `delayMs`, until done or paused. */
export async function watchOracle(delayMs = 700): Promise<void> {
  await startEpisode();
  autoplay.value = true;
  while (autoplay.value && episode.value && !isDone.value) {
    await new Promise((r) => setTimeout(r, delayMs));
    if (!autoplay.value) break;
    await oracleStep();
  }
  autoplay.value = false;
}
