/**
 * Neural experience models to and from `.dgx` files. The header records the architecture (head
 * widths) and the feature layout, so a loader rebuilds exactly the network the weights belong to,
 * and a file made by a build that computes different features is refused instead of giving
 * silently wrong predictions.
 */
import { decodeExperienceFile, encodeExperienceFile, ModelFileError, readExperienceHeader, type ExperienceFileHeader } from './model-file.ts';
import { architectureOf, ACTION_DENSE, HASH_SLOTS, LINE_DENSE, NeuralExperienceModel, REQUIREMENTS, TRANSITION_DENSE, type NeuralConfig } from './model.ts';
import { REASONING_DENSE } from './reasoning.ts';
import { NeuralNetwork, weightPlan } from './network.ts';
import { headerInteger } from '../../core/weight-file.ts';

export const ARCHITECTURE_KIND = 'candidate-mlp';
/** Bump when the candidates (transition-candidates.ts and the modules it draws on) compute different features: old files then fail with a clear message. */
export const FEATURES_VERSION = 9;

export interface NeuralFileInfo {
  backend: string;
  training: Record<string, unknown>;
  evaluation: Record<string, unknown> | null;
  createdAt: string;
}

function featureLayout(): Record<string, unknown> {
  return { version: FEATURES_VERSION, lineDense: LINE_DENSE, actionDense: ACTION_DENSE, transitionDense: TRANSITION_DENSE, reasoningDense: REASONING_DENSE, hashSlots: { ...HASH_SLOTS }, requirements: { ...REQUIREMENTS } };
}

const int = (value: unknown, field: string, max: number): number => headerInteger(value, field, max, (message) => new ModelFileError('header', message));

/** The model config a header describes, or a ModelFileError('header') naming the bad field. */
export function neuralConfigFromHeader(header: Pick<ExperienceFileHeader, 'architecture' | 'featurizer'>): NeuralConfig {
  const arch = header.architecture;
  if (arch.kind !== ARCHITECTURE_KIND) throw new ModelFileError('header', `architecture.kind is ${JSON.stringify(arch.kind)}; this build runs "${ARCHITECTURE_KIND}" experience models`);
  if (JSON.stringify(header.featurizer) !== JSON.stringify(featureLayout())) {
    throw new ModelFileError('header', `the file was made with a different feature layout (${JSON.stringify(header.featurizer).slice(0, 120)}) than this build computes; fit the model again with this version`);
  }
  const threshold = arch.keepThreshold;
  if (typeof threshold !== 'number' || !(threshold > 0 && threshold < 1)) throw new ModelFileError('header', `header field architecture.keepThreshold must be a number between 0 and 1, got ${JSON.stringify(threshold)}`);
  return {
    hidden: int(arch.hidden, 'architecture.hidden', 4096),
    lineBuckets: int(arch.lineBuckets, 'architecture.lineBuckets', 1 << 16),
    actionBuckets: int(arch.actionBuckets, 'architecture.actionBuckets', 1 << 16),
    transitionBuckets: int(arch.transitionBuckets, 'architecture.transitionBuckets', 1 << 16),
    reasoningBuckets: int(arch.reasoningBuckets, 'architecture.reasoningBuckets', 1 << 16),
    keepThreshold: threshold,
  };
}

export async function exportNeuralModel(model: NeuralExperienceModel, info: NeuralFileInfo): Promise<Uint8Array> {
  return encodeExperienceFile(
    {
      env: model.meta.env,
      algorithm: 'supervised',
      backend: info.backend,
      architecture: { kind: ARCHITECTURE_KIND, ...model.meta.config },
      featurizer: featureLayout(),
      // What the model reads at prediction time travels with it, whatever record the caller writes.
      training: { ...info.training, ...model.knowledge() },
      evaluation: info.evaluation,
      createdAt: info.createdAt,
    },
    await model.network.getWeights(),
  );
}

/** Header only (to show a file before loading it). */
export function inspectNeuralModel(bytes: Uint8Array): ExperienceFileHeader {
  return readExperienceHeader(bytes);
}

/** `importNeuralModel` for a model that must simulate `env`: one fitted on another is disposed and refused. */
export function importNeuralModelFor(bytes: Uint8Array, env: string): { model: NeuralExperienceModel; header: ExperienceFileHeader } {
  const loaded = importNeuralModel(bytes);
  if (loaded.header.env !== env) {
    loaded.model.dispose();
    throw new ModelFileError('header', `the file is for ${loaded.header.env}, not ${env}`);
  }
  return loaded;
}

/** A ready model and its header; every check runs before a weight is used. */
export function importNeuralModel(bytes: Uint8Array): { model: NeuralExperienceModel; header: ExperienceFileHeader } {
  const { header, weights } = decodeExperienceFile(bytes, { expectedWeights: (h) => weightPlan(architectureOf(neuralConfigFromHeader(h))) });
  const config = neuralConfigFromHeader(header);
  const network = new NeuralNetwork(architectureOf(config), { weights });
  return { model: new NeuralExperienceModel(network, { env: header.env, config, training: header.training }), header };
}
