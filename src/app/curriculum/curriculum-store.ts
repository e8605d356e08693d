/**
 * State of the Curriculum view: a snapshot of the live (or last) run's curriculum, read from the
 * trainer worker on demand (the Refresh button, and every few iterations while the view is open
 * during a run), and how the table is sorted and filtered. The run is the Train view's, else the
 * guided run's dream, which trains in the same worker.
 */
import { computed, signal } from '@preact/signals';
import { errorMessage } from '../../core/errors.ts';
import type { CurriculumSnapshot, CurriculumViewRow, TrainRequest } from '../../services/trainer-service.ts';
import { trainerClient } from '../trainer-client.ts';
import type { IterationMetrics } from '../../train/metrics.ts';
import { guideDreamRun } from '../guide/guide-store.ts';
import { history as trainHistory, isActive as trainActive, runRequest as trainRequest, runState } from '../train/train-store.ts';

/** The run the view shows: the Train view's, else the guided run's dream (null: neither has started in this page). */
export const shownRun = computed<{ request: TrainRequest; history: IterationMetrics[]; active: boolean; starting: boolean; guided: boolean } | null>(() => {
  const request = trainRequest.value;
  if (request) return { request, history: trainHistory.value, active: trainActive.value, starting: runState.value === 'starting', guided: false };
  const guided = guideDreamRun.value;
  return guided ? { ...guided, starting: guided.active && guided.history.length === 0, guided: true } : null;
});
const runRequest = computed(() => shownRun.value?.request ?? null);
const history = computed(() => shownRun.value?.history ?? []);
export const isActive = computed(() => shownRun.value?.active ?? false);
export const latest = computed(() => history.value.at(-1) ?? null);
export const iterations = computed(() => history.value.length);

export type SortKey = 'variance' | 'successRate' | 'attempts' | 'difficulty' | 'policyVersion';
export type SortDirection = 'ascending' | 'descending';

const taken = signal<{ request: TrainRequest; snapshot: CurriculumSnapshot | null } | null>(null);
/** The latest snapshot of the run the Train view shows (one of an earlier run is not shown). */
export const snapshot = computed(() => (taken.value && taken.value.request === runRequest.value ? taken.value.snapshot : null));
export const loading = signal(false);
export const error = signal<string | null>(null);
export const sortKey = signal<SortKey>('variance');
export const sortDirection = signal<SortDirection>('descending');
export const generatedOnly = signal(false);
/** Rows shown (the pool has thousands of tasks; "Show more" adds a page). */
export const shown = signal(100);
export const PAGE = 100;

/** While a run is live and the view is open, the table follows every this many iterations. */
export const AUTO_REFRESH_EVERY = 3;

/** Why there is nothing to show, or null when there is (or may be) a curriculum. */
export const emptyReason = computed<'no-run' | 'no-curriculum' | null>(() => {
  const request = runRequest.value;
  if (!request) return 'no-run';
  return request.curriculum ? null : 'no-curriculum';
});

function compare(key: SortKey, direction: SortDirection): (a: CurriculumViewRow, b: CurriculumViewRow) => number {
  const sign = direction === 'ascending' ? 1 : -1;
  return (a, b) => {
    const x = a[key];
    const y = b[key];
    // Tasks without a value (never attempted, no variance yet) go last either way.
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    return sign * (x - y) || b.attempts - a.attempts || a.id.localeCompare(b.id);
  };
}

/** The rows the table shows, in order: filtered, sorted (all of them; the view cuts at `shown`). */
export const visibleRows = computed(() => {
  const rows = snapshot.value?.rows ?? [];
  const kept = generatedOnly.value ? rows.filter((r) => r.origin === 'generated') : rows;
  return [...kept].sort(compare(sortKey.value, sortDirection.value));
});

/** Click on a column: sort by it (most first), or flip the direction if it already sorts. */
export function sortBy(key: SortKey): void {
  if (sortKey.value === key) sortDirection.value = sortDirection.value === 'descending' ? 'ascending' : 'descending';
  else {
    sortKey.value = key;
    sortDirection.value = key === 'difficulty' ? 'ascending' : 'descending';
  }
}

/** An automatic refresh asked for while one was on its way: look again when it lands. */
let again = false;

/**
 * Read the curriculum from the trainer worker. Without a run in this page there is nothing to ask;
 * before the run's first iteration the worker may still hold the previous run's trainer.
 */
export async function refreshCurriculum(): Promise<void> {
  const request = runRequest.value;
  if (loading.value || !request || history.value.length === 0) return;
  loading.value = true;
  let ok = false;
  try {
    taken.value = { request, snapshot: await trainerClient().curriculumSnapshot() };
    error.value = null;
    ok = true;
  } catch (e) {
    error.value = errorMessage(e);
  } finally {
    loading.value = false;
  }
  if (ok && again) {
    again = false;
    autoRefresh();
  }
}

/**
 * Called by the open view whenever an iteration lands or the run's state changes: refresh once
 * `AUTO_REFRESH_EVERY` iterations passed since the snapshot (or the snapshot is of an older run),
 * and once more when the run ends so the table shows its final state.
 */
export function autoRefresh(): void {
  if (emptyReason.value !== null) return;
  if (loading.value) {
    again = true;
    return;
  }
  const iterations = history.value.length;
  if (iterations === 0 || shownRun.value?.starting) return;
  const current = snapshot.value;
  if (!current || iterations - current.iterations >= (isActive.value ? AUTO_REFRESH_EVERY : 1)) void refreshCurriculum();
}
