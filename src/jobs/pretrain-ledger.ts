/**
 * `pretrain`'s record of its stages in its output folder (pretrain.json): for each finished stage
 * its settings, the digests of the files it read, the digest of the file it wrote and its wall
 * time. A stage is skipped when all of them still hold; a stage whose output is gone or changed,
 * or whose inputs changed, is run again; a finished stage asked for with other settings is refused
 * (a typo must not throw away hours of work).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../core/errors.ts';
import { writeFileWhole } from '../platform/files.ts';

export const LEDGER_FILE = 'pretrain.json';
const LEDGER_FORMAT = 'dreamgym-pretrain';
const LEDGER_VERSION = 1;

export type StageName = 'seed' | 'fit' | 'rl' | 'own' | 'refit';

export interface StageRecord {
  settings: Record<string, unknown>;
  /** Each input file (relative to the folder) and its SHA-256. */
  inputs: Record<string, string>;
  output: { file: string; sha256: string; bytes: number };
  wallSeconds: number;
  finishedAt: string;
  /** What the stage reports about itself (episodes, transitions, losses, success). */
  summary: Record<string, unknown>;
}

export interface Ledger {
  format: typeof LEDGER_FORMAT;
  version: typeof LEDGER_VERSION;
  stages: Partial<Record<StageName, StageRecord>>;
  /**
   * The RL stage's settings and inputs when it started (its checkpoint resumes only that run), and
   * the episodes of each family it had started by its last checkpoint.
   */
  rlStarted?: { settings: Record<string, unknown>; inputs: Record<string, string>; episodesByFamily?: Record<string, number> };
}

export async function sha256File(path: string): Promise<{ sha256: string; bytes: number } | null> {
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    for await (const chunk of createReadStream(path)) {
      hash.update(chunk as Buffer);
      bytes += (chunk as Buffer).length;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** The folder's ledger, or a fresh one; a file that is not one is refused (the folder is another's). */
export async function readLedger(dir: string): Promise<Ledger> {
  const path = join(dir, LEDGER_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { format: LEDGER_FORMAT, version: LEDGER_VERSION, stages: {} };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  const ledger = parsed as Partial<Ledger> | null;
  if (ledger?.format !== LEDGER_FORMAT || ledger.version !== LEDGER_VERSION || typeof ledger.stages !== 'object' || ledger.stages === null) {
    throw new UsageError(`--out ${dir}: ${LEDGER_FILE} there is not a pretraining record of this build; name another --out folder (or remove it to start anew)`);
  }
  return ledger as Ledger;
}

export async function writeLedger(dir: string, ledger: Ledger): Promise<void> {
  await writeFileWhole(join(dir, LEDGER_FILE), `${JSON.stringify(ledger, null, 1)}\n`, `the pretraining record ${join(dir, LEDGER_FILE)}`);
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Whether `stage` is done as asked: 'done' (skip it), 'redo' (run it), or a UsageError when it is
 * done with other settings on the same inputs.
 */
export async function stageState(dir: string, ledger: Ledger, stage: StageName, settings: Record<string, unknown>, inputs: Record<string, string>): Promise<'done' | 'redo'> {
  const record = ledger.stages[stage];
  if (!record) return 'redo';
  const output = await sha256File(join(dir, record.output.file));
  if (output === null || output.sha256 !== record.output.sha256 || !same(record.inputs, inputs)) return 'redo';
  if (!same(record.settings, settings)) {
    const differ = Object.keys({ ...record.settings, ...settings }).filter((key) => !same(record.settings[key], settings[key]));
    throw new UsageError(
      `--out ${dir} holds a finished ${stage} stage with other settings (${differ.map((key) => `${key}: ${JSON.stringify(record.settings[key])} there, ${JSON.stringify(settings[key])} now`).join('; ')}); ` +
        `name another --out folder, or remove ${join(dir, record.output.file)} to run that stage (and those after it) again with these`,
    );
  }
  return 'done';
}
