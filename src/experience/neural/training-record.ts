/**
 * What a `.dgx` file says about how its model was fitted: the one training record that the CLI's
 * `experience fit` and the app's Experience view both write (through jobs/fit-experience-model.ts)
 * and that both read back, so a model fitted in one shows its transitions and its per-epoch
 * history in the other. tfjs-free: the page imports it.
 *
 * Files are untrusted and older files differ: the reader keeps what is well formed and drops the
 * rest, and it still understands the CLI's earlier `realTransitions` name for `transitions`.
 */
import * as v from 'valibot';
import type { ScoreMeans } from '../fidelity.ts';

/** Mean loss per head of the neural model over an epoch. */
export interface NeuralLoss {
  line: number;
  action: number;
  transition: number;
  /** The reasoning head's (absent in records written before it existed). */
  reasoning?: number;
}

/** One epoch of a neural fit: its mean loss and the fidelity on the held-out episodes after it. */
export interface NeuralEpoch {
  epoch: number;
  loss: NeuralLoss | null;
  validation: ScoreMeans | null;
}

/** The `training` field of a `.dgx` header. */
export interface NeuralTrainingRecord {
  /** Who fitted it: the command line or the app. */
  source: 'cli' | 'app';
  env: string;
  /** The replay buffer it learned from, as its caller names it (a file path in the CLI). */
  buffer?: string;
  epochs: number;
  k: number;
  seed: number;
  /** The fit's event weight (see `FitOptions.eventWeight`), recorded only when it was not 1. */
  eventWeight?: number;
  /** False when fitted without reasoning (examples posed without their annotations); recorded only then. */
  reasoning?: false;
  /** Real transitions it learned from, and those held out for the per-epoch fidelity. */
  transitions: number;
  validationTransitions: number;
  /** Training rows per head (candidate lines, candidate actions, transitions). */
  rows: Record<string, number>;
  seconds: number;
  history: NeuralEpoch[];
  /** The epochs finished when a stop cut the fit short (of `epochs` asked for); absent for a whole fit. */
  stoppedAfter?: number;
}

/** What a reader can rely on, whatever wrote the file. */
export interface TrainingSummary {
  transitions: number | null;
  validationTransitions: number | null;
  history: NeuralEpoch[];
  /** Epochs finished when the fit was stopped, of `epochsAsked`; null for a whole fit (or an older file). */
  stoppedAfter: number | null;
  epochsAsked: number | null;
}

/** Epochs a record may list; the fit refuses more. */
export const MAX_RECORDED_EPOCHS = 100;

const finite = v.pipe(v.number(), v.finite());
const count = v.pipe(v.number(), v.safeInteger(), v.minValue(0));
const lossSchema = v.object({ line: finite, action: finite, transition: finite, reasoning: v.optional(finite) });
const scoreSchema = v.object({
  nextStateF1: finite,
  actionSetF1: finite,
  rewardMae: finite,
  rewardAccuracy: finite,
  doneAccuracy: finite,
  exactNextState: finite,
  invalidRate: finite,
});
const epochSchema = v.looseObject({ epoch: count });

function parsed<T>(schema: v.GenericSchema<unknown, T>, value: unknown): T | null {
  const result = v.safeParse(schema, value);
  return result.success ? result.output : null;
}

/** The record of a fit, ready for the file header. */
export function trainingRecord(record: NeuralTrainingRecord): NeuralTrainingRecord {
  return { ...record, rows: { ...record.rows }, history: record.history.map((e) => ({ epoch: e.epoch, loss: e.loss && { ...e.loss }, validation: e.validation && { ...e.validation } })) };
}

/** The well-formed part of a header's training record. */
export function readTrainingRecord(training: unknown): TrainingSummary {
  const record = typeof training === 'object' && training !== null ? (training as Record<string, unknown>) : {};
  const list = Array.isArray(record.history) ? (record.history as unknown[]) : [];
  const history = list.slice(0, MAX_RECORDED_EPOCHS).flatMap((entry): NeuralEpoch[] => {
    const epoch = parsed(epochSchema, entry);
    if (epoch === null) return [];
    const fields = entry as Record<string, unknown>;
    return [{ epoch: epoch.epoch, loss: parsed(lossSchema, fields.loss), validation: parsed(scoreSchema, fields.validation) }];
  });
  return {
    transitions: parsed(count, record.transitions) ?? parsed(count, record.realTransitions),
    validationTransitions: parsed(count, record.validationTransitions),
    history,
    stoppedAfter: parsed(count, record.stoppedAfter),
    epochsAsked: parsed(count, record.epochs),
  };
}
