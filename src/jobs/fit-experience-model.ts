/**
 * Fit the neural experience model on a replay buffer's real transitions and package it as a
 * `.dgx` file: the one entry point the CLI's `experience fit` and the app's experience worker call,
 * so the file they write, its training record included, is the same. (bench/neural.ts times
 * fitNeuralModel itself, without the file.)
 */
import { UsageError } from '../core/errors.ts';
import { envSpec } from '../envs/registry.ts';
import { fitNeuralModel, type FitProgress, type FitResult } from '../experience/neural/fit.ts';
import { exportNeuralModel, importNeuralModel, inspectNeuralModel } from '../experience/neural/model-io.ts';
import { ModelFileError } from '../experience/neural/model-file.ts';
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
  /**
   * Fine-tune this model instead of fitting from nothing (`experience fit --init`): its bytes (a
   * `.dgx` of the same env) and how the caller names it; the file it writes records both.
   */
  init?: { name: string; bytes: Uint8Array };
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
  /** The model it was fine-tuned from (`FitContext.init`). */
  init?: FitInitInfo;
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
  const init = context.init ? initialModel(context.init, spec.env) : null;
  const fit = await fitNeuralModel({
    ...(init ? { init: init.model } : {}),
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
  }).finally(() => init?.model.dispose());
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
      training: { ...record, ...(fit.stopped ? { stoppedAfter: history.length } : {}), ...(init ? { init: init.info } : {}) },
      evaluation: last ? { split: 'held-out episodes of the buffer', transitions: fit.validationTransitions, ...last } : null,
      createdAt,
    });
  } catch (error) {
    fit.model.dispose();
    throw error;
  }
  const { model, ...rest } = fit;
  return { model, bytes, record, createdAt, fit: rest, ...(init ? { init: init.info } : {}) };
}

/** Where a fine-tuned model started: the file as its caller named it, and its weights by content (a path may later hold another model). */
export interface FitInitInfo {
  name: string;
  weightsSha256: string;
  /** The buffer the initial model was fitted on, as its own record names it. */
  buffer: string | null;
}

/**
 * The `--init` model's file checked by its header alone (a caller refuses it before loading a
 * buffer): a file that is not a model, or one of another env, is refused naming it.
 */
export function checkInitialModel(init: { name: string; bytes: Uint8Array }, env: string): void {
  const header = asInitProblem(init.name, () => inspectNeuralModel(init.bytes));
  if (header.env !== env) throw new UsageError(`--init ${init.name} simulates ${header.env}, not ${env}; fine-tune a model of ${env} (or fit from nothing without --init)`);
}

function asInitProblem<T>(name: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ModelFileError) throw new UsageError(`--init ${name}: ${error.message}`, { cause: error });
    throw error;
  }
}

/** The `--init` model, loaded and checked (checkInitialModel, then every weight). */
function initialModel(init: { name: string; bytes: Uint8Array }, env: string): { model: NeuralExperienceModel; info: FitInitInfo } {
  checkInitialModel(init, env);
  const { model, header } = asInitProblem(init.name, () => importNeuralModel(init.bytes));
  const buffer = header.training?.['buffer'];
  return { model, info: { name: init.name, weightsSha256: header.weightsSha256, buffer: typeof buffer === 'string' ? buffer : null } };
}
