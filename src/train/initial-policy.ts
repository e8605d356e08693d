/**
 * Starting a run from a saved policy (`train --init FILE.dgp`, `--init pretrained`): fine-tuning,
 * cloning demonstrations into a pretrained policy, or transfer from another environment's policy.
 * The RL trainer and the offline one (BC, DPO) load it the same way, before their optimizer (and
 * GRPO's or DPO's reference) copy the weights.
 */
import { errorMessage, UsageError } from '../core/errors.ts';
import { checkPolicyWeights, policyConfigFromHeader } from '../policy/policy-file.ts';
import type { Policy, PolicyConfig } from '../policy/policy.ts';

/** Where a run's starting weights came from, when not from its seed. */
export interface InitialPolicyInfo {
  name: string;
  /** The file's weights by content (its header's SHA-256 of them): a path alone may later hold another policy. */
  weightsSha256: string;
  env: string;
  algorithm: string;
  mode: string | null;
}

/**
 * Loads the saved policy's weights into `policy`, whose network `config` describes. A file that is
 * not a policy, or whose network is not this run's, is refused by name.
 */
export function startFromSaved(policy: Policy, config: PolicyConfig, initial: { name: string; bytes: Uint8Array }): InitialPolicyInfo {
  let decoded: ReturnType<typeof checkPolicyWeights>;
  try {
    decoded = checkPolicyWeights(initial.bytes);
  } catch (error) {
    throw new UsageError(`--init ${initial.name}: ${errorMessage(error)}`, { cause: error });
  }
  const theirs = policyConfigFromHeader(decoded.header);
  // Only the shapes matter: inputInitStd and priorScale set a fresh network's starting values, which the file's weights replace.
  const differs = (['featurizer', 'hidden'] as const).filter((key) => JSON.stringify(theirs[key]) !== JSON.stringify(config[key]));
  if (differs.length > 0) throw new UsageError(`--init ${initial.name}: its network differs from the one this run trains (${differs.join(', ')}); start from a policy of this build's default network`);
  policy.network.setWeights(decoded.weights);
  const { header } = decoded;
  return { name: initial.name, weightsSha256: header.weightsSha256, env: header.env, algorithm: header.algorithm, mode: typeof header.training?.mode === 'string' ? header.training.mode : null };
}
