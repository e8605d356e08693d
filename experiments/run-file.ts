/**
 * The files the experiments read back: a training run's `--history` JSON (a `TrainResult`), a
 * rollout's `.eval.json`, and a paper report. Each is checked with valibot before use, so a
 * truncated or hand-edited file is refused with its path and the field at fault, never a TypeError
 * deep in a table. Loose objects: fields the experiments do not read pass through untouched.
 */
import { readFile } from 'node:fs/promises';
import * as v from 'valibot';
import { DreamGymError, errorMessage } from '../src/core/errors.ts';
import { TRAIN_ALGOS, TRAIN_MODES } from '../src/train/modes.ts';
import type { TrainResult } from '../src/train/trainer.ts';

const finite = v.pipe(v.number(), v.finite());
const count = v.pipe(v.number(), v.safeInteger(), v.minValue(0));
const share = v.pipe(v.number(), v.minValue(0), v.maxValue(1));

const evalResult = v.looseObject({ split: v.string(), episodes: count, successRate: share, meanScore: finite, actionsDigest: v.string() });

const iteration = v.looseObject({
  iteration: count,
  phase: v.picklist(['real', 'dream', 'offline']),
  realTransitions: count,
  syntheticTransitions: count,
  successRate: share,
  meanScore: finite,
  wallSeconds: finite,
  eval: v.optional(evalResult),
});

export const trainResultSchema = v.looseObject({
  env: v.string(),
  mode: v.picklist(TRAIN_MODES),
  algo: v.picklist(TRAIN_ALGOS),
  seed: v.number(),
  realTransitions: count,
  syntheticTransitions: count,
  wallSeconds: finite,
  eval: v.nullable(evalResult),
  history: v.array(iteration),
});

export const rolloutEvalSchema = v.looseObject({ split: v.string(), episodes: count, successRate: share, meanScore: finite, actionsDigest: v.string() });

export class RunFileError extends DreamGymError {
  constructor(message: string) {
    super('run-file', message);
  }
}

/** A JSON file checked against `schema`; a RunFileError naming the file and the field otherwise. */
export async function readRunFile<S extends v.GenericSchema>(file: string, schema: S, what: string): Promise<v.InferOutput<S>> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new RunFileError(`${file}: not a readable JSON ${what} (${errorMessage(error)})`);
  }
  const result = v.safeParse(schema, json);
  if (result.success) return result.output;
  const problems = result.issues.slice(0, 3).map((issue) => `${issue.path ? `${v.getDotPath(issue)}: ` : ''}${issue.message}`);
  throw new RunFileError(`${file}: not a ${what}: ${problems.join('; ')}`);
}

/** A training run's `--history` file. */
export async function readTrainResult(file: string): Promise<TrainResult> {
  // The fields the experiments read are checked; the rest is what `train` wrote alongside them.
  return (await readRunFile(file, trainResultSchema, 'training history (train --history)')) as unknown as TrainResult;
}
