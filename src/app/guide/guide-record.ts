/**
 * Where the guided run keeps itself in this browser, so that a reload neither loses a run in progress
 * (Start offers to resume it, as Train offers its interrupted run) nor wipes a finished run's
 * summary: the state of each phase, the figures that came out, and the dream policy the comparison
 * episode plays. One record, the latest guided run, in a database of its own; written when a phase
 * starts or ends, never on progress. A record that cannot be read is dropped, not shown half.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import * as v from 'valibot';
import type { GuideLength, GuidePhaseId } from '../../jobs/guide-plan.ts';
import type { EvalResult } from '../../train/evaluate.ts';

export type PhaseState = 'waiting' | 'running' | 'done' | 'stopped' | 'failed';
export type GuideState = 'idle' | 'running' | 'stopping' | 'done' | 'stopped' | 'failed' | 'interrupted';

/** One step of the comparison episode: the action, the model's imagined next state, the real one. */
export interface ComparisonRow {
  step: number;
  action: string;
  imagined: { text: string; reward: number; done: boolean };
  real: { text: string; reward: number; done: boolean };
  nextStateF1: number | null;
}

export interface GuideResult {
  untrained: EvalResult | null;
  dream: EvalResult | null;
  real: EvalResult | null;
  seeded: { episodes: number; transitions: number } | null;
  fitted: { transitions: number | null; seconds: number } | null;
  comparison: { instruction: string; rows: ComparisonRow[] } | null;
  /** The two trained runs as the Runs view keeps them (with their policies), once kept. */
  runIds: { dream: string | null; real: string | null };
  /** The backend each worker trained on. */
  backends: { dream: string | null; real: string | null };
}

export const NO_RESULT: GuideResult = { untrained: null, dream: null, real: null, seeded: null, fitted: null, comparison: null, runIds: { dream: null, real: null }, backends: { dream: null, real: null } };

export interface GuideRecord {
  state: GuideState;
  /** The length the run plays (a record written before lengths existed is a full run). */
  length: GuideLength;
  startedAt: number;
  /** Each phase's state and, once it ended, its wall seconds. */
  phases: Record<GuidePhaseId, { state: PhaseState; seconds: number | null }>;
  result: GuideResult;
  /** The dream policy (.dgp), kept until the comparison episode has played it. */
  dreamPolicy: Uint8Array | null;
}

const phaseSchema = v.object({ state: v.picklist(['waiting', 'running', 'done', 'stopped', 'failed']), seconds: v.nullable(v.number()) });
const recordSchema = v.object({
  state: v.picklist(['idle', 'running', 'stopping', 'done', 'stopped', 'failed', 'interrupted']),
  length: v.optional(v.picklist(['full', 'short']), 'full'),
  startedAt: v.number(),
  phases: v.object({ seed: phaseSchema, fit: phaseSchema, baseline: phaseSchema, dream: phaseSchema, real: phaseSchema, compare: phaseSchema }),
  result: v.looseObject({ runIds: v.object({ dream: v.nullable(v.string()), real: v.nullable(v.string()) }) }),
  dreamPolicy: v.nullable(v.instance(Uint8Array)),
});

interface GuideDB extends DBSchema {
  guide: { key: string; value: GuideRecord };
}

export const GUIDE_DB_NAME = 'dreamgym-guide';
const KEY = 'latest';

let opened: Promise<IDBPDatabase<GuideDB>> | null = null;
function database(): Promise<IDBPDatabase<GuideDB>> {
  opened ??= openDB<GuideDB>(GUIDE_DB_NAME, 1, {
    upgrade(db) {
      db.createObjectStore('guide');
    },
    blocking: () => {
      void opened?.then((db) => db.close());
      opened = null;
    },
  });
  return opened;
}

/** The latest guided run this browser keeps, or null (none, or a record that does not read). */
export async function readGuideRecord(): Promise<GuideRecord | null> {
  const record = await (await database()).get('guide', KEY);
  if (record === undefined) return null;
  const read = v.safeParse(recordSchema, record);
  if (!read.success) {
    await forgetGuideRecord();
    return null;
  }
  return { ...record, length: read.output.length, result: { ...NO_RESULT, ...record.result } };
}

export async function writeGuideRecord(record: GuideRecord): Promise<void> {
  await (await database()).put('guide', record, KEY);
}

export async function forgetGuideRecord(): Promise<void> {
  await (await database()).delete('guide', KEY);
}
