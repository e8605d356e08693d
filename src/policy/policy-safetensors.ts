/**
 * A policy as files others can read: its weights in the safetensors layout (`model.safetensors`)
 * beside `config.json`, the policy's card (environment, mode, algorithm, budgets, held-out
 * success, the architecture and featurizer that give the weights their meaning). Importing the two
 * files back gives the same `.dgp`, checked as any policy file is.
 */
import { boundedText } from '../core/text.ts';
import { showValue } from '../core/weight-file.ts';
import { PolicyFileError, encodePolicyFile, type PolicyFileHeader, type PolicyFileMeta } from './dgp.ts';
import { checkPolicyWeights } from './policy-file.ts';
import { SafetensorsError, decodeSafetensors, encodeSafetensors } from './safetensors.ts';

export const SAFETENSORS_WEIGHTS_FILE = 'model.safetensors';
export const SAFETENSORS_CONFIG_FILE = 'config.json';
export const SAFETENSORS_CONFIG_FORMAT = 'dreamgym-policy-safetensors';

/** `config.json`: the policy's header without the `.dgp` container's own fields. */
export interface PolicySafetensorsConfig extends PolicyFileMeta {
  format: typeof SAFETENSORS_CONFIG_FORMAT;
  version: 1;
  /** The tensors in `model.safetensors`, in the network's order. */
  weights: { name: string; shape: number[]; dtype: 'float32' }[];
}

/** A `.dgp` file as the two files; the weights are checked against the header's architecture first. */
export function policyToSafetensors(dgp: Uint8Array): { weights: Uint8Array; config: PolicySafetensorsConfig } {
  const { header, weights } = checkPolicyWeights(dgp);
  const { format: _format, version: _version, weights: manifest, weightsByteLength: _length, weightsSha256: _sha, ...meta } = header as PolicyFileHeader;
  const config: PolicySafetensorsConfig = { format: SAFETENSORS_CONFIG_FORMAT, version: 1, ...meta, weights: manifest };
  return { weights: encodeSafetensors(weights, { format: 'dreamgym-policy', env: header.env, algorithm: header.algorithm }), config };
}

/** The two files back as a `.dgp` file; a PolicyFileError or SafetensorsError says what does not fit. */
export function policyFromSafetensors(weightsFile: Uint8Array, configText: string): Uint8Array {
  let config: Partial<PolicySafetensorsConfig>;
  try {
    config = JSON.parse(configText) as Partial<PolicySafetensorsConfig>;
  } catch (error) {
    throw new PolicyFileError('header', `${SAFETENSORS_CONFIG_FILE} is not JSON: ${boundedText((error as Error).message)}`);
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new PolicyFileError('not-a-policy', `${SAFETENSORS_CONFIG_FILE} holds ${config === null ? 'null' : Array.isArray(config) ? 'a JSON array' : `a ${typeof config}`}, not a DreamGym policy's config (a JSON object with "format": "${SAFETENSORS_CONFIG_FORMAT}")`);
  }
  if (config.format === undefined) throw new PolicyFileError('not-a-policy', `${SAFETENSORS_CONFIG_FILE} has no "format" field, so it is not a DreamGym policy's config (expected "format": "${SAFETENSORS_CONFIG_FORMAT}")`);
  if (config.format !== SAFETENSORS_CONFIG_FORMAT) throw new PolicyFileError('not-a-policy', `${SAFETENSORS_CONFIG_FILE} is not a DreamGym policy's (format ${showValue(config.format)}, expected "${SAFETENSORS_CONFIG_FORMAT}")`);
  if (!Array.isArray(config.weights)) throw new PolicyFileError('header', `${SAFETENSORS_CONFIG_FILE} lists no weights`);
  const { tensors } = decodeSafetensors(weightsFile);
  const byName = new Map(tensors.map((t) => [t.name, t]));
  const ordered = config.weights.map((w) => {
    // The config is a file: an entry may be null or name no string.
    const name: unknown = typeof w === 'object' && w !== null ? w.name : undefined;
    const tensor = typeof name === 'string' ? byName.get(name) : undefined;
    if (!tensor) throw new SafetensorsError(`${SAFETENSORS_WEIGHTS_FILE} has no tensor ${showValue(name)}, which ${SAFETENSORS_CONFIG_FILE} lists`);
    return tensor;
  });
  if (ordered.length !== tensors.length) throw new SafetensorsError(`${SAFETENSORS_WEIGHTS_FILE} holds ${tensors.length} tensors; ${SAFETENSORS_CONFIG_FILE} lists ${ordered.length}`);
  const { format: _format, version: _version, weights: _weights, ...meta } = config as PolicySafetensorsConfig;
  const dgp = encodePolicyFile(meta, ordered);
  checkPolicyWeights(dgp);
  return dgp;
}

