/**
 * `npm run experiment -- missed-successes --env <shop|home> --policy FILE.dgp --model FILE.dgx --buffer FILE.jsonl [--heldout 1000] [--k 3] [--seed 1]`
 * prints, one JSON line each, every real success among a policy's own greedy held-out steps (as
 * `experience eval --policy` scores them): the task, the action, what the neural model predicted
 * (reward, done) and the k examples retrieval gave it with their rewards. It shows why the model
 * misses the successes a policy earns (results/experience-model/fidelity/README.md).
 */
import type { EnvSpec } from '../src/envs/spec.ts';
import { isRealSuccess } from '../src/experience/success.ts';
import { measureFidelity, type TransitionScore } from '../src/experience/fidelity.ts';
import type { ExperienceModel } from '../src/experience/types.ts';
import { onPolicyTransitions } from '../src/jobs/evaluate-fidelity.ts';
import type { Policy } from '../src/policy/policy.ts';
import type { ReplayBuffer } from '../src/replay/retrieval.ts';

export interface SuccessStep {
  task: string;
  /** The real step's reward and its teacher annotation (what really happened). */
  real: { reward: number; done: boolean; reasoning: string };
  /** The model's reasoning for it. */
  reasoning: string;
  /** Steps taken before this one. */
  step: number;
  action: string;
  /** What the model predicted, scored as `experience eval` scores it. */
  predicted: { done: boolean; success: boolean; rewardError: number };
  /** The retrieved examples: their task, action, reward and done. */
  examples: { instruction: string; action: string; reward: number; done: boolean }[];
}

/**
 * The real successes among the policy's steps (`which: 'real'`), or the steps the model calls a
 * success that were not one (`which: 'false'`: its false successes, what a dream would wrongly reward).
 */
export async function missedSuccesses(spec: EnvSpec, options: { policy: Policy; model: ExperienceModel; buffer: ReplayBuffer; k: number; heldout: number; seed: number; which?: 'real' | 'false' }): Promise<SuccessStep[]> {
  const { heldout } = await onPolicyTransitions(spec, options.policy, options.heldout, options.seed);
  const which = options.which ?? 'real';
  const asked = which === 'real' ? heldout.filter((h) => isRealSuccess(h.transition)) : heldout.filter((h) => !isRealSuccess(h.transition));
  if (asked.length === 0) return [];
  // The fidelity measurement itself, on these steps alone: the same retrieval, inputs and scores.
  const { inputs, scores, predictions } = await measureFidelity({ model: options.model, buffer: options.buffer, k: options.k, heldout: asked });
  const rows = asked.map(({ transition: t }, i) => {
    const score = scores[i] as TransitionScore;
    return {
      task: t.instruction,
      real: { reward: t.reward, done: t.done, reasoning: t.reasoning ?? '' },
      reasoning: predictions[i]?.reasoning ?? '',
      step: t.history.length,
      action: t.action,
      predicted: { done: score.predictedDone, success: score.predictedSuccess, rewardError: score.rewardError },
      examples: (inputs[i]?.examples ?? []).map((e) => ({ instruction: e.instruction, action: e.action, reward: e.reward, done: e.done })),
    };
  });
  return which === 'real' ? rows : rows.filter((r) => r.predicted.success);
}
