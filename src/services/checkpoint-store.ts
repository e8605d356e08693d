/**
 * Where the app keeps the checkpoint of the training run in progress (train/checkpoint.ts), so that
 * a reload, a crashed worker or a closed tab does not lose the run: the Train view offers to resume
 * it. A slot per kind of run: the Train view's run (the default slot: a trainer worker runs one run
 * at a time) and the guided run's two, which train side by side in two workers (`guide-dream`,
 * `guide-real`); a run that ends (done or stopped) removes its checkpoint. A database of its own, so a checkpoint never waits on a migration of the
 * replay buffer's millions of transitions; each put is one transaction, so a reload mid-save keeps
 * the previous checkpoint whole.
 */
import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from 'idb';

/**
 * A checkpoint as the app keeps it: the request that started the run (the trainer service's
 * `TrainRequest`, to start it again) and the checkpoint's bytes.
 */
export interface SavedTrainRun<Request = unknown> {
  request: Request;
  /** The backend the run trained on (a resume asks for it again, so it ends where it would have). */
  backend: string;
  /** Iterations done and transitions spent when it was saved, for the offer to resume. */
  iteration: number;
  realTransitions: number;
  syntheticTransitions: number;
  /** ISO time of the save. */
  savedAt: string;
  /** The encoded checkpoint (.dgc). */
  bytes: Uint8Array;
}

/** The Train view's slot. */
export const TRAIN_SLOT = 'current';

export interface CheckpointStore<Request = unknown> {
  get(slot?: string): Promise<SavedTrainRun<Request> | undefined>;
  put(run: SavedTrainRun<Request>, slot?: string): Promise<void>;
  delete(slot?: string): Promise<void>;
  close?(): void;
}

/** Kept in memory only (Node, tests). `saved` is the Train view's slot. */
export class MemoryCheckpointStore<Request = unknown> implements CheckpointStore<Request> {
  private readonly others = new Map<string, SavedTrainRun<Request>>();
  saved: SavedTrainRun<Request> | undefined;
  async get(slot = TRAIN_SLOT): Promise<SavedTrainRun<Request> | undefined> {
    const run = slot === TRAIN_SLOT ? this.saved : this.others.get(slot);
    return run && { ...run, bytes: run.bytes.slice() };
  }
  async put(run: SavedTrainRun<Request>, slot = TRAIN_SLOT): Promise<void> {
    const copy = { ...run, bytes: run.bytes.slice() };
    if (slot === TRAIN_SLOT) this.saved = copy;
    else this.others.set(slot, copy);
  }
  async delete(slot = TRAIN_SLOT): Promise<void> {
    if (slot === TRAIN_SLOT) this.saved = undefined;
    else this.others.delete(slot);
  }
}

export const CHECKPOINTS_DB_NAME = 'dreamgym-checkpoints';
const CHECKPOINTS_DB_VERSION = 1;

interface CheckpointsDB extends DBSchema {
  checkpoints: { key: string; value: SavedTrainRun & { slot: string } };
}

export class IdbCheckpointStore<Request = unknown> implements CheckpointStore<Request> {
  private constructor(private readonly db: IDBPDatabase<CheckpointsDB>) {}

  static async open<Request>(name: string = CHECKPOINTS_DB_NAME): Promise<IdbCheckpointStore<Request>> {
    const db: IDBPDatabase<CheckpointsDB> = await openDB<CheckpointsDB>(name, CHECKPOINTS_DB_VERSION, {
      upgrade(database, oldVersion) {
        if (oldVersion < 1) database.createObjectStore('checkpoints', { keyPath: 'slot' });
      },
      // Another tab wants a newer schema: let it upgrade instead of blocking it forever.
      blocking: () => db.close(),
    });
    return new IdbCheckpointStore<Request>(db);
  }

  static destroy(name: string = CHECKPOINTS_DB_NAME): Promise<void> {
    return deleteDB(name);
  }

  async get(slot = TRAIN_SLOT): Promise<SavedTrainRun<Request> | undefined> {
    const record = await this.db.get('checkpoints', slot);
    if (!record) return undefined;
    const { slot: _slot, ...run } = record;
    return run as SavedTrainRun<Request>;
  }

  async put(run: SavedTrainRun<Request>, slot = TRAIN_SLOT): Promise<void> {
    await this.db.put('checkpoints', { ...run, slot });
  }

  async delete(slot = TRAIN_SLOT): Promise<void> {
    await this.db.delete('checkpoints', slot);
  }

  close(): void {
    this.db.close();
  }
}
