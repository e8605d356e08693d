/**
 * The runs this browser keeps for the Runs view: every run the Train view finished and every run
 * imported from a file, each with its history, in a small IndexedDB database of its own (the replay
 * store holds transitions, not curves). A few runs of ~100 kB each: the page reads them directly.
 */
import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { runFingerprint, type RunData } from './run-file.ts';

export const RUNS_DB_NAME = 'dreamgym-runs';
const RUNS_DB_VERSION = 1;

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
}

export interface NewRun {
  label: string;
  source: RunSource;
  fileName: string | null;
  run: RunData;
}

interface RunsDB extends DBSchema {
  runs: { key: string; value: StoredRun; indexes: { fingerprint: string } };
}

let counter = 0;
function newId(now: number): string {
  return `run-${now.toString(36)}-${(counter++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

export class RunLibrary {
  private constructor(private readonly db: IDBPDatabase<RunsDB>) {}

  static async open(name: string = RUNS_DB_NAME): Promise<RunLibrary> {
    const db: IDBPDatabase<RunsDB> = await openDB<RunsDB>(name, RUNS_DB_VERSION, {
      upgrade(database) {
        database.createObjectStore('runs', { keyPath: 'id' }).createIndex('fingerprint', 'fingerprint');
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
   * Store runs in one transaction (all or none). A run already stored (same fingerprint) is not
   * stored twice: it comes back under `duplicates`.
   */
  async add(runs: readonly NewRun[]): Promise<{ added: StoredRun[]; duplicates: number }> {
    const tx = this.db.transaction('runs', 'readwrite');
    const done = tx.done;
    const now = Date.now();
    const added: StoredRun[] = [];
    const seen = new Set<string>();
    let duplicates = 0;
    try {
      for (const run of runs) {
        const fingerprint = runFingerprint(run.run);
        if (seen.has(fingerprint) || (await tx.store.index('fingerprint').count(fingerprint)) > 0) {
          duplicates++;
          continue;
        }
        seen.add(fingerprint);
        const stored: StoredRun = { id: newId(now), label: run.label, source: run.source, fileName: run.fileName, addedAt: now, fingerprint, run: run.run };
        await tx.store.add(stored);
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

  async delete(id: string): Promise<void> {
    await this.db.delete('runs', id);
  }

  close(): void {
    this.db.close();
  }
}
