/**
 * What the Experience view's stores share: the messages, the chosen env and task, the experience
 * model in use and the fidelity meter, and the command runner. The model choice and the episode
 * (experience-store.ts), WebLLM (webllm-store.ts) and the neural model (neural-store.ts) each keep
 * the rest of their own state.
 */
import { signal } from '@preact/signals';
import type { ExperienceStats } from '../../experience/types.ts';
import type { ExperienceInfo, ExperienceModelSummary, ExperienceViewChoice, FidelityMeter } from '../../services/experience-protocol.ts';
import { commandRunner } from '../command.ts';
import { experienceClient } from '../experience-client.ts';

/** A kind of the experience-model registry (jobs/experience-models/). */
export type ExperienceKind = string;

/** The worker's default until it says more: the neural model, which is kNN until one is fitted. */
const DEFAULT_EXPERIENCE: ExperienceInfo = { kind: 'neural', name: 'knn', predictsOnPage: false };

/** The last failure, shown in an alert until the next command starts. */
export const error = signal<string | null>(null);
/** What happened that is not a failure (a load or a step stopped by the person). */
export const note = signal<string | null>(null);

/** A workshop room, as its link names it (room-link.ts). */
export interface RoomLink {
  endpoint: string;
  model: string;
  apiKey?: string;
}

/** The room this tab joined from its link; its requests carry `participant`, so the host counts this tab apart. */
export const joinedRoom = signal<(RoomLink & { participant: string }) | null>(null);

/** The experience model the picker shows, and the one the steps use. */
export const experienceKind = signal<ExperienceKind>('neural');
export const active = signal<ExperienceInfo>(DEFAULT_EXPERIENCE);
/** The worker has said what answers (until then the picker says it is checking, not `knn`). */
export const activeKnown = signal(false);
/** The models the picker offers, as the experience worker derives them from the registry (empty until it answers). */
export const experienceModels = signal<ExperienceModelSummary[]>([]);

export const selectedEnv = signal('shop');
export const selectedSplit = signal('test');
export const taskIndex = signal(0);
export const meter = signal<FidelityMeter | null>(null);
export const modelStats = signal<ExperienceStats | null>(null);
/** A command is running (start, step, a change of model). */
export const busy = signal(false);

/** Run a command; its failure becomes the view's error. Returns false when it failed. */
export const command = commandRunner(error);

/** Make `choice` the experience model the worker steps with; the meter starts over. */
export async function useExperience(choice: ExperienceViewChoice): Promise<void> {
  const client = experienceClient();
  await client.chooseExperience(choice);
  active.value = await client.experienceInfo(selectedEnv.value);
  activeKnown.value = true;
  meter.value = await client.meter();
  modelStats.value = null;
}
