/**
 * A memory store persisted as one JSONL file (Node only). The first line holds the store's tasks,
 * runs and statistics (`{"$meta": …}`); every other line is one transition with its id, in the shape
 * `buffer import` and the Buffer view's import read (they skip the `$meta` line), so the file is also
 * an export.
 *
 * Writes are atomic: the whole file goes to a temporary sibling, is fsynced, and is renamed over the
 * old one. A process killed at any moment leaves either the previous file or the new one, never a
 * mixture; a leftover temporary file is ignored (and replaced by the next save).
 */
import { createReadStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { DreamGymError } from '../core/errors.ts';
import { lines, parseLine, transitionLine } from './jsonl.ts';
import { MemoryReplayStore, type MemoryStoreContents, type MemoryStoreOptions } from './memory-store.ts';
import type { StoredTransition } from './store.ts';

export const FILE_STORE_VERSION = 1;

export class StoreFileError extends DreamGymError {
  constructor(path: string, line: number, problem: string) {
    super('store-file', `${path}, line ${line}: ${problem}; the file was not loaded (it is left as it is)`);
  }
}

interface MetaLine {
  $meta: { version: number; tasks: MemoryStoreContents['tasks']; runs: MemoryStoreContents['runs']; stats: MemoryStoreContents['stats'] };
}

function isMissing(error: unknown): boolean {
  return (error as { code?: string }).code === 'ENOENT';
}

function parseMeta(path: string, text: string): MetaLine['$meta'] {
  let meta: MetaLine['$meta'];
  try {
    meta = (JSON.parse(text) as MetaLine).$meta;
  } catch {
    throw new StoreFileError(path, 1, 'not JSON');
  }
  if (meta.version !== FILE_STORE_VERSION) throw new StoreFileError(path, 1, `store format version ${meta.version}, this build reads ${FILE_STORE_VERSION}`);
  return meta;
}

/** Load a store file; a missing file is an empty store. A damaged one is refused with the line at fault. */
export async function loadStoreFile(path: string): Promise<MemoryStoreContents> {
  const contents: MemoryStoreContents = { transitions: [], tasks: [], runs: [], stats: [] };
  let n = 0;
  try {
    for await (const text of lines(createReadStream(path, { encoding: 'utf8' }))) {
      n++;
      if (n === 1 && text.startsWith('{"$meta"')) {
        const meta = parseMeta(path, text);
        contents.tasks = meta.tasks ?? [];
        contents.runs = meta.runs ?? [];
        contents.stats = meta.stats ?? [];
        continue;
      }
      const checked = parseLine(text);
      if (checked === null) continue;
      if (!checked.ok) throw new StoreFileError(path, n, checked.problem);
      if (checked.transition.id === undefined) throw new StoreFileError(path, n, 'a stored transition has no id');
      contents.transitions.push(checked.transition as StoredTransition);
    }
  } catch (error) {
    if (isMissing(error)) return contents;
    throw error;
  }
  return contents;
}

/** Write a store's contents atomically (temp file, fsync, rename). */
export async function saveStoreFile(path: string, contents: MemoryStoreContents): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const handle = await open(temp, 'w');
  try {
    const meta: MetaLine = { $meta: { version: FILE_STORE_VERSION, tasks: contents.tasks, runs: contents.runs, stats: contents.stats } };
    let chunk = `${JSON.stringify(meta)}\n`;
    for (const t of contents.transitions) {
      chunk += transitionLine(t);
      // Write in ~1 MB pieces: a million transitions never become one string.
      if (chunk.length > 1 << 20) {
        await handle.write(chunk);
        chunk = '';
      }
    }
    await handle.write(chunk);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temp, path);
}

/** A memory store bound to a file: `save()` persists it. */
export class FileReplayStore extends MemoryReplayStore {
  private constructor(
    readonly path: string,
    options: MemoryStoreOptions,
    contents: MemoryStoreContents,
  ) {
    super(options, contents);
  }

  static async open(path: string, options: MemoryStoreOptions = {}): Promise<FileReplayStore> {
    return new FileReplayStore(path, options, await loadStoreFile(path));
  }

  async save(): Promise<void> {
    await saveStoreFile(this.path, this.contents());
  }

  override async close(): Promise<void> {
    await this.save();
  }
}
