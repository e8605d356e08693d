/**
 * `seedBuffer`: the one entry point that plays scripted episodes into a replay store as one run,
 * for the CLI's `buffer seed` (a store file) and the Buffer view's replay worker (IndexedDB). The
 * caller checks its flags or form with the job's spec (seed-spec.ts) and brings the store.
 *
 * Episodes are written a batch at a time (one transaction per episode is the slow part of seeding
 * into IndexedDB): each batch's transitions first, then its tasks and outcomes, so statistics never
 * count an episode whose transitions are missing. A failure, a full store included, loses only the
 * batch in flight. The run record is written first, so even a partial run shows and can be deleted;
 * it is rewritten at the end with what was saved.
 */
import { breather } from '../core/event-loop.ts';
import type { Transition } from '../core/types.ts';
import type { EnvSpec } from '../envs/spec.ts';
import { EnvFailureTally, parseMix, recordSeededEpisodes, seedEpisodes, type EnvFailures, type SeededEpisode } from '../replay/seed.ts';
import type { ReplayStore, RunRecord } from '../replay/store.ts';
import type { SeedSpec } from './seed-spec.ts';

/** A batch is written when it holds this many episodes or transitions. */
const BATCH_EPISODES = 16;
const BATCH_TRANSITIONS = 2000;

export interface SeedBufferProgress {
  runId: string;
  /** Episodes committed to the store so far (played ones wait for their batch). */
  episodes: number;
  total: number;
  transitions: number;
}

/**
 * `envErrors`: episodes the environment ended (a page that stopped answering), not written: their
 * last step's next state is the failure, not what the agent's action did, and a model fitted on it
 * would learn that actions end episodes unpaid; `firstEnvError` says where; `retried`: plays a
 * failing page ended that were played again.
 */
export interface SeedBufferResult extends SeedBufferProgress, EnvFailures {
  /** Stopped by the signal: the counts are what was committed. */
  stopped: boolean;
  /** Per seeding agent: committed episodes, transitions, and the share it won. */
  byAgent: Record<string, { episodes: number; transitions: number; successRate: number }>;
}

export interface SeedBufferOptions {
  store: ReplayStore;
  /** How a batch's transitions reach the store (default `store.add`; the app writes through its vector index). */
  write?: (transitions: readonly Transition[]) => Promise<unknown>;
  /** Default `seed-<env>-<seed>`: a caller that seeds the same store twice makes each run's id unique. */
  runId?: string;
  /** Every transition's and the run's time (default: now). */
  createdAt?: number;
  /** After every committed batch; the next batch waits for what it returns (the CLI saves its file then). */
  onProgress?: (progress: SeedBufferProgress) => unknown;
  /** Stops after the current episode's batch is written; what was committed stays. */
  signal?: AbortSignal;
}

/** The run id seeding gives by default; unique per env and seed. */
export const seedRunId = (env: string, seed: number): string => `seed-${env}-${seed}`;

export async function seedBuffer(spec: EnvSpec, settings: SeedSpec, options: SeedBufferOptions): Promise<SeedBufferResult> {
  const { store, signal } = options;
  const { episodes: total, seed } = settings;
  const mix = parseMix(settings.mix);
  const createdAt = options.createdAt ?? Date.now();
  const runId = options.runId ?? seedRunId(spec.name, seed);
  const write = options.write ?? ((transitions: readonly Transition[]) => store.add(transitions));
  const run: RunRecord = { id: runId, env: spec.name, kind: `seed:${settings.mix}`, createdAt, meta: { seed, episodes: total, mix, ...(settings.perTask !== undefined ? { perTask: settings.perTask } : {}) } };
  await store.putRun(run);
  const progress: SeedBufferProgress = { runId, episodes: 0, total, transitions: 0 };
  const tally: Record<string, { episodes: number; transitions: number; wins: number }> = {};
  let pending: SeededEpisode[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    const transitions = batch.flatMap((e) => e.transitions);
    await write(transitions);
    await recordSeededEpisodes(store, batch);
    progress.episodes += batch.length;
    progress.transitions += transitions.length;
    for (const episode of batch) {
      const agent = (tally[episode.agent] ??= { episodes: 0, transitions: 0, wins: 0 });
      agent.episodes++;
      agent.transitions += episode.transitions.length;
      agent.wins += episode.won ? 1 : 0;
    }
    await options.onProgress?.({ ...progress });
  };
  // Seeding an env in memory never waits on I/O: a turn of the event loop now and then lets the
  // signal (Ctrl-C in the CLI, Stop in the app's worker) arrive before the last episode.
  const breathe = breather();
  const failures = new EnvFailureTally();
  try {
    let size = 0;
    for await (const episode of seedEpisodes({ spec, episodes: total, mix, seed, runId, createdAt, ...(settings.split !== undefined ? { split: settings.split } : {}), ...(settings.perTask !== undefined ? { perTask: settings.perTask } : {}) })) {
      if (failures.count(episode)) {
        await breathe();
        if (signal?.aborted) break;
        continue;
      }
      pending.push(episode);
      size += episode.transitions.length;
      if (pending.length >= BATCH_EPISODES || size >= BATCH_TRANSITIONS) {
        size = 0;
        await flush();
      }
      await breathe();
      if (signal?.aborted) break;
    }
    await flush();
  } finally {
    // What was saved, even after a failure; a store that cannot take even this keeps the first record.
    await store.putRun({ ...run, meta: { ...run.meta, episodesSaved: progress.episodes, transitions: progress.transitions } }).catch(() => undefined);
  }
  const byAgent = Object.fromEntries(
    Object.entries(tally).map(([agent, t]) => [agent, { episodes: t.episodes, transitions: t.transitions, successRate: t.wins / t.episodes }]),
  );
  const failed = failures.summary();
  return { ...progress, stopped: progress.episodes + failed.envErrors < total, byAgent, ...failed };
}
