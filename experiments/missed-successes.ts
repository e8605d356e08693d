/**
 * `npm run experiment -- missed-successes --env <shop|home> --policy FILE.dgp --model FILE.dgx --buffer FILE.jsonl [--heldout 1000] [--k 3] [--seed 1]`
 * prints, one JSON line each, every real success among a policy's own greedy held-out steps (as
 * `experience eval --policy` scores them): the task, the action, what the neural model predicted
 * (reward, done) and the k examples retrieval gave it with their rewards. It shows why the model
 * misses the successes a policy earns (results/fidelity/README.md).
 */
import type { EnvSpec } from '../src/envs/spec.ts';
import { heldoutInput, isPredictedSuccess, isRealSuccess } from '../src/experience/fidelity.ts';
import type { ExperienceModel } from '../src/experience/types.ts';
import { onPolicyTransitions } from '../src/jobs/evaluate-fidelity.ts';
import type { Policy } from '../src/policy/policy.ts';
import type { ReplayBuffer } from '../src/replay/retrieval.ts';

export interface SuccessStep {
  task: string;
  /** Steps taken before this one. */
  step: number;
  action: string;
  predicted: { reward: number; done: boolean; success: boolean };
  /** The retrieved examples: their task, action, reward and done. */
  examples: { instruction: string; action: string; reward: number; done: boolean }[];
}

export async function missedSuccesses(spec: EnvSpec, options: { policy: Policy; model: ExperienceModel; buffer: ReplayBuffer; k: number; heldout: number; seed: number }): Promise<SuccessStep[]> {
  const { heldout } = await onPolicyTransitions(spec, options.policy, options.heldout, options.seed);
  const wins = heldout.filter((h) => isRealSuccess(h.transition));
  if (wins.length === 0) return [];
  const examples = await options.buffer.nearest(
    wins.map(({ transition: t }) => ({ instruction: t.instruction, state: t.state, action: t.action })),
    options.k,
    { env: spec.name, source: 'real' },
  );
  const predictions = await options.model.predict(wins.map((h, i) => heldoutInput(h, examples[i] ?? [])));
  return wins.map((h, i) => {
    const p = predictions[i] as { reward: number; done: boolean };
    return {
      task: h.transition.instruction,
      step: h.transition.history.length,
      action: h.transition.action,
      predicted: { reward: p.reward, done: p.done, success: isPredictedSuccess(p) },
      examples: (examples[i] ?? []).map((e) => ({ instruction: e.instruction, action: e.action, reward: e.reward, done: e.done })),
    };
  });
}
