/**
 * The learned tfjs experience model (experience/neural/): the offline default, fitted from a
 * buffer's real transitions into a `.dgx` file (`experience fit`, or the Experience view). Its
 * tensors live on the tfjs backend the caller started first.
 */
import * as v from 'valibot';
import { UsageError } from '../../core/errors.ts';
import { importNeuralModelFor, inspectNeuralModel } from '../../experience/neural/model-io.ts';
import { PredictionPool } from '../../experience/neural/prediction-pool.ts';
import { integerIn } from '../bounds-spec.ts';
import { MAX_DEFAULT_WORKERS, WORKERS_PAY_FROM } from '../prediction-worker-count.ts';
import type { ExperienceModelEntry } from './entry.ts';

/** More threads than this would hold more copies of the model than a dream's batch has shards worth splitting. */
const MAX_PREDICTION_WORKERS = 7;

export const neuralExperience: ExperienceModelEntry = {
  kind: 'neural',
  label: 'Neural (no download)',
  help: 'a small network learned here from the real transitions in the buffer; the default (kNN answers until it is fitted)',
  runsIn: ['node', 'worker'],
  settings: {
    model: {
      flag: 'model',
      label: 'Model file (.dgx)',
      help: 'the fitted model (in the app: the one this browser keeps for the env, fitted or imported in the Experience view)',
      value: 'FILE.dgx',
      input: 'file',
      // Required on the command line (requiredHint); a worker reads the model it keeps instead.
      schema: v.optional(v.string()),
      // `pretrained` is read by the Node caller's file reader (jobs/model-file.ts → jobs/pretrained.ts).
      requiredHint: '(fit one with: experience fit --env E --buffer FILE.jsonl --out FILE.dgx; or pretrained: the shipped pretrained web model)',
    },
    workers: {
      flag: 'prediction-workers',
      label: 'Prediction workers',
      help: `threads that predict a batch's shards beside the caller's own (0–${MAX_PREDICTION_WORKERS}); default: the cores there are, less one, at most ${MAX_DEFAULT_WORKERS}, and none for a run of under ${WORKERS_PAY_FROM.toLocaleString('en')} predictions`,
      value: 'N',
      input: 'number',
      schema: v.optional(integerIn(0, MAX_PREDICTION_WORKERS)),
    },
  },
  async build(settings, context) {
    const path = settings.model as string | undefined;
    if (!context.readFile) throw new UsageError('a neural experience model is read from a .dgx file, and this caller reads none');
    const bytes = await context.readFile(path, 'model');
    // The header alone first: a model of another env is refused before its weights are loaded.
    const header = inspectNeuralModel(bytes);
    const env = context.env ?? header.env;
    if (header.env !== env) throw new UsageError(`${path !== undefined ? `--model ${path}` : 'the neural model'} simulates ${header.env}, not ${env}; fit one on ${env} transitions`);
    const model = importNeuralModelFor(bytes, env).model;
    const workers = context.predictionWorkers;
    const count = (settings.workers as number | undefined) ?? workers?.count ?? 0;
    return workers && count > 0 ? new PredictionPool(model, bytes, { ...workers, count }) : model;
  },
};
