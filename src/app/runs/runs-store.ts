/**
 * State of the Runs view as signals, and its commands: the stored runs (IndexedDB, see
 * `run-library.ts`), which of them are compared, importing files and deleting runs, and each kept
 * policy's download. The Train view and the guided run hand every finished run, with its policy,
 * to `keepFinishedRun`; the Evaluate view opens a kept policy (`storedPolicy`, `evaluateRunHash`).
 */
import { historyCsv, historyJsonl } from '../../train/metrics-export.ts';
import type { IterationMetrics } from '../../train/metrics.ts';
import { computed, signal } from '@preact/signals';
import { errorMessage } from '../../core/errors.ts';
import { downloadBlob } from '../download.ts';
import { tooLargeMessage } from '../file-size.ts';
import type { TrainRequest } from '../../services/trainer-service.ts';
import type { TrainResult } from '../../train/trainer.ts';
import { MAX_RUN_FILE_BYTES, parseRunFile, validateRunData } from './run-file.ts';
import { RunLibrary, type NewRun, type StoredRun } from './run-library.ts';
import { trimOf } from '../../core/text.ts';

/** Every stored run, oldest first; null until read. */
export const runs = signal<StoredRun[] | null>(null);
/** Ids of the runs being compared. */
export const selected = signal<ReadonlySet<string>>(new Set());
export const importing = signal(false);
/** What the last import did (good files), and why files were refused (one line each). */
export const importNote = signal<string | null>(null);
export const importProblems = signal<string[]>([]);
export const error = signal<string | null>(null);

export const selectedRuns = computed(() => (runs.value ?? []).filter((r) => selected.value.has(r.id)));

/** Runs compared when the view first opens: the newest few. */
const INITIALLY_SELECTED = 3;

let library: Promise<RunLibrary> | null = null;
function openLibrary(): Promise<RunLibrary> {
  library ??= RunLibrary.open().catch((e: unknown) => {
    library = null;
    throw new Error(`This browser's storage for runs could not be opened (${errorMessage(e)}); runs are not kept.`);
  });
  return library;
}

/** Re-read the stored runs, keeping the selection to runs that still exist and adding `select`. */
async function reload(select: readonly string[] = []): Promise<void> {
  const first = runs.value === null;
  const all = await (await openLibrary()).list();
  const ids = new Set(all.map((r) => r.id));
  const next = new Set([...selected.value].filter((id) => ids.has(id)));
  if (first && next.size === 0) for (const r of all.slice(-INITIALLY_SELECTED)) next.add(r.id);
  for (const id of select) if (ids.has(id)) next.add(id);
  runs.value = all;
  selected.value = next;
}

/** Read the stored runs (the view calls this when it opens). */
export async function loadRuns(): Promise<void> {
  try {
    await reload();
  } catch (e) {
    error.value = errorMessage(e);
  }
}

export function setSelected(id: string, on: boolean): void {
  const next = new Set(selected.value);
  if (on) next.add(id);
  else next.delete(id);
  selected.value = next;
}

export function selectAll(on: boolean): void {
  selected.value = on ? new Set((runs.value ?? []).map((r) => r.id)) : new Set();
}

/** How a run finished in the Train view is named: what it was, by its settings. */
export function finishedRunLabel(result: TrainResult, request: TrainRequest | null): string {
  const curriculum = request?.curriculum ? ` + curriculum λ ${request.curriculum.lambda}` : result.curriculum ? ` + curriculum λ ${result.curriculum.lambda}` : '';
  return `${result.env} ${result.algo.toUpperCase()} ${result.mode}${curriculum} seed ${result.seed}${result.stopped ? ' (stopped)' : ''}`;
}

/**
 * Keep a run the Train view or the guided run finished (or stopped), with its trained policy (the
 * `.dgp` bytes `trainerClient().exportPolicy()` gives), so Runs can compare it after a reload and
 * Evaluate can open its policy. Resolves with the stored run (its label made distinct from every
 * other run's), or null when the same run was kept already. Throws when it cannot be stored; the
 * caller says so in its own view.
 */
export async function keepFinishedRun(result: TrainResult, request: TrainRequest | null, policy?: Uint8Array | null): Promise<StoredRun | null> {
  const checked = validateRunData(result);
  if (!checked.ok) throw new Error(`the run could not be kept for the Runs view: ${checked.problem}`);
  const { added } = await (await openLibrary()).add([{ label: finishedRunLabel(result, request), source: 'app', fileName: null, run: checked.run, policy: policy ?? null }]);
  // Shown (and compared) at once if the Runs view has read the list; otherwise it is read on opening.
  if (runs.value !== null) await reload(added.map((r) => r.id));
  return added[0] ?? null;
}

/** Where the Evaluate view opens run `id`'s policy: `#evaluate?run=<id>`. */
export function evaluateRunHash(id: string): string {
  return `#evaluate?run=${encodeURIComponent(id)}`;
}

/** The run a hash such as `#evaluate?run=<id>` names, or null. */
export function runIdFromHash(hash: string): string | null {
  const query = hash.split('?')[1];
  if (query === undefined) return null;
  const id = new URLSearchParams(query).get('run');
  return id === null || id === '' ? null : id;
}

/** A stored run and its policy's bytes; throws, saying so, when the run or its policy is gone. */
export async function storedPolicy(id: string): Promise<{ run: StoredRun; bytes: Uint8Array }> {
  const lib = await openLibrary();
  const run = await lib.get(id);
  if (!run) throw new Error('that run is no longer kept in this browser (deleted, or kept in another browser); pick another in the list');
  const bytes = await lib.policy(id);
  if (!bytes) throw new Error(`the run “${run.label}” has no policy kept with it (runs imported from files, and runs kept before policies were, have none)`);
  return { run, bytes };
}

/** The stored runs (read once if the Runs view has not yet), for the Evaluate view's list of kept policies. */
export async function ensureRuns(): Promise<void> {
  if (runs.value === null) await loadRuns();
}

const many = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/**
 * Import files of runs: each file is read and checked whole; a bad one is refused with its reason
 * and stores nothing, the good ones are stored and compared at once.
 */
export async function importFiles(files: readonly File[]): Promise<void> {
  if (importing.value || files.length === 0) return;
  importing.value = true;
  importNote.value = null;
  importProblems.value = [];
  error.value = null;
  const problems: string[] = [];
  const notes: string[] = [];
  try {
    const lib = await openLibrary();
    const select: string[] = [];
    for (const file of files) {
      const tooLarge = tooLargeMessage(file, MAX_RUN_FILE_BYTES, 'a run file');
      if (tooLarge) {
        problems.push(tooLarge);
        continue;
      }
      const parsed = parseRunFile(file.name, await file.text());
      if (!parsed.ok) {
        problems.push(parsed.problem);
        continue;
      }
      const fresh: NewRun[] = parsed.runs.map((r) => ({ label: r.label, source: 'file', fileName: file.name, run: r.run }));
      const { added, duplicates } = await lib.add(fresh);
      select.push(...added.map((r) => r.id));
      const what = parsed.kind === 'paper-report' ? 'paper experiment report' : 'training run';
      notes.push(`${file.name} (${what}): ${many(added.length, 'run')} added${duplicates > 0 ? `, ${many(duplicates, 'run')} already listed` : ''}.`);
    }
    await reload(select);
  } catch (e) {
    error.value = errorMessage(e);
  } finally {
    importNote.value = notes.length > 0 ? notes.join(' ') : null;
    importProblems.value = problems;
    importing.value = false;
  }
}

export async function deleteRun(id: string): Promise<void> {
  try {
    await (await openLibrary()).delete(id);
    await reload();
  } catch (e) {
    error.value = errorMessage(e);
  }
}

/** A file name from a run's label: letters, digits, dots and dashes only. */
export function runFileName(run: StoredRun, extension: 'json' | 'csv' | 'jsonl' | 'dgp' = 'json'): string {
  const base = trimOf(run.label.toLowerCase().replace(/[^a-z0-9.]+/g, '-'), '-').slice(0, 80);
  return `${base || 'run'}.${extension}`;
}

/**
 * Save a stored run: `json` as the CLI writes one (`train … --history`), importable here again;
 * `csv` and `jsonl` its curve, one iteration per row, as `--history FILE.csv|FILE.jsonl` writes it.
 */
export function downloadRun(run: StoredRun, format: 'json' | 'csv' | 'jsonl' = 'json'): void {
  const history = run.run.history as unknown as IterationMetrics[];
  const [text, type] =
    format === 'csv' ? [historyCsv(history), 'text/csv']
      : format === 'jsonl' ? [historyJsonl(history), 'application/jsonl']
        : [`${JSON.stringify(run.run, null, 1)}\n`, 'application/json'];
  downloadBlob(new Blob([text], { type }), runFileName(run, format));
}

/** Save the policy kept with a run as the `.dgp` file the Train view's Export writes. */
export async function downloadPolicy(run: StoredRun): Promise<void> {
  try {
    const { bytes } = await storedPolicy(run.id);
    downloadBlob(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }), runFileName(run, 'dgp'));
  } catch (e) {
    error.value = errorMessage(e);
  }
}
