/**
 * The runs this browser keeps for the Runs view: every run the Train view (or the guided run)
 * finished and every run imported from a file, each with its history, in a small IndexedDB database
 * of its own (the replay store holds transitions, not curves). A few runs of ~100 kB each: the page
 * reads them directly. A run trained here keeps its policy (`.dgp`) beside it, in a store of its
 * own so that listing the runs never reads the weights; a run from a file has none.
 *
 * No two stored runs carry the same label: a label already taken gets ` #2`, ` #3`, …
 */
import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { runFingerprint, type RunData } from './run-file.ts';

export const RUNS_DB_NAME = 'dreamgym-runs';
/** 1: runs. 2: policies beside them, and labels made distinct. */
const RUNS_DB_VERSION = 2;

export type RunSource = 'app' | 'file';

export interface StoredRun {
  id: string;
  label: string;
  /** Finished in this browser's Train view, or read from a file. */
  source: RunSource;
  /** The file it came from (source 'file'). */
  fileName: string | null;
  addedAt: number;
  fingerprint: string;
  run: RunData;
  /** Size in bytes of the run's policy (`.dgp`) kept beside it (`RunLibrary.policy`); absent: none (a file's run, or one stored before policies were kept). */
  policyBytes?: number;
}

export interface NewRun {
  label: string;
  source: RunSource;
  fileName: string | null;
  run: RunData;
  /** The trained policy as a `.dgp` file, kept with the run. */
  policy?: Uint8Array | null;
}

interface RunsDB extends DBSchema {
  runs: { key: string; value: StoredRun; indexes: { fingerprint: string } };
  policies: { key: string; value: { id: string; bytes: Uint8Array } };
}

/**
 * `label`, or the first of `label #2`, `label #3`, … that `taken` does not hold: a person tells two
 * runs of the same settings apart by the order they were kept in.
 */
export function distinctLabel(label: string, taken: ReadonlySet<string>): string {
  if (!taken.has(label)) return label;
  for (let n = 2; ; n++) {
    const next = `${label} #${n}`;
    if (!taken.has(next)) return next;
  }
}

let counter = 0;
function newId(now: number): string {
  return `run-${now.toString(36)}-${(counter++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

export class RunLibrary {
  private constructor(private readonly db: IDBPDatabase<RunsDB>) {}

  static async open(name: string = RUNS_DB_NAME): Promise<RunLibrary> {
    const db: IDBPDatabase<RunsDB> = await openDB<RunsDB>(name, RUNS_DB_VERSION, {
      async upgrade(database, oldVersion, _newVersion, tx) {
        if (oldVersion < 1) database.createObjectStore('runs', { keyPath: 'id' }).createIndex('fingerprint', 'fingerprint');
        if (oldVersion < 2) {
          database.createObjectStore('policies', { keyPath: 'id' });
          // Runs kept before labels were made distinct: the later of two alike gets its number.
          const store = tx.objectStore('runs');
          const stored = (await store.getAll()).sort((a, b) => a.addedAt - b.addedAt || a.id.localeCompare(b.id));
          const taken = new Set<string>();
          for (const run of stored) {
            const label = distinctLabel(run.label, taken);
            taken.add(label);
            if (label !== run.label) await store.put({ ...run, label });
          }
        }
      },
      // Another tab wants a newer schema: let it upgrade instead of blocking it forever.
      blocking: () => db.close(),
    });
    return new RunLibrary(db);
  }

  static destroy(name: string = RUNS_DB_NAME): Promise<void> {
    return deleteDB(name);
  }

  /** Every stored run, oldest first. */
  async list(): Promise<StoredRun[]> {
    const all = await this.db.getAll('runs');
    return all.sort((a, b) => a.addedAt - b.addedAt || a.id.localeCompare(b.id));
  }

  /**
   * Store runs in one transaction (all or none), each with its policy when it has one. A run
   * already stored (same fingerprint) is not stored twice: it comes back under `duplicates`. A label
   * already taken is made distinct (`distinctLabel`).
   */
  async add(runs: readonly NewRun[]): Promise<{ added: StoredRun[]; duplicates: number }> {
    const tx = this.db.transaction(['runs', 'policies'], 'readwrite');
    const store = tx.objectStore('runs');
    const done = tx.done;
    const now = Date.now();
    const added: StoredRun[] = [];
    const seen = new Set<string>();
    let duplicates = 0;
    try {
      const taken = new Set((await store.getAll()).map((r) => r.label));
      for (const run of runs) {
        const fingerprint = runFingerprint(run.run);
        if (seen.has(fingerprint) || (await store.index('fingerprint').count(fingerprint)) > 0) {
          duplicates++;
          continue;
        }
        seen.add(fingerprint);
        const label = distinctLabel(run.label, taken);
        taken.add(label);
        const id = newId(now);
        const policy = run.policy && run.policy.byteLength > 0 ? run.policy : null;
        const stored: StoredRun = {
          id, label, source: run.source, fileName: run.fileName, addedAt: now, fingerprint, run: run.run,
          ...(policy ? { policyBytes: policy.byteLength } : {}),
        };
        await store.add(stored);
        if (policy) await tx.objectStore('policies').put({ id, bytes: policy });
        added.push(stored);
      }
      await done;
    } catch (error) {
      try { tx.abort(); } catch { /* already finished */ }
      await done.catch(() => undefined);
      throw error;
    }
    return { added, duplicates };
  }

  /** The policy (`.dgp` bytes) kept with run `id`; null when it has none. */
  async policy(id: string): Promise<Uint8Array | null> {
    return (await this.db.get('policies', id))?.bytes ?? null;
  }

  /** One stored run, or undefined. */
  get(id: string): Promise<StoredRun | undefined> {
    return this.db.get('runs', id);
  }

  /** Forget a run and its policy. */
  async delete(id: string): Promise<void> {
    const tx = this.db.transaction(['runs', 'policies'], 'readwrite');
    await Promise.all([tx.objectStore('runs').delete(id), tx.objectStore('policies').delete(id), tx.done]);
  }

  close(): void {
    this.db.close();
  }
}
