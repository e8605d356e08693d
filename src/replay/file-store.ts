/**
 * A memory store persisted as one JSONL file (Node only). The first line holds the store's tasks,
 * runs and statistics (`{"$meta": …}`); every other line is one transition with its id, in the shape
 * `buffer import` and the Buffer view's import read (they skip the `$meta` line), so the file is also
 * an export.
 *
 * Writes are atomic: the whole file goes to a temporary sibling, is fsynced, and is renamed over the
 * old one. A process killed at any moment leaves either the previous file or the new one, never a
 * mixture. A `FileReplayStore` is a writer: it holds the store's lock (file-lock.ts) from `open`
 * to `close` or `release`, so a second writer is refused instead of overwriting the first one's
 * work, and on opening it removes the temporary files that crashed writers left behind.
 */
import { createReadStream } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { DreamGymError } from '../core/errors.ts';
import { boundedText } from '../core/text.ts';
import { partialPath, writeWhole } from '../platform/files.ts';
import { lockStoreFile } from './file-lock.ts';
import { parseLine, transitionLine } from './jsonl.ts';
import { InputFormatError, readLines, tooLongProblem } from './lines.ts';
import { MemoryReplayStore, type MemoryStoreContents, type MemoryStoreOptions } from './memory-store.ts';
import type { StoredTransition } from './store.ts';
import { FILE_STORE_VERSION, isMetaLine, parseStoreMeta, type StoreMeta } from './store-meta.ts';

export { FILE_STORE_VERSION };


export class StoreFileError extends DreamGymError {
  constructor(path: string, line: number, problem: string) {
    // A problem may quote the line's own keys and values, which are the file's: bounded.
    super('store-file', `${path}, line ${line}: ${boundedText(problem)}; the file was not loaded (it is left as it is)`);
  }
}

function isMissing(error: unknown): boolean {
  return (error as { code?: string }).code === 'ENOENT';
}

function parseMeta(path: string, text: string): StoreMeta {
  const parsed = parseStoreMeta(text);
  if (!parsed.ok) throw new StoreFileError(path, 1, parsed.problem);
  return parsed.meta;
}

/**
 * Load a store file; a damaged one is refused with the line at fault. A missing one is refused too
 * (a mistyped path must not read as an empty buffer), unless the caller is about to create it.
 */
export async function loadStoreFile(path: string, options: { missing?: 'refuse' | 'empty' } = {}): Promise<MemoryStoreContents> {
  const contents: MemoryStoreContents = { transitions: [], tasks: [], runs: [], stats: [] };
  let n = 0;
  try {
    for await (const line of readLines(createReadStream(path, { encoding: 'utf8' }))) {
      n++;
      if ('tooLong' in line) throw new StoreFileError(path, n, tooLongProblem(line.tooLong));
      const text = line.text;
      if (n === 1 && isMetaLine(text)) {
        const meta = parseMeta(path, text);
        contents.tasks = meta.tasks;
        contents.runs = meta.runs;
        contents.stats = meta.stats;
        continue;
      }
      const checked = parseLine(text);
      if (checked === null) continue;
      if (!checked.ok) throw new StoreFileError(path, n, checked.problem);
      if (checked.transition.id === undefined) throw new StoreFileError(path, n, 'a stored transition has no id');
      contents.transitions.push(checked.transition as StoredTransition);
    }
  } catch (error) {
    if (isMissing(error)) {
      if (options.missing === 'empty') return contents;
      throw new DreamGymError('store-missing', `${path} does not exist; make one with: buffer seed --env E --episodes N --out ${path}`, { cause: error });
    }
    if (error instanceof InputFormatError) throw new StoreFileError(path, 1, error.message);
    throw error;
  }
  return contents;
}

/** Partial saves of writers that are gone (`partialPath`'s siblings of other processes). The caller holds the lock, so none is in use. */
async function removeLeftPartialFiles(path: string): Promise<void> {
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = await readdir(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.partial')) continue;
    const pid = Number(name.slice(prefix.length, -'.partial'.length));
    const file = join(dirname(path), name);
    if (Number.isInteger(pid) && pid !== process.pid && file === partialPath(path, pid)) await rm(file, { force: true });
  }
}

/**
 * Write a store's contents whole or not at all (platform/files.ts): a full disk or a kill mid-write
 * leaves the store as it was, and the error names the store and says why.
 */
export async function saveStoreFile(path: string, contents: MemoryStoreContents): Promise<void> {
  await writeWhole(
    path,
    async (append) => {
      const meta: { $meta: StoreMeta } = { $meta: { version: FILE_STORE_VERSION, tasks: contents.tasks, runs: contents.runs, stats: contents.stats } };
      let chunk = `${JSON.stringify(meta)}\n`;
      for (const t of contents.transitions) {
        chunk += transitionLine(t);
        // In ~1 MB pieces: a million transitions never become one string.
        if (chunk.length > 1 << 20) {
          await append(chunk);
          chunk = '';
        }
      }
      await append(chunk);
    },
    `the buffer ${path}`,
  );
}

/** A memory store bound to a file, written by this process alone: `save()` persists it, `close()` saves and lets the lock go. */
export class FileReplayStore extends MemoryReplayStore {
  private constructor(
    readonly path: string,
    options: MemoryStoreOptions,
    contents: MemoryStoreContents,
    private unlock: (() => Promise<void>) | null,
  ) {
    super(options, contents);
  }

  /** Take the store's lock (a StoreLockedError names the writer holding it), clean up after crashed writers, and load it. */
  static async open(path: string, options: MemoryStoreOptions = {}): Promise<FileReplayStore> {
    const unlock = await lockStoreFile(path);
    try {
      await removeLeftPartialFiles(path);
      return new FileReplayStore(path, options, await loadStoreFile(path, { missing: 'empty' }), unlock);
    } catch (error) {
      await unlock();
      throw error;
    }
  }

  async save(): Promise<void> {
    if (!this.unlock) throw new DreamGymError('store-closed', `${this.path} was closed; open it again to write`);
    await saveStoreFile(this.path, this.contents());
  }

  override async close(): Promise<void> {
    await this.save();
    await this.release();
  }

  /** Let the lock go without saving (what was added since the last save is dropped). */
  async release(): Promise<void> {
    const unlock = this.unlock;
    this.unlock = null;
    await unlock?.();
  }
}
