/**
 * Policy files (.dgp): the weight-file container (core/weight-file.ts) with magic "DGPF" and
 * format "dreamgym-policy". What a policy's header holds is policy-file.ts's business.
 */
import { DreamGymError } from '../core/errors.ts';
import {
  ContainerCodec,
  DGP_MAX_BYTES,
  POLICY_CONTAINER,
  type ContainerHeader,
  type ContainerProblem,
  type DecodeOptions,
  type WeightEntry,
  type WeightFileMeta,
} from '../core/weight-file.ts';

export { DGP_MAX_BYTES, POLICY_CONTAINER, type WeightEntry };
export const DGP_MAGIC = POLICY_CONTAINER.magic;
export const DGP_VERSION = POLICY_CONTAINER.version;

/** What a policy's exporter provides. */
export type PolicyFileMeta = WeightFileMeta;
export type PolicyFileHeader = ContainerHeader<'dreamgym-policy'>;

/** The container's problems, except that "not a policy file at all" is 'not-a-policy'. */
export type PolicyFileProblem = Exclude<ContainerProblem, 'wrong-kind'> | 'not-a-policy';

/** A policy file could not be written or read; `problem` says which kind of trouble. */
export class PolicyFileError extends DreamGymError {
  readonly problem: PolicyFileProblem;
  constructor(problem: PolicyFileProblem, message: string, options?: { cause?: unknown }) {
    super(`policy-file-${problem}`, message, options);
    this.problem = problem;
  }
}

const policyCodec = new ContainerCodec(
  POLICY_CONTAINER,
  (problem, message, options) =>
    new PolicyFileError(problem === 'wrong-kind' ? 'not-a-policy' : problem, message, options),
);

/** Writes a policy file. Throws PolicyFileError for inconsistent shapes, NaN/Infinity or bad meta. */
export function encodePolicyFile(meta: PolicyFileMeta, weights: WeightEntry[]): Uint8Array {
  return policyCodec.encode(meta, weights);
}

/** Only the header, validated (for showing a file's header before loading); weights are not read. */
export function readPolicyHeader(bytes: Uint8Array, options?: Pick<DecodeOptions, 'maxBytes'>): PolicyFileHeader {
  return policyCodec.readHeader(bytes, options);
}

/** Reads and fully checks a policy file. Throws PolicyFileError saying exactly what is wrong. */
export function decodePolicyFile(
  bytes: Uint8Array,
  options?: DecodeOptions<PolicyFileHeader>,
): { header: PolicyFileHeader; weights: WeightEntry[] } {
  return policyCodec.decode(bytes, options);
}
