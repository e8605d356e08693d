/**
 * Where the app keeps its neural experience models between sessions: one `.dgx` file per
 * environment, in an IndexedDB database of its own. The experience worker fits and imports them
 * (experience-service.ts); the trainer worker reads them to train in mode dream (trainer-service.ts).
 */
import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { NeuralEpoch } from '../experience/neural/training-record.ts';

/** What the page may know of a neural model (no weights). */
export interface NeuralModelInfo {
  env: string;
  origin: 'fitted' | 'imported';
  /** A fit that started from the shipped pretrained model rather than from nothing. */
  fineTuned?: boolean;
  /** The tfjs backend it was fitted on (as its file records it). */
  fittedOn: string;
  /** ISO time it was made. */
  createdAt: string;
  /** Real transitions it learned from, and those held out for the chart; null when its file does not say. */
  transitions: number | null;
  validationTransitions: number | null;
  /** Per-epoch fidelity on held-out episodes, as far as known. */
  history: NeuralEpoch[];
  /** A fit stopped early: the epochs it finished, of those asked for (its file says so). */
  stopped?: { after: number; of: number };
  /** Size of its .dgx file. */
  bytes: number;
  /** The file it was imported from. */
  fileName?: string;
  /** Kept in this browser (IndexedDB) so it survives a reload. */
  saved: boolean;
  /** Why it is not saved, or why the saved copy cannot be used. */
  problem?: string;
}

/** A neural model kept between sessions: its .dgx bytes and what the page shows of it. */
export interface SavedNeuralModel {
  env: string;
  bytes: Uint8Array;
  info: NeuralModelInfo;
}

/** Where fitted and imported neural models are kept, one per env. */
export interface NeuralModelStore {
  all(): Promise<SavedNeuralModel[]>;
  put(model: SavedNeuralModel): Promise<void>;
  delete(env: string): Promise<void>;
  /** Let the connection go (a store with none need not have it). */
  close?(): void;
}

/** Kept in memory only (Node, tests). */
export class MemoryNeuralModelStore implements NeuralModelStore {
  readonly records = new Map<string, SavedNeuralModel>();
  async all(): Promise<SavedNeuralModel[]> {
    return [...this.records.values()].map((r) => ({ ...r, bytes: r.bytes.slice() }));
  }
  async put(model: SavedNeuralModel): Promise<void> {
    this.records.set(model.env, { ...model, bytes: model.bytes.slice() });
  }
  async delete(env: string): Promise<void> {
    this.records.delete(env);
  }
}

export const MODELS_DB_NAME = 'dreamgym-models';
const MODELS_DB_VERSION = 1;

interface ModelsDB extends DBSchema {
  experienceModels: { key: string; value: SavedNeuralModel };
}

/**
 * The browser's neural model store: a database of its own, beside the replay buffer's, so a model
 * (a few hundred KB) never shares a schema migration with millions of transitions. Each put is one
 * transaction: a reload mid-save keeps the previous model whole.
 */
export class IdbNeuralModelStore implements NeuralModelStore {
  private constructor(private readonly db: IDBPDatabase<ModelsDB>) {}

  static async open(name: string = MODELS_DB_NAME): Promise<IdbNeuralModelStore> {
    const db: IDBPDatabase<ModelsDB> = await openDB<ModelsDB>(name, MODELS_DB_VERSION, {
      upgrade(database, oldVersion) {
        if (oldVersion < 1) database.createObjectStore('experienceModels', { keyPath: 'env' });
      },
      // Another tab wants a newer schema: let it upgrade instead of blocking it forever.
      blocking: () => db.close(),
    });
    return new IdbNeuralModelStore(db);
  }

  static destroy(name: string = MODELS_DB_NAME): Promise<void> {
    return deleteDB(name);
  }

  all(): Promise<SavedNeuralModel[]> {
    return this.db.getAll('experienceModels');
  }

  async put(model: SavedNeuralModel): Promise<void> {
    await this.db.put('experienceModels', model);
  }

  async delete(env: string): Promise<void> {
    await this.db.delete('experienceModels', env);
  }

  close(): void {
    this.db.close();
  }
}
