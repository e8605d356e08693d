/**
 * Experience model files (.dgx): a trained neural experience model in the same container as
 * policy files (core/weight-file.ts) — JSON header, float32 weights, SHA-256, the same checks — but
 * with magic "DGXF" and format "dreamgym-experience", so neither kind loads as the other.
 *
 * These are container functions only: the model supplies its architecture and featurizer JSON in
 * the meta (algorithm 'supervised'), and an expectedWeights callback when decoding.
 */
import { DreamGymError } from '../../core/errors.ts';
import {
  ContainerCodec,
  DGP_MAX_BYTES,
  EXPERIENCE_CONTAINER,
  type ContainerHeader,
  type ContainerProblem,
  type DecodeOptions,
  type WeightFileMeta,
  type WeightEntry,
} from '../../core/weight-file.ts';

export { EXPERIENCE_CONTAINER };
export type { WeightEntry };

export const DGX_MAGIC = EXPERIENCE_CONTAINER.magic;
export const DGX_VERSION = EXPERIENCE_CONTAINER.version;
/** Default cap on the size of a file accepted by decodeExperienceFile / readExperienceHeader. */
export const DGX_MAX_BYTES = DGP_MAX_BYTES;

/** What the model provides: the same fields as a policy file's meta. */
export type ExperienceFileMeta = WeightFileMeta;
export type ExperienceFileHeader = ContainerHeader<'dreamgym-experience'>;
export type ExperienceDecodeOptions = DecodeOptions<ExperienceFileHeader>;

/**
 * Same problems as a policy file, except that "this is not an experience model file" (another file
 * type, an empty file, or a .dgp policy file) is 'wrong-kind' where policy files say 'not-a-policy'.
 */
export type ModelFileProblem = ContainerProblem;

/** An experience model file could not be written or read; `problem` says which kind of trouble. */
export class ModelFileError extends DreamGymError {
  readonly problem: ModelFileProblem;
  constructor(problem: ModelFileProblem, message: string, options?: { cause?: unknown }) {
    super(`model-file-${problem}`, message, options);
    this.problem = problem;
  }
}

const codec = new ContainerCodec(
  EXPERIENCE_CONTAINER,
  (problem, message, options) => new ModelFileError(problem, message, options),
);

/** Writes an experience model file. Throws ModelFileError for inconsistent shapes, NaN/Infinity or bad meta. */
export function encodeExperienceFile(meta: ExperienceFileMeta, weights: WeightEntry[]): Uint8Array {
  return codec.encode(meta, weights);
}

/** Reads and fully checks an experience model file. Throws ModelFileError saying exactly what is wrong. */
export function decodeExperienceFile(
  bytes: Uint8Array,
  options?: ExperienceDecodeOptions,
): { header: ExperienceFileHeader; weights: WeightEntry[] } {
  return codec.decode(bytes, options);
}

/** Only the header, validated (to show a file before loading it); weights are not read. */
export function readExperienceHeader(
  bytes: Uint8Array,
  options?: Pick<ExperienceDecodeOptions, 'maxBytes'>,
): ExperienceFileHeader {
  return codec.readHeader(bytes, options);
}
