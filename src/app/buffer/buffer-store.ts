/**
 * State of the Buffer view as signals, and the commands that drive the replay worker. The store
 * lives in the worker (IndexedDB); the page keeps what it shows — counts, a page of transitions or
 * search results, the progress of a seed, import or export — and shows every error as it came.
 */
import { computed, signal } from '@preact/signals';
import { proxy } from 'comlink';
import { errorMessage } from '../../core/errors.ts';
import { requestPersistence } from '../../replay/idb-store.ts';
import type { TransitionFilter, TransitionSource } from '../../replay/store.ts';
import type {
  BrowsePage, BufferSummary, ExportProgress, ImportProgress, ImportResult, SearchPage, SeedProgress, SeedRequest,
} from '../../services/replay-service.ts';
import { onReplayCrash, replayClient } from '../replay-client.ts';
import { downloadBlob } from '../download.ts';
import { commandRunner } from '../command.ts';
import { savedStoreLimits, saveStoreLimits } from './store-limits.ts';

export const PAGE_SIZE = 20;
export const SEARCH_LIMIT = 50;
export const DEFAULT_MIX = 'oracle=0.6,random=0.4';

export type JobState = 'idle' | 'running' | 'stopping' | 'done' | 'stopped' | 'error';

export const summary = signal<BufferSummary | null>(null);
/** The last failure of any command, shown in an alert until the next command succeeds. */
export const error = signal<string | null>(null);
export const persistNote = signal<string | null>(null);

// Seeding.
export const seedEnv = signal('shop');
export const seedEpisodes = signal(100);
export const seedMix = signal(DEFAULT_MIX);
export const seedSeed = signal(1);
export const seedState = signal<JobState>('idle');
export const seedProgress = signal<SeedProgress | null>(null);

// Import and export.
export const importState = signal<JobState>('idle');
export const importFileName = signal<string | null>(null);
export const importProgress = signal<ImportProgress | null>(null);
export const importResult = signal<ImportResult | null>(null);
/** Non-null while an export is being built. */
export const exportProgress = signal<ExportProgress | null>(null);

// Browsing and search, both narrowed by the filter.
export const filterEnv = signal('');
export const filterSource = signal<TransitionSource | ''>('');
export const page = signal<BrowsePage | null>(null);
/** Where each earlier page started (`undefined`: at the beginning), so Previous can go back. */
const earlier = signal<(number | undefined)[]>([]);
let shownAfter: number | undefined;
export const query = signal('');
export const searchResult = signal<(SearchPage & { query: string }) | null>(null);
export const searching = signal(false);

const active = (state: JobState) => state === 'running' || state === 'stopping';
/** One write job at a time: the worker refuses a second, so the page does not offer it. */
export const jobRunning = computed(() => active(seedState.value) || active(importState.value));
export const pageIndex = computed(() => earlier.value.length);

export const filter = computed<TransitionFilter>(() => ({
  ...(filterEnv.value ? { env: filterEnv.value } : {}),
  ...(filterSource.value ? { source: filterSource.value } : {}),
}));

/** How many stored transitions the filter selects, from the counts table (no extra query). */
export const filteredCount = computed(() => {
  const rows = summary.value?.counts.filter((r) => !filterEnv.value || r.env === filterEnv.value) ?? [];
  return rows.reduce((n, r) => n + (filterSource.value ? r[filterSource.value] : r.real + r.synthetic), 0);
});

export const exportFileName = computed(() => `replay-${filterEnv.value || 'all'}${filterSource.value ? `-${filterSource.value}` : ''}.jsonl`);

export const seedProblem = computed(() => {
  if (!Number.isInteger(seedEpisodes.value) || seedEpisodes.value < 1) return 'Episodes: a whole number, at least 1.';
  if (!Number.isInteger(seedSeed.value)) return 'The seed must be a whole number.';
  if (seedMix.value.trim() === '') return `The agent mix names the agents and their shares, like ${DEFAULT_MIX}.`;
  return null;
});

onReplayCrash((message) => {
  error.value = message;
  if (active(seedState.value)) seedState.value = 'error';
  if (active(importState.value)) importState.value = 'error';
  exportProgress.value = null;
  searching.value = false;
});

/** Run a command; its failure becomes the view's error (kept until the next seed, import or export starts). */
const command = commandRunner(error);

export async function refreshSummary(): Promise<void> {
  await command(async () => {
    summary.value = await replayClient().summary();
  });
}

/** After a write: the counts, the page shown and any search all change. */
async function refreshAll(): Promise<void> {
  await Promise.all([refreshSummary(), loadPage(shownAfter), searchResult.value ? runSearch(searchResult.value.query) : undefined]);
}

/** The view opened: load what it shows unless it already has it (switching tabs keeps state). */
/** The cap and real-eviction choice (kept across reloads by store-limits.ts). */
export const capText = signal('');
export const evictReal = signal(false);
export const limitsNote = signal<string | null>(null);

export async function applyLimits(): Promise<void> {
  const text = capText.value.trim();
  const cap = text === '' ? null : Number(text);
  if (cap !== null && (!Number.isInteger(cap) || cap < 1)) {
    limitsNote.value = `The cap must be a whole number of transitions (1 or more), or empty for none; got "${text}".`;
    return;
  }
  await command(async () => {
    await replayClient().setLimits({ cap, evictReal: evictReal.value });
    saveStoreLimits({ cap, evictReal: evictReal.value });
    limitsNote.value = cap === null ? 'No cap: the buffer grows until the browser\'s quota.' : `Cap set to ${cap.toLocaleString('en-US')} transitions.`;
    await refreshSummary();
  });
}

export async function openView(): Promise<void> {
  const limits = savedStoreLimits();
  capText.value = limits.cap === null ? '' : String(limits.cap);
  evictReal.value = limits.evictReal;
  await command(() => replayClient().setLimits(limits));
  await refreshSummary();
  if (!page.value) await loadPage(undefined);
}

/**
 * `navigator.storage.persist()` exists only on a page, not in workers, so the page asks; the
 * worker's next summary then reports the granted state.
 */
export async function keepPersistent(): Promise<void> {
  await command(async () => {
    const granted = await requestPersistence();
    persistNote.value = granted
      ? 'The browser will keep this data even when storage runs low.'
      : 'The browser declined for now (browsers grant it to sites you bookmark or use often); the data stays, but may be cleared when storage runs low.';
    await refreshSummary();
  });
}

export async function startSeeding(): Promise<void> {
  if (jobRunning.value || seedProblem.value) return;
  const request: SeedRequest = { env: seedEnv.value, episodes: seedEpisodes.value, mix: seedMix.value.trim(), seed: seedSeed.value };
  seedState.value = 'running';
  seedProgress.value = { runId: '', episodes: 0, total: request.episodes, transitions: 0 };
  error.value = null;
  let lastCounts = Date.now();
  const onProgress = (progress: SeedProgress) => {
    // Progress travels on its own channel and may land after the result: keep the final numbers.
    if (!active(seedState.value)) return;
    seedProgress.value = progress;
    // Counts every second or so while seeding, so the table grows with the run.
    if (Date.now() - lastCounts > 1000) {
      lastCounts = Date.now();
      void refreshSummary();
    }
  };
  try {
    const result = await replayClient().seed(request, proxy(onProgress));
    seedProgress.value = result;
    seedState.value = result.stopped ? 'stopped' : 'done';
  } catch (e) {
    error.value = errorMessage(e);
    seedState.value = 'error';
  }
  await refreshAll();
}

/** Stop the seed or import running; it ends after its current batch, keeping what it stored. */
export async function stopJob(): Promise<void> {
  if (seedState.value === 'running') seedState.value = 'stopping';
  if (importState.value === 'running') importState.value = 'stopping';
  await command(() => replayClient().stop());
}

export async function importFile(file: File): Promise<void> {
  if (jobRunning.value) return;
  importState.value = 'running';
  importFileName.value = file.name;
  importProgress.value = { bytesRead: 0, totalBytes: file.size, lines: 0, accepted: 0, rejected: 0, duplicates: 0 };
  importResult.value = null;
  error.value = null;
  try {
    // A File is cloned to the worker as a handle: the worker streams it, the page never reads it.
    let lastCounts = Date.now();
    const result = await replayClient().importJsonl(file, proxy((progress: ImportProgress) => {
      if (!active(importState.value)) return;
      importProgress.value = progress;
      // The counts grow with a long import, as with seeding, rather than jumping at its end.
      if (Date.now() - lastCounts > 1000) {
        lastCounts = Date.now();
        void refreshSummary();
      }
    }));
    importResult.value = result;
    importState.value = result.stopped ? 'stopped' : 'done';
  } catch (e) {
    error.value = `${file.name}: ${errorMessage(e)}`;
    importState.value = 'error';
  }
  await refreshAll();
}

/** Download what the filter selects as JSONL, built in the worker page by page. */
export async function exportFiltered(): Promise<void> {
  if (exportProgress.value) return;
  const name = exportFileName.value;
  exportProgress.value = { written: 0, total: filteredCount.value };
  error.value = null;
  await command(async () => {
    const blob = await replayClient().exportJsonl(filter.value, proxy((progress: ExportProgress) => {
      if (exportProgress.value) exportProgress.value = progress;
    }));
    downloadBlob(blob, name);
  });
  exportProgress.value = null;
}

async function loadPage(after: number | undefined): Promise<void> {
  await command(async () => {
    const next = await replayClient().browse({ filter: filter.value, limit: PAGE_SIZE, ...(after !== undefined ? { after } : {}) });
    page.value = next;
    shownAfter = after;
  });
}

export async function nextPage(): Promise<void> {
  const next = page.value?.next;
  if (next === null || next === undefined) return;
  const from = shownAfter;
  if (await movedTo(next)) earlier.value = [...earlier.value, from];
}

export async function previousPage(): Promise<void> {
  const stack = earlier.value;
  if (stack.length === 0) return;
  if (await movedTo(stack[stack.length - 1])) earlier.value = stack.slice(0, -1);
}

/** Load a page; false when it failed (the error shows and the page shown stays). */
async function movedTo(after: number | undefined): Promise<boolean> {
  const before = page.value;
  await loadPage(after);
  return page.value !== before;
}

/** A new filter: back to the first page, and the search (if any) asked again. */
export async function setFilter(next: { env?: string; source?: TransitionSource | '' }): Promise<void> {
  if (next.env !== undefined) filterEnv.value = next.env;
  if (next.source !== undefined) filterSource.value = next.source;
  earlier.value = [];
  await Promise.all([loadPage(undefined), searchResult.value ? runSearch(searchResult.value.query) : undefined]);
}

export async function runSearch(text: string = query.value): Promise<void> {
  const wanted = text.trim();
  if (wanted === '') {
    clearSearch();
    return;
  }
  searching.value = true;
  await command(async () => {
    const result = await replayClient().search(wanted, { filter: filter.value, limit: SEARCH_LIMIT });
    searchResult.value = { ...result, query: wanted };
  });
  searching.value = false;
}

export function clearSearch(): void {
  searchResult.value = null;
  query.value = '';
}

export async function deleteRun(runId: string): Promise<void> {
  if (jobRunning.value) return;
  if (await command(() => replayClient().deleteRun(runId).then(() => undefined))) {
    earlier.value = [];
    shownAfter = undefined;
    await refreshAll();
  }
}
