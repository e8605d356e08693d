/**
 * A store file's first line, `{"$meta": {version, tasks, runs, stats}}`: what the store knows
 * besides its transitions. Checked field by field before anything reads it, wherever a store file is
 * read: loading a store (file-store.ts) and importing one (jsonl.ts, in the CLI and the Buffer view).
 */
import * as v from 'valibot';
import type { RunRecord, TaskRecord, TaskStats } from './store.ts';

export const FILE_STORE_VERSION = 1;

export interface StoreMeta {
  version: number;
  tasks: TaskRecord[];
  runs: RunRecord[];
  stats: TaskStats[];
}

const finite = v.pipe(v.number(), v.finite());
const count = v.pipe(v.number(), v.safeInteger(), v.minValue(0));
const name = v.pipe(v.string(), v.minLength(1), v.maxLength(512));
const counts = { attempts: count, successes: count, returnSum: finite, returnSquares: finite };

/**
 * The first line, field by field: what the store's tasks, runs and statistics must look like
 * before anything reads them (fields it does not know are dropped, so an older build's file loads).
 */
export const metaSchema = v.object({
  version: v.literal(FILE_STORE_VERSION),
  tasks: v.optional(
    v.array(v.object({ id: name, env: name, instruction: v.pipe(v.string(), v.maxLength(64 * 1024)), difficulty: finite, origin: v.picklist(['seed', 'generated']), parentId: v.optional(name), createdAt: finite })),
    [],
  ),
  runs: v.optional(v.array(v.object({ id: name, env: name, kind: v.pipe(v.string(), v.maxLength(4096)), createdAt: finite, meta: v.optional(v.record(v.string(), v.unknown())) })), []),
  stats: v.optional(
    v.array(v.object({ taskId: name, env: name, ...counts, updatedAt: finite, versions: v.optional(v.array(v.object({ policyVersion: count, ...counts }))) })),
    [],
  ),
});

/** Whether a line is a store's first line (a store file is also an import file). */
export const isMetaLine = (text: string): boolean => text.startsWith('{"$meta"');

/** The first line checked; a problem names the fields at fault (`$meta.runs: Invalid type…`). */
export function parseStoreMeta(text: string): { ok: true; meta: StoreMeta } | { ok: false; problem: string } {
  let line: unknown;
  try {
    line = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'not JSON' };
  }
  const meta = (line as { $meta?: unknown } | null)?.$meta;
  const version = (meta as { version?: unknown } | null | undefined)?.version;
  if (typeof version === 'number' && version !== FILE_STORE_VERSION) return { ok: false, problem: `store format version ${version}, this build reads ${FILE_STORE_VERSION}` };
  const result = v.safeParse(metaSchema, meta);
  if (result.success) return { ok: true, meta: result.output as StoreMeta };
  const problems = result.issues.slice(0, 3).map((issue) => `$meta${issue.path ? `.${v.getDotPath(issue)}` : ''}: ${issue.message}`);
  return { ok: false, problem: problems.join('; ') };
}
