/**
 * What the replay worker offers the Buffer view: counts and storage, seeding from the scripted
 * agents, JSONL import and export, paging, text search and deleting a run. Plain class, no DOM, so
 * it runs in a worker (see workers/replay.worker.ts) or in-process with any `ReplayStore`.
 *
 * Writes go through a `ReplayBuffer`, so every stored transition carries its retrieval vector and
 * the trainer never has to embed it again. Each write is one store batch: a failure (a full store
 * included) loses only that batch, never what earlier batches committed.
 */
import { DreamGymError, UsageError } from '../core/errors.ts';
import type { Transition } from '../core/types.ts';
import { ENVIRONMENTS, envSpec } from '../envs/registry.ts';
import { IdbReplayStore, requestPersistence } from '../replay/idb-store.ts';
import { importJsonl, transitionLine, type ImportReport } from '../replay/jsonl.ts';
import { dropStoredTransitions } from '../replay/known-transitions.ts';
import type { StoreMeta } from '../replay/store-meta.ts';
import { ReplayBuffer } from '../replay/retrieval.ts';
import { validateTransition } from '../replay/schema.ts';
import { TransitionSearch } from '../replay/text-search.ts';
import { Once } from './once.ts';
import { seedSpec } from '../jobs/seed-spec.ts';
import { parseSpec } from '../jobs/spec.ts';
import { parseMix } from '../replay/seed.ts';
import { seedBuffer, seedRunId, type SeedBufferProgress, type SeedBufferResult } from '../jobs/seed-buffer.ts';
import {
  StoreFullError,
  type ReplayStore,
  type RunRecord,
  type StorageEstimate,
  type StoreLimits,
  type StoredTransition,
  type TransitionFilter,
  withoutVector,
} from '../replay/store.ts';

/** A transition as the page gets it: the vector stays in the worker (512 bytes nobody reads there). */
export type BufferTransition = Omit<StoredTransition, 'vector' | 'vectorVersion'>;

export interface EnvCounts {
  env: string;
  real: number;
  synthetic: number;
}

export interface BufferSummary {
  /** The environments this build can seed, in registry order. */
  envs: string[];
  /** One row per known environment, then (if any) one for environments this build does not know. */
  counts: EnvCounts[];
  total: number;
  runs: (RunRecord & { transitions: number })[];
  storage: StorageEstimate;
}

export interface SeedRequest {
  env: string;
  episodes: number;
  /** `oracle=0.6,random=0.4`, as the CLI's --mix. */
  mix: string;
  seed: number;
}

/** Seeding's progress and result, as the seed job reports them. */
export type SeedProgress = SeedBufferProgress;
export type SeedResult = SeedBufferResult;

export interface ImportProgress {
  bytesRead: number;
  totalBytes: number;
  lines: number;
  accepted: number;
  rejected: number;
  /** Good lines the store already held, so not stored again. */
  duplicates: number;
}

export interface ImportResult extends ImportReport {
  fileName: string;
  bytes: number;
  /** Stopped by `stop()`: the counts cover the lines up to the last committed batch. */
  stopped: boolean;
}

export interface ExportProgress {
  written: number;
  total: number;
}

export interface BrowsePage {
  items: BufferTransition[];
  next: number | null;
}

export interface SearchPage {
  /** Every match; `items` holds the best `limit` of them, best first. */
  total: number;
  items: BufferTransition[];
}

export interface ReplayServiceOptions {
  /** IndexedDB database name (tests use their own so they never touch a person's data). */
  dbName?: string;
  /** Most transitions kept; eviction drops the oldest synthetic ones first. */
  cap?: number | null;
  /** Whether real transitions may be evicted too (only when the person says so). */
  evictReal?: boolean;
}

const IMPORT_BATCH = 1000;
/** The Web Lock a buffer write job holds, shared by every tab of the app. */
const WRITE_LOCK = 'dreamgym-replay-write';
const EXPORT_PAGE = 1000;
/** Progress messages at most this often: each one is a postMessage the page must render. */
const PROGRESS_INTERVAL_MS = 100;
const MAX_PAGE = 200;

type OpenStore = (options: ReplayServiceOptions) => Promise<ReplayStore>;

const openIdb: OpenStore = (options) =>
  IdbReplayStore.open({ ...(options.dbName !== undefined ? { name: options.dbName } : {}), cap: options.cap ?? null, evictReal: options.evictReal ?? false });

export class ReplayService {
  private options: ReplayServiceOptions = {};
  private readonly opening = new Once(() => this.openStore(this.options));
  /** The vector index walks the whole store when opened, so it is opened only when a write needs it. */
  private readonly buffering = new Once(() => this.store().then((store) => ReplayBuffer.open(store)));
  private searchIndex: TransitionSearch | null = null;
  /** The write job running (one at a time: two would interleave their batches and their progress). */
  private job: 'seeding' | 'importing' | null = null;
  /** Aborted by `stop()`: the running job ends after its current batch. */
  private stopping: AbortController | null = null;

  /** `openStore` is the seam for tests in Node (a MemoryReplayStore); the app uses IndexedDB. */
  constructor(private readonly openStore: OpenStore = openIdb) {}

  /** Choose the database (and cap) before first use; a store already open is closed and reopened. */
  async init(options: ReplayServiceOptions = {}): Promise<void> {
    if (this.job) throw new DreamGymError('busy', `the buffer is ${this.job}; stop it before switching stores`);
    const open = this.opening.current();
    this.options = { ...options };
    this.opening.forget();
    this.buffering.forget();
    this.searchIndex = null;
    if (open) await (await open).close();
  }

  /** Change the cap and the eviction of real transitions; applies from the next write on. */
  async setLimits(limits: StoreLimits): Promise<void> {
    if (limits.cap !== null && (!Number.isInteger(limits.cap) || limits.cap < 1)) {
      throw new UsageError(`the cap must be a whole number of transitions ≥ 1 (or none), got ${limits.cap}`);
    }
    this.options = { ...this.options, cap: limits.cap, evictReal: limits.evictReal };
    (await this.store()).setLimits(limits);
  }

  async summary(): Promise<BufferSummary> {
    const store = await this.store();
    const envs = ENVIRONMENTS.map((e) => e.name);
    const count = (filter: TransitionFilter) => store.count(filter);
    const [total, realTotal, syntheticTotal, known, runs, storage] = await Promise.all([
      store.count(),
      count({ source: 'real' }),
      count({ source: 'synthetic' }),
      Promise.all(envs.map(async (env) => ({ env, real: await count({ env, source: 'real' }), synthetic: await count({ env, source: 'synthetic' }) }))),
      store.runs(),
      store.estimate(),
    ]);
    // A file may hold transitions of an environment this build lacks; they still count. (The
    // counts are separate reads, so a write landing between them could make a difference negative.)
    const other = {
      env: 'other',
      real: Math.max(0, realTotal - known.reduce((a, r) => a + r.real, 0)),
      synthetic: Math.max(0, syntheticTotal - known.reduce((a, r) => a + r.synthetic, 0)),
    };
    return {
      envs,
      counts: other.real + other.synthetic > 0 ? [...known, other] : known,
      total,
      runs: await Promise.all(runs.map(async (run) => ({ ...run, transitions: await count({ runId: run.id }) }))),
      storage,
    };
  }

  /**
   * Ask the browser to keep this site's storage under pressure. `persist()` exists only on a page
   * (not in workers), so in the worker this reports the current state; the page asks first.
   */
  async requestPersistence(): Promise<boolean | null> {
    await requestPersistence();
    return (await (await this.store()).estimate()).persisted;
  }

  /** Stop the running seed or import after its current batch; what was committed stays. */
  stop(): void {
    this.stopping?.abort();
  }

  /**
   * Play scripted episodes into the store as one run, a batch of episodes per write. Stoppable;
   * a stopped run keeps its complete episodes. The run record is written first, so even a partial
   * run shows in the list and can be deleted.
   */
  async seed(request: SeedRequest, onProgress: (progress: SeedProgress) => void): Promise<SeedResult> {
    const spec = envSpec(request.env);
    // The Buffer view's form through the seed job's spec, under the form's labels.
    const labels: Record<string, string> = { episodes: 'Episodes', mix: 'Agent mix', seed: 'Seed' };
    const settings = parseSpec(seedSpec(spec), { episodes: request.episodes, mix: request.mix, seed: request.seed }, (field) => labels[field] ?? field);
    // The mix's own words, before any work starts.
    parseMix(settings.mix);
    return this.runJob('seeding', async (signal) => {
      const buffer = await this.buffer();
      const createdAt = Date.now();
      const throttle = throttled(onProgress);
      let saved: SeedProgress = { runId: '', episodes: 0, total: settings.episodes, transitions: 0 };
      try {
        const result = await seedBuffer(spec, settings, {
          store: buffer.store,
          write: (transitions) => this.write(buffer, transitions),
          // Unique per seeding, so seeding the same seed twice makes two runs, each deletable.
          runId: `${seedRunId(spec.name, settings.seed)}-${createdAt.toString(36)}`,
          createdAt,
          signal,
          onProgress: (progress) => {
            saved = progress;
            throttle(progress);
          },
        });
        throttle.flush();
        return result;
      } catch (error) {
        throw fullStoreMessage(error, `${saved.episodes} of ${settings.episodes} episodes (${saved.transitions} transitions) were saved before it filled and are kept.`);
      }
    });
  }

  /**
   * Stream a JSONL file into the store, a batch at a time: every good line lands, every bad one is
   * reported with its line number, and a transition the store already holds is counted, not stored
   * again (the same file twice, or again after a stop or a reload, adds only what is new). Runs the file names get a run record (kind `import:<file>`) if
   * they have none, so they show in the list and can be deleted. Stoppable between batches.
   */
  async importJsonl(file: File, onProgress: (progress: ImportProgress) => void): Promise<ImportResult> {
    return this.runJob('importing', async (signal) => {
      const buffer = await this.buffer();
      const knownRuns = new Set((await buffer.store.runs()).map((r) => r.id));
      const progress: ImportProgress = { bytesRead: 0, totalBytes: file.size, lines: 0, accepted: 0, rejected: 0, duplicates: 0 };
      const throttle = throttled(onProgress);
      // The report as of the last committed batch: what a stop or a full store leaves behind.
      let committed: ImportReport = { accepted: 0, rejectedCount: 0, rejected: [], skipped: 0, lines: 0, duplicates: 0 };
      const onBatch = async (batch: Transition[]) => {
        if (signal.aborted) throw new ImportStopped();
        await this.write(buffer, batch);
        const fresh = new Map<string, string>();
        for (const t of batch) if (!knownRuns.has(t.runId)) fresh.set(t.runId, t.env);
        for (const [id, env] of fresh) {
          await buffer.store.putRun({ id, env, kind: `import:${file.name}`, createdAt: Date.now(), meta: { file: file.name } });
          knownRuns.add(id);
        }
      };
      const onReport = (report: ImportReport) => {
        committed = { ...report, rejected: report.rejected.slice() };
        Object.assign(progress, { lines: report.lines, accepted: report.accepted, rejected: report.rejectedCount, duplicates: report.duplicates });
        throttle({ ...progress });
      };
      const onBytes = (bytes: number) => {
        progress.bytesRead = bytes;
        throttle({ ...progress });
      };
      const onMeta = async (meta: StoreMeta) => {
        // A store file's own tasks and runs come with its transitions.
        await buffer.store.putTasks(meta.tasks);
        for (const run of meta.runs) {
          if (knownRuns.has(run.id)) continue;
          await buffer.store.putRun(run);
          knownRuns.add(run.id);
        }
      };
      try {
        const report = await importJsonl(textChunks(file, onBytes), onBatch, {
          batchSize: IMPORT_BATCH, onProgress: onReport, onMeta, knownEnvs: ENVIRONMENTS.map((e) => e.name), dropKnown: dropStoredTransitions(buffer.store),
        });
        throttle({ ...progress, lines: report.lines, accepted: report.accepted, rejected: report.rejectedCount, duplicates: report.duplicates });
        throttle.flush();
        return { ...report, fileName: file.name, bytes: file.size, stopped: false };
      } catch (error) {
        if (error instanceof ImportStopped) return { ...committed, fileName: file.name, bytes: file.size, stopped: true };
        throw fullStoreMessage(error, `${committed.accepted} transitions from lines 1–${committed.lines} of ${file.name} were imported before it filled and are kept.`);
      }
    });
  }

  /** The transitions a filter selects as one JSONL blob, built a page at a time (cursor walk). */
  async exportJsonl(filter: TransitionFilter = {}, onProgress?: (progress: ExportProgress) => void): Promise<Blob> {
    const store = await this.store();
    const progress: ExportProgress = { written: 0, total: await store.count(filter) };
    const throttle = onProgress ? throttled(onProgress) : null;
    // A blob per page: the browser may keep each on disk, so a large export never is one big string.
    const parts: Blob[] = [];
    for (let after: number | undefined; ; ) {
      const page = await store.page({ filter, limit: EXPORT_PAGE, ...(after !== undefined ? { after } : {}) });
      parts.push(new Blob([page.items.map(transitionLine).join('')]));
      progress.written += page.items.length;
      throttle?.({ ...progress, total: Math.max(progress.total, progress.written) });
      if (page.next === null) break;
      after = page.next;
    }
    throttle?.flush();
    return new Blob(parts, { type: 'application/x-ndjson' });
  }

  /** A page of transitions in id order, after the cursor `after`. */
  async browse({ filter, after, limit }: { filter?: TransitionFilter; after?: number; limit: number }): Promise<BrowsePage> {
    const store = await this.store();
    const page = await store.page({ limit: clampLimit(limit), ...(filter ? { filter } : {}), ...(after !== undefined ? { after } : {}) });
    return { items: page.items.map(withoutVector), next: page.next };
  }

  /** Full-text search over instruction, state, action and next state, best match first. */
  async search(text: string, { filter, limit = 50 }: { filter?: TransitionFilter; limit?: number } = {}): Promise<SearchPage> {
    const store = await this.store();
    this.searchIndex ??= new TransitionSearch(store);
    const ids = await this.searchIndex.search(text, filter);
    // The index may trail a writer in another worker or tab by a moment: skip ids no longer stored.
    const found = await store.getMany(ids.slice(0, clampLimit(limit)));
    return { total: ids.length, items: found.filter((t): t is StoredTransition => t !== undefined).map(withoutVector) };
  }

  /**
   * Steps a person played on a real environment (the Play view's demonstrations), stored as real
   * transitions of a run of their own (kind `demo:play`), which the Buffer view lists and can
   * delete. Every transition is checked as an imported line is; a bad one stores nothing.
   */
  async recordDemonstration(run: { id: string; env: string }, transitions: readonly unknown[]): Promise<{ stored: number; runTransitions: number }> {
    if (this.job) throw new DreamGymError('busy', `the buffer is ${this.job}; the step was not recorded (stop it, or wait)`);
    const checked: Transition[] = transitions.map((value, i) => {
      const result = validateTransition(value);
      if (!result.ok) throw new UsageError(`step ${i + 1} of the demonstration cannot be stored: ${result.problem}`);
      if (result.transition.runId !== run.id || result.transition.source !== 'real') throw new UsageError(`step ${i + 1} of the demonstration is not a real transition of run ${run.id}`);
      return result.transition;
    });
    const buffer = await this.buffer();
    if (!(await buffer.store.runs()).some((r) => r.id === run.id)) {
      await buffer.store.putRun({ id: run.id, env: run.env, kind: 'demo:play', createdAt: Date.now(), meta: { recordedBy: 'a person, in the Play view' } });
    }
    try {
      await this.write(buffer, checked);
    } catch (error) {
      throw fullStoreMessage(error, 'The steps recorded before it filled are kept.');
    }
    return { stored: checked.length, runTransitions: await buffer.store.count({ runId: run.id }) };
  }

  async deleteRun(runId: string): Promise<number> {
    if (this.job) throw new DreamGymError('busy', `the buffer is ${this.job}; stop it before deleting a run`);
    const deleted = await (await this.store()).deleteRun(runId);
    // Both indexes hold the deleted ids: the search index rebuilds on its next query (its count no
    // longer matches), the vector index is reopened on the next write.
    this.buffering.forget();
    return deleted;
  }

  private store(): Promise<ReplayStore> {
    return this.opening.get();
  }

  private buffer(): Promise<ReplayBuffer> {
    return this.buffering.get();
  }

  /** Every write: store and vector index in one batch, then the search index (if built). */
  private async write(buffer: ReplayBuffer, transitions: readonly Transition[]): Promise<void> {
    const ids = await buffer.add(transitions);
    this.searchIndex?.added(transitions.map((t, i) => ({ ...t, id: ids[i] as number })));
  }

  /**
   * One write job at a time in this worker, and across the app's tabs (Web Locks, where the runtime
   * has them): another tab's seeding or import is refused with what it is doing, not interleaved.
   */
  private async runJob<T>(job: 'seeding' | 'importing', work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.job) throw new DreamGymError('busy', `the buffer is already ${this.job}; wait for it or stop it first`);
    this.job = job;
    const stopping = new AbortController();
    this.stopping = stopping;
    try {
      const locks = (globalThis.navigator as Navigator | undefined)?.locks;
      if (!locks) return await work(stopping.signal);
      // A second lock, named for the job and this tab, tells a refused tab what this one is doing.
      // It is taken before the write lock, so whoever holds the write lock already shows its job
      // (taken after, a tab refused in between was told only "writing to").
      const own = `${WRITE_LOCK}:${job}:${Math.random().toString(36).slice(2)}`;
      return await locks.request(own, () =>
        locks.request(WRITE_LOCK, { ifAvailable: true }, async (lock) => {
          if (!lock) {
            const held = (await locks.query()).held ?? [];
            const other = held.map((l) => l.name ?? '').find((name) => name.startsWith(`${WRITE_LOCK}:`) && name !== own)?.split(':')[1];
            throw new DreamGymError('busy', `another tab of this app is ${other ?? 'writing to'} the buffer; wait for it to finish (or stop it there), then try again`);
          }
          return work(stopping.signal);
        }),
      );
    } finally {
      this.job = null;
      this.stopping = null;
    }
  }
}

class ImportStopped extends Error {}

function clampLimit(limit: number): number {
  return Number.isInteger(limit) ? Math.min(MAX_PAGE, Math.max(1, limit)) : 20;
}

/**
 * A full store says so plainly, with what was kept. Comlink passes an Error's name and message to
 * the page, so this is what the person reads.
 */
function fullStoreMessage(error: unknown, kept: string): unknown {
  if (!(error instanceof StoreFullError)) return error;
  const reason = /\bfull\b/.test(error.message) ? error.message : `the replay store is full: ${error.message}`;
  const sentence = reason.charAt(0).toUpperCase() + reason.slice(1) + (/[.!?]$/.test(reason) ? '' : '.');
  return new StoreFullError(`${sentence} ${kept}`, { cause: error });
}

/** A file's text, decoded as it streams; `onBytes` hears how many bytes have been read. */
async function* textChunks(file: File, onBytes: (bytes: number) => void): AsyncGenerator<string> {
  let bytes = 0;
  const counted = file.stream().pipeThrough(
    new TransformStream<Uint8Array<ArrayBuffer>, BufferSource>({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        onBytes(bytes);
        controller.enqueue(chunk);
      },
    }),
  );
  const reader = counted.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * Call `send` at most every PROGRESS_INTERVAL_MS with the latest value; `flush()` sends the last
 * one held back. A comlink callback returns a promise; a page gone away must not fail the job.
 */
function throttled<T>(send: (value: T) => void): ((value: T) => void) & { flush(): void } {
  let last = 0;
  let held: { value: T } | null = null;
  const deliver = (value: T) => {
    last = Date.now();
    held = null;
    const sent: unknown = send(value);
    if (sent instanceof Promise) sent.catch(() => undefined);
  };
  const call = (value: T) => {
    if (Date.now() - last >= PROGRESS_INTERVAL_MS) deliver(value);
    else held = { value };
  };
  return Object.assign(call, { flush: () => { if (held) deliver(held.value); } });
}
