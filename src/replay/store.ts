/**
 * The replay buffer's contract. Two stores implement it: `IdbReplayStore` in the browser (IndexedDB
 * through `idb`) and `MemoryReplayStore` in Node (in memory, persisted as JSONL). Everything above —
 * seeding, retrieval, the Buffer view, the trainer — speaks only this interface.
 */
import { DreamGymError } from '../core/errors.ts';
import type { Task, Transition } from '../core/types.ts';

export type TransitionSource = Transition['source'];
export const TRANSITION_SOURCES: readonly TransitionSource[] = ['real', 'synthetic'];

/** A transition once stored: it has an id, and the vector retrieval compares. */
export interface StoredTransition extends Transition {
  id: number;
  /** L2-normalised embedding of (state, action); see embed.ts. Absent until embedded. */
  vector?: Float32Array;
  /** The embedding's version (embed.ts EMBEDDING_VERSION) that made `vector`: a vector of another version is computed again. */
  vectorVersion?: number;
}

/** What `add` takes: a transition, optionally with its embedding. */
export type NewTransition = Transition & Pick<StoredTransition, 'vector' | 'vectorVersion'>;

/** A transition without its embedding, which only retrieval reads (512 bytes a page or a file never needs). */
export function withoutVector<T extends Pick<StoredTransition, 'vector' | 'vectorVersion'>>(t: T): Omit<T, 'vector' | 'vectorVersion'> {
  const { vector: _vector, vectorVersion: _version, ...rest } = t;
  return rest;
}

/** Narrow a listing or a count; every field is optional and they combine with AND. */
export interface TransitionFilter {
  env?: string;
  source?: TransitionSource;
  runId?: string;
  taskId?: string;
}

/** A task as the buffer keeps it: everything but the real environment's goal, plus when it was stored. */
export type TaskRecord = Omit<Task, 'goal'> & { createdAt: number };

export function taskRecord(task: Task, createdAt: number): TaskRecord {
  const { goal: _goal, ...rest } = task;
  return { ...rest, createdAt };
}

export interface RunRecord {
  id: string;
  env: string;
  /** What made the run: `seed:oracle=0.6,random=0.4`, `train:ppo`, `import:file.jsonl`… */
  kind: string;
  createdAt: number;
  /** Free-form facts about the run (seed, config) for the Runs view. */
  meta?: Record<string, unknown>;
}

/** Per-task outcomes the curriculum reads: how often a task was attempted and won. */
export interface TaskStats {
  taskId: string;
  env: string;
  attempts: number;
  successes: number;
  /** Sum and sum of squares of episode returns, so mean and variance update incrementally. */
  returnSum: number;
  returnSquares: number;
  updatedAt: number;
  /** The newest policy versions that played the task (at most `KEPT_VERSIONS`), oldest first. */
  versions?: VersionStats[];
}

export interface EpisodeOutcome {
  taskId: string;
  env: string;
  won: boolean;
  return: number;
  /** The policy version (updates before collection) that played the episode, when a trainer knows it. */
  policyVersion?: number;
}

/** A task's outcomes under one policy version. */
export interface VersionStats {
  policyVersion: number;
  attempts: number;
  successes: number;
  returnSum: number;
  returnSquares: number;
}

/** Policy versions a task's statistics keep, the newest. */
export const KEPT_VERSIONS = 8;

/** A page of a cursor walk: `next` is null at the end. */
export interface TransitionPage {
  items: StoredTransition[];
  next: number | null;
}

export interface StorageEstimate {
  /** Bytes used and allowed, as the platform reports them (null where it cannot say). */
  usage: number | null;
  quota: number | null;
  /** Whether the browser granted persistent storage (null outside a browser). */
  persisted: boolean | null;
  /** The store's own cap on transitions, if any (eviction keeps it under). */
  cap: number | null;
}

export interface ReplayStore {
  /**
   * Add transitions in one all-or-nothing batch; returns their ids in order. The store assigns the
   * ids (an `id` passed in is ignored: an imported file's ids name nothing here); a `vector`, when
   * given, is stored with its transition so retrieval need not embed it again after a reload.
   */
  add(transitions: readonly NewTransition[]): Promise<number[]>;
  get(id: number): Promise<StoredTransition | undefined>;
  /** Several at once, in the order asked (undefined where none is stored): one transaction, not one each. */
  getMany(ids: readonly number[]): Promise<(StoredTransition | undefined)[]>;
  /** Walk the transitions in id order, `limit` at a time, starting after `after`. */
  page(options: { filter?: TransitionFilter; after?: number; limit: number }): Promise<TransitionPage>;
  count(filter?: TransitionFilter): Promise<number>;
  /** Delete a run's transitions (and the run record); returns how many transitions went. */
  deleteRun(runId: string): Promise<number>;

  putTasks(tasks: readonly TaskRecord[]): Promise<void>;
  getTask(id: string): Promise<TaskRecord | undefined>;
  putRun(run: RunRecord): Promise<void>;
  runs(): Promise<RunRecord[]>;

  /** Fold episode outcomes into the per-task statistics. */
  recordOutcomes(outcomes: readonly EpisodeOutcome[]): Promise<void>;
  taskStats(env?: string): Promise<TaskStats[]>;

  estimate(): Promise<StorageEstimate>;
  /** The cap on stored transitions (null: none) and whether real ones may be evicted to honour it. */
  setLimits(limits: StoreLimits): void;
  close(): Promise<void>;
}

export interface StoreLimits {
  cap: number | null;
  evictReal: boolean;
}

/** The store cannot take more: the platform's quota or the store's own cap. Nothing committed is lost. */
export class StoreFullError extends DreamGymError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('store-full', message, options);
  }
}

export function matchesFilter(t: Transition, filter: TransitionFilter | undefined): boolean {
  if (!filter) return true;
  return (
    (filter.env === undefined || t.env === filter.env) &&
    (filter.source === undefined || t.source === filter.source) &&
    (filter.runId === undefined || t.runId === filter.runId) &&
    (filter.taskId === undefined || t.taskId === filter.taskId)
  );
}

/** Fold one outcome into a task's statistics (a fresh record when there is none). */
export function foldOutcome(stats: TaskStats | undefined, outcome: EpisodeOutcome, now: number): TaskStats {
  const base = stats ?? { taskId: outcome.taskId, env: outcome.env, attempts: 0, successes: 0, returnSum: 0, returnSquares: 0, updatedAt: now };
  return {
    ...base,
    attempts: base.attempts + 1,
    successes: base.successes + (outcome.won ? 1 : 0),
    returnSum: base.returnSum + outcome.return,
    returnSquares: base.returnSquares + outcome.return * outcome.return,
    updatedAt: now,
    ...(outcome.policyVersion !== undefined || base.versions ? { versions: foldVersion(base.versions ?? [], outcome) } : {}),
  };
}

function foldVersion(versions: readonly VersionStats[], outcome: EpisodeOutcome): VersionStats[] {
  if (outcome.policyVersion === undefined) return [...versions];
  const v = outcome.policyVersion;
  const r = outcome.return;
  const current = versions.find((x) => x.policyVersion === v) ?? { policyVersion: v, attempts: 0, successes: 0, returnSum: 0, returnSquares: 0 };
  const next = { policyVersion: v, attempts: current.attempts + 1, successes: current.successes + (outcome.won ? 1 : 0), returnSum: current.returnSum + r, returnSquares: current.returnSquares + r * r };
  return [...versions.filter((x) => x.policyVersion !== v), next].sort((a, b) => a.policyVersion - b.policyVersion).slice(-KEPT_VERSIONS);
}

/** `V = E[r²] − E[r]²` of a task's outcomes under one policy version (the curriculum's variance). */
export function versionVariance(v: VersionStats): number {
  if (v.attempts === 0) return 0;
  const mean = v.returnSum / v.attempts;
  return Math.max(0, v.returnSquares / v.attempts - mean * mean);
}
