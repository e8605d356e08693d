/**
 * Policies to and from `.dgp` files. The header records the architecture and featurizer so a
 * loader rebuilds exactly the network the weights belong to; decoding checks the weight shapes
 * against that architecture before any weight is used.
 */
import { headerInteger, showValue } from '../core/weight-file.ts';
import { decodePolicyFile, encodePolicyFile, PolicyFileError, readPolicyHeader, type PolicyFileHeader, type PolicyFileMeta } from './dgp.ts';
import { ACTION_RELATIONS, STATE_FACTS, type FeaturizerConfig } from './featurizer.ts';
import { weightPlan } from './network.ts';
import { PAGE_ACTION_READING } from './page-relations.ts';
import { networkConfig, Policy, type PolicyConfig } from './policy.ts';

export const ARCHITECTURE_KIND = 'choice-mlp';

export type PolicyFileInfo = Omit<PolicyFileMeta, 'architecture' | 'featurizer'>;

const positiveInt = (value: unknown, field: string, max: number): number => headerInteger(value, field, max, (message) => new PolicyFileError('header', message));

/** The policy config a header describes, or a PolicyFileError('header') naming the bad field. */
export function policyConfigFromHeader(header: Pick<PolicyFileHeader, 'env' | 'architecture' | 'featurizer'>): PolicyConfig {
  const arch = header.architecture;
  if (arch.kind !== ARCHITECTURE_KIND) {
    throw new PolicyFileError('header', `architecture.kind is ${showValue(arch.kind)}; this build runs "${ARCHITECTURE_KIND}" policies`);
  }
  const f = header.featurizer;
  const featurizer: FeaturizerConfig = {
    stateBuckets: positiveInt(f.stateBuckets, 'featurizer.stateBuckets', 1 << 20),
    actionBuckets: positiveInt(f.actionBuckets, 'featurizer.actionBuckets', 1 << 20),
    historyWindow: positiveInt(f.historyWindow, 'featurizer.historyWindow', 64),
    maxElements: positiveInt(f.maxElements, 'featurizer.maxElements', 10_000),
  };
  const relations = f.actionRelations;
  if (JSON.stringify(relations) !== JSON.stringify(ACTION_RELATIONS) || JSON.stringify(f.stateFacts) !== JSON.stringify(STATE_FACTS)) {
    throw new PolicyFileError('header', 'the file was made with different featurizer relation features than this build computes; retrain or use a matching DreamGym');
  }
  // Same columns, other meanings: a web policy from before page actions were read as (element,
  // value) learned its weights on household readings of them and would play worse without a word.
  // Shop and home files are unaffected (their actions are read as they always were).
  if (header.env === 'web' && f.pageActions !== PAGE_ACTION_READING) {
    throw new PolicyFileError('header', 'this web policy was trained when page actions were read as household commands (before DreamGym read them as an element and a value); retrain it with this build');
  }
  const finite = (value: unknown, field: string): number => {
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new PolicyFileError('header', `header field ${field} must be a finite number, got ${showValue(value)}`);
    return value;
  };
  // Only initialisation depends on these two; the weights in the file replace what they made.
  const inputInitStd = finite(arch.inputInitStd, 'architecture.inputInitStd');
  const priorScale = finite(arch.priorScale, 'architecture.priorScale');
  return { featurizer, hidden: positiveInt(arch.hidden, 'architecture.hidden', 4096), inputInitStd, priorScale };
}

function expectedWeights(header: PolicyFileHeader): { name: string; shape: number[] }[] {
  return weightPlan(networkConfig(policyConfigFromHeader(header))).map(({ name, shape }) => ({ name, shape }));
}

export async function exportPolicy(policy: Policy, info: PolicyFileInfo): Promise<Uint8Array> {
  const config = policy.config;
  const meta: PolicyFileMeta = {
    ...info,
    architecture: { kind: ARCHITECTURE_KIND, ...networkConfig(config), priorScale: config.priorScale },
    featurizer: { ...config.featurizer, stateFacts: [...STATE_FACTS], actionRelations: [...ACTION_RELATIONS], pageActions: PAGE_ACTION_READING },
  };
  return encodePolicyFile(meta, await policy.network.getWeights());
}

/** The file's header and weights, every shape checked against the architecture it names (no network built). */
export function checkPolicyWeights(bytes: Uint8Array): ReturnType<typeof decodePolicyFile> {
  return decodePolicyFile(bytes, { expectedWeights });
}

/** Header only: what the app shows before loading. */
export function inspectPolicyFile(bytes: Uint8Array): PolicyFileHeader {
  return readPolicyHeader(bytes);
}

/** A ready policy and its header; every check runs before a single weight is assigned. */
export function importPolicy(bytes: Uint8Array): { policy: Policy; header: PolicyFileHeader } {
  const { header, weights } = decodePolicyFile(bytes, { expectedWeights });
  const policy = new Policy(policyConfigFromHeader(header), 0);
  policy.network.setWeights(weights);
  return { policy, header };
}
