/**
 * What the Runs view compares, and how a file from outside becomes runs: a training run as the CLI
 * writes it (`train … --history FILE.json`, i.e. `JSON.stringify(TrainResult)`) or a paper
 * experiment report (many runs, one per row and seed). Validation is valibot's, so a bad file says
 * which field is wrong; a file is taken whole or not at all.
 *
 * The fields the view shows are checked; the others (losses, the experience model's counters…) are
 * kept as they are, so a stored run can be downloaded again whole. No tfjs here: this runs in the page.
 */
import * as v from 'valibot';
import { CHECKPOINT_CONTAINER, EXPERIENCE_CONTAINER, POLICY_CONTAINER, type ContainerKind } from '../../core/weight-file.ts';
// modes.ts, not train/trainer.ts: importing the trainer would pull tfjs into the page.
import { TRAIN_ALGOS, TRAIN_MODES } from '../../train/modes.ts';

/** Larger than any run the CLI writes (a 184-iteration history is ~130 kB), small enough to read at once. */
export const MAX_RUN_FILE_BYTES = 64 * 1024 * 1024;
export const PAPER_REPORT_KIND = 'dreamgym-paper-experiment';
const MAX_HISTORY = 100_000;

const text = (max: number) => v.pipe(v.string(), v.maxLength(max));
const finite = v.pipe(v.number(), v.finite());
const count = v.pipe(v.number(), v.safeInteger(), v.minValue(0));
const rate = v.pipe(v.number(), v.minValue(0), v.maxValue(1));

const evalSchema = v.looseObject({
  split: text(128),
  episodes: count,
  successRate: rate,
  meanScore: finite,
});

const pointSchema = v.looseObject({
  iteration: count,
  phase: v.optional(v.picklist(['real', 'dream', 'offline'])),
  realTransitions: count,
  syntheticTransitions: count,
  successRate: rate,
  meanScore: finite,
  eval: v.optional(evalSchema),
});

export const runDataSchema = v.looseObject({
  env: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  mode: v.picklist(TRAIN_MODES),
  algo: v.picklist(TRAIN_ALGOS),
  backend: text(64),
  seed: v.pipe(v.number(), v.safeInteger()),
  realTransitions: count,
  syntheticTransitions: count,
  wallSeconds: v.pipe(finite, v.minValue(0)),
  iterations: count,
  stopped: v.boolean(),
  eval: v.nullable(evalSchema),
  history: v.pipe(v.array(pointSchema), v.maxLength(MAX_HISTORY)),
  dream: v.optional(v.looseObject({ experience: text(128) })),
  curriculum: v.optional(v.looseObject({ generator: text(128), lambda: finite, pool: count, generatedInPool: count })),
});

/** One run as the Runs view keeps it: a `TrainResult`, checked where the view reads it. */
export type RunData = v.InferOutput<typeof runDataSchema>;
export type RunEval = NonNullable<RunData['eval']>;
export type RunPoint = RunData['history'][number];

const paperReportSchema = v.object({
  kind: v.literal(PAPER_REPORT_KIND),
  version: v.literal(1),
  env: text(64),
  preset: v.picklist(['quick', 'full']),
  seeds: v.array(v.pipe(v.number(), v.safeInteger())),
  createdAt: text(64),
  rows: v.pipe(
    v.array(v.object({
      id: text(128),
      label: text(256),
      mode: v.picklist(TRAIN_MODES),
      algo: v.picklist(TRAIN_ALGOS),
      runs: v.array(runDataSchema),
    })),
    v.minLength(1, 'the report has no rows'),
  ),
});

/** A run read from a file, with the label the view gives it. */
export interface ImportedRun {
  label: string;
  run: RunData;
}

export type RunFileKind = 'train-result' | 'paper-report';

export type RunFileResult =
  | { ok: true; kind: RunFileKind; runs: ImportedRun[] }
  | { ok: false; problem: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'string' ? 'a string' : `a ${typeof value}`;
}

/** A value from a file, short and on one line, for a message. */
function quote(value: unknown): string {
  const s = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  const line = s.replace(/\s+/g, ' ');
  return `"${line.length > 60 ? `${line.slice(0, 59)}…` : line}"`;
}

function issues(list: readonly v.BaseIssue<unknown>[]): string {
  return list.slice(0, 3).map((issue) => {
    const path = v.getDotPath(issue);
    return path ? `${path}: ${issue.message}` : issue.message;
  }).join('; ');
}

/** A run's own label when it comes alone: the file's name without its extension. */
function baseName(fileName: string): string {
  const name = fileName.replace(/^.*[\\/]/, '').replace(/\.json$/i, '');
  return name || 'imported run';
}

/** Check a value from outside as a training run; the problem names the bad fields by path. */
export function validateRunData(value: unknown): { ok: true; run: RunData } | { ok: false; problem: string } {
  const parsed = v.safeParse(runDataSchema, value);
  return parsed.success ? { ok: true, run: parsed.output } : { ok: false, problem: issues(parsed.issues) };
}

/**
 * Where each of the project's binary files is opened instead of here, in the words of the view that
 * takes it ("Import a policy", "Import a .dgx file"). No view opens a checkpoint file: the Train view
 * resumes the one this browser keeps, and only the CLI goes on from a .dgc file.
 */
const BINARY_HOMES: readonly [ContainerKind, string][] = [
  [POLICY_CONTAINER, 'import it in the Evaluate view'],
  [EXPERIENCE_CONTAINER, 'import it in the Experience view'],
  [CHECKPOINT_CONTAINER, 'the CLI goes on from it with `train … --checkpoint FILE.dgc --resume`'],
];

/**
 * What a file that is not text is, said in words, and where it opens instead: JSON.parse's own
 * message would quote its first bytes, control characters and all. Null for text (whose JSON error
 * is worth quoting).
 */
function binaryKind(content: string): string | null {
  for (const [kind, home] of BINARY_HOMES) {
    if (content.startsWith(kind.magic)) return `a DreamGym ${kind.noun} (${kind.extension}), not a training run: ${home}.`;
  }
  // A NUL, or bytes that are not UTF-8 (read as U+FFFD), near the start: no text format of ours has them.
  const start = content.slice(0, 1024);
  return start.includes('\u0000') || start.includes('\uFFFD') ? 'binary data (not text), not a training run.' : null;
}

/**
 * Read a file's text as runs. Every problem message starts with the file's name and says what the
 * file is instead, where that can be told, and what file would work.
 */
export function parseRunFile(fileName: string, content: string): RunFileResult {
  const fail = (problem: string): RunFileResult => ({ ok: false, problem: `${fileName}: ${problem}` });
  const binary = binaryKind(content);
  if (binary) return fail(`${binary} The Runs view imports a training run written by \`train … --history FILE.json\` or a paper experiment report.`);
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch (e) {
    return fail(`not JSON (${e instanceof Error ? e.message : String(e)}). Import a training run written by \`train … --history FILE.json\` or a paper experiment report.`);
  }
  if (!isRecord(value)) return fail(`holds ${describe(value)}, not a training run: expected a JSON object (a training run or a paper experiment report).`);

  if ('kind' in value) {
    if (value.kind !== PAPER_REPORT_KIND) {
      return fail(`a file of kind ${quote(value.kind)}, not a training run or a paper experiment report (kind "${PAPER_REPORT_KIND}").`);
    }
    if (value.version !== 1) return fail(`a paper experiment report of version ${quote(value.version)}; this app reads version 1.`);
    const parsed = v.safeParse(paperReportSchema, value);
    if (!parsed.success) return fail(`not a valid paper experiment report: ${issues(parsed.issues)}.`);
    const runs = parsed.output.rows.flatMap((row) => row.runs.map((run) => ({ label: `${row.label} seed ${run.seed}`, run })));
    if (runs.length === 0) return fail('a paper experiment report without runs: every row\'s "runs" list is empty.');
    return { ok: true, kind: 'paper-report', runs };
  }

  if (!('history' in value)) {
    if ('actionsDigest' in value && 'policy' in value) {
      return fail('an evaluation report (from `rollout`), not a training run: it has no "history". Import the file `train … --history FILE.json` wrote.');
    }
    return fail('no "history", so it is not a training run. Write one with `train … --history FILE.json`.');
  }
  if (!('mode' in value) && ('validationTransitions' in value || 'epochs' in value)) {
    return fail('an experience model fit report (from `experience fit`): its "history" is of epochs, not of training iterations. Import the file `train … --history FILE.json` wrote.');
  }
  const checked = validateRunData(value);
  if (!checked.ok) return fail(`not a valid training run: ${checked.problem}.`);
  return { ok: true, kind: 'train-result', runs: [{ label: baseName(fileName), run: checked.run }] };
}

/**
 * Equal for the same run read twice (from one file or two), different for two runs: what a
 * re-import is recognised by. Two runs hardly ever agree on all of it (wall seconds to the nanosecond).
 */
export function runFingerprint(run: RunData): string {
  return JSON.stringify([
    run.env, run.mode, run.algo, run.backend, run.seed, run.realTransitions, run.syntheticTransitions,
    run.iterations, run.wallSeconds, run.eval?.successRate ?? null, run.eval?.meanScore ?? null, run.history.length,
  ]);
}
