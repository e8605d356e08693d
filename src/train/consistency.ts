/**
 * A backend-independent training probe: the same seeded policy, the same batch of PPO samples
 * (oracle steps on shop tasks, so no sampling is involved), the same minibatch order, a few
 * updates. Two backends that implement tfjs correctly give the same losses and logits up to
 * float rounding; the browser test compares webgpu with cpu this way.
 */
import { Rng } from '../core/rng.ts';
import type { Observation } from '../core/types.ts';
import { envSpec } from '../envs/registry.ts';
import { DEFAULT_FEATURIZER } from '../policy/featurizer.ts';
import { batchTensors, DEFAULT_POLICY, Policy, type PolicyConfig } from '../policy/policy.ts';
import { Adam } from '../rl/adam.ts';
import { DEFAULT_PPO } from '../rl/config.ts';
import { optimize, type UpdateSample } from '../rl/update.ts';
import { tf } from '../platform/tf.ts';

export interface ProbeResult {
  backend: string;
  samples: number;
  /** Mean policy loss of each update, in order. */
  policyLosses: number[];
  valueLosses: number[];
  /** Logits of the first probe samples after the updates, flattened (masked entries dropped). */
  logits: number[];
}

export const PROBE_POLICY: PolicyConfig = {
  ...DEFAULT_POLICY,
  hidden: 32,
  featurizer: { ...DEFAULT_FEATURIZER, stateBuckets: 512, actionBuckets: 256 },
};

async function oracleSamples(policy: Policy, tasks: number): Promise<UpdateSample[]> {
  const spec = envSpec('shop');
  const env = spec.createEnv();
  const samples: UpdateSample[] = [];
  for (const task of spec.tasks('train').slice(0, tasks)) {
    const oracle = spec.createOracle();
    let observation: Observation = await env.reset(task);
    oracle.reset(task, observation);
    const history: string[] = [];
    for (let step = 0; step < 15; step++) {
      const action = oracle.act(observation);
      const input = { env: task.env, instruction: task.instruction, observation, history };
      const candidates = policy.candidates(input);
      // The oracle may search for text the proposer does not offer; keep only steps it can choose.
      const index = candidates.indexOf(action);
      if (index >= 0) {
        samples.push({
          features: policy.featurizer.featurize(input, candidates),
          actionIndex: index,
          oldLogProb: -Math.log(candidates.length),
          advantage: 1 - step / 15,
          returnTarget: 1,
          oldValue: 0,
          referenceLogProb: 0,
        });
      }
      const result = await env.step(action);
      history.push(action);
      observation = result.observation;
      if (result.done) break;
    }
  }
  return samples;
}

export async function probeUpdates(options: { backend: string; seed: number; updates: number; tasks?: number; policy?: PolicyConfig }): Promise<ProbeResult> {
  const policy = new Policy(options.policy ?? PROBE_POLICY, options.seed);
  const samples = await oracleSamples(policy, options.tasks ?? 12);
  const optimizer = new Adam(policy.network.variables);
  const rng = new Rng(`probe:${options.seed}`);
  const config = { ...DEFAULT_PPO, epochs: 1, minibatchSize: 16, targetKl: null, normalizeAdvantages: false };
  const policyLosses: number[] = [];
  const valueLosses: number[] = [];
  for (let u = 0; u < options.updates; u++) {
    const stats = await optimize(policy, optimizer, samples.slice(0, 16), config, 1e-3, rng);
    policyLosses.push(stats.policyLoss);
    valueLosses.push(stats.valueLoss);
  }
  const probe = samples.slice(0, 8);
  const logitsT = tf.tidy(() => policy.network.forward(batchTensors(probe.map((s) => s.features), policy.config.featurizer)).logits);
  const flat = await logitsT.data<'float32'>();
  const K = logitsT.shape[1] as number;
  logitsT.dispose();
  const logits: number[] = [];
  probe.forEach((s, n) => {
    for (let k = 0; k < s.features.actions.length; k++) logits.push(flat[n * K + k] as number);
  });
  policy.dispose();
  optimizer.dispose();
  return { backend: options.backend, samples: samples.length, policyLosses, valueLosses, logits };
}
