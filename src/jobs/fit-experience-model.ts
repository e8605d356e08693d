/**
 * Fit the neural experience model on a replay buffer's real transitions and package it as a
 * `.dgx` file: the one entry point the CLI's `experience fit` and the app's experience worker call,
 * so the file they write, its training record included, is the same. (bench/neural.ts times
 * fitNeuralModel itself, without the file.)
 */
import { UsageError } from '../core/errors.ts';
import { envSpec } from '../envs/registry.ts';
import { fitNeuralModel, type FitProgress, type FitResult } from '../experience/neural/fit.ts';
import { exportNeuralModel } from '../experience/neural/model-io.ts';
import type { NeuralExperienceModel } from '../experience/neural/model.ts';
import { trainingRecord, type NeuralEpoch, type NeuralTrainingRecord } from '../experience/neural/training-record.ts';
import type { ReplayBuffer } from '../replay/retrieval.ts';
import { FIT_SPEC, type FitSpecInput } from './fit-spec.ts';
import { DEFAULT_FIT } from '../experience/neural/fit-settings.ts';
import { parseSpec, type FieldNamer } from './spec.ts';

export interface FitContext {
  buffer: ReplayBuffer;
  /** The tfjs backend in use, recorded in the file. */
  backend: string;
  source: NeuralTrainingRecord['source'];
  /** How the caller names the buffer in the record (the CLI: its file). */
  bufferName?: string;
  /** How the caller names the spec's fields in its messages (the CLI: flags). */
  fieldName?: FieldNamer;
  /** Ends the fit at once: nothing is returned (the app's Stop). */
  signal?: AbortSignal;
  /** Ends the fit after the epoch in flight: the model fitted so far is returned, and its file says it stopped (the CLI's Ctrl-C). */
  finish?: AbortSignal;
  onProgress?: (progress: FitProgress) => void;
  now?: () => number;
}

export interface FittedExperienceModel {
  model: NeuralExperienceModel;
  /** The `.dgx` file's bytes. */
  bytes: Uint8Array;
  record: NeuralTrainingRecord;
  createdAt: string;
  fit: Omit<FitResult, 'model'>;
}

/** Checks the spec before any work: a bad field is a UsageError naming it. */
export function fitSpec(input: FitSpecInput, fieldName?: FieldNamer) {
  const spec = parseSpec(FIT_SPEC, input, fieldName);
  envSpec(spec.env);
  return spec;
}

export async function fitExperienceModel(input: FitSpecInput, context: FitContext): Promise<FittedExperienceModel> {
  const spec = fitSpec(input, context.fieldName);
  const offline = await context.buffer.store.count({ env: spec.env, source: 'real' });
  if (offline === 0) {
    throw new UsageError(`the buffer${context.bufferName ? ` ${context.bufferName}` : ''} holds no real ${spec.env} transitions to learn from; seed it first (buffer seed --env ${spec.env}, or the Buffer view)`);
  }
  const createdAt = new Date(context.now?.() ?? Date.now()).toISOString();
  const fit = await fitNeuralModel({
    buffer: context.buffer,
    env: spec.env,
    k: spec.k,
    epochs: spec.epochs,
    seed: spec.seed,
    batchSize: spec.batchSize,
    validationShare: spec.validationShare,
    ...(spec.maxTransitions !== undefined ? { maxTransitions: spec.maxTransitions } : {}),
    ...(spec.eventWeight !== DEFAULT_FIT.eventWeight ? { eventWeight: spec.eventWeight } : {}),
    ...(spec.reasoning === 'off' ? { reasoning: false } : {}),
    ...(context.signal ? { signal: context.signal } : {}),
    ...(context.finish ? { finish: context.finish } : {}),
    ...(context.onProgress ? { onProgress: context.onProgress } : {}),
  });
  const history: NeuralEpoch[] = fit.epochs.map((e) => ({ epoch: e.epoch, loss: { ...e.loss }, validation: e.validation ? { ...e.validation } : null }));
  const record = trainingRecord({
    source: context.source,
    env: spec.env,
    ...(context.bufferName !== undefined ? { buffer: context.bufferName } : {}),
    epochs: spec.epochs,
    k: spec.k,
    seed: spec.seed,
    ...(spec.eventWeight !== DEFAULT_FIT.eventWeight ? { eventWeight: spec.eventWeight } : {}),
    ...(spec.reasoning === 'off' ? { reasoning: false as const } : {}),
    transitions: fit.transitions,
    validationTransitions: fit.validationTransitions,
    rows: { ...fit.rows },
    seconds: Number(fit.seconds.toFixed(2)),
    history,
  });
  const last = history.at(-1)?.validation ?? null;
  let bytes: Uint8Array;
  try {
    bytes = await exportNeuralModel(fit.model, {
      backend: context.backend,
      // A stopped fit's file says so: its history holds the epochs done, `epochs` those asked for.
      training: { ...record, ...(fit.stopped ? { stoppedAfter: history.length } : {}) },
      evaluation: last ? { split: 'held-out episodes of the buffer', transitions: fit.validationTransitions, ...last } : null,
      createdAt,
    });
  } catch (error) {
    fit.model.dispose();
    throw error;
  }
  const { model, ...rest } = fit;
  return { model, bytes, record, createdAt, fit: rest };
}
