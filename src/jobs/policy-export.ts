/**
 * A trained policy as a `.dgp` file, with the training summary and the last held-out evaluation in
 * its header: one way to write it for the CLI's `train --out` and the Train view's Export, so a
 * policy file says the same things whichever made it.
 */
import type { IterationMetrics } from '../train/metrics.ts';
import { exportPolicy } from '../policy/policy-file.ts';
import type { OfflineTrainer } from '../train/offline/trainer.ts';
import type { InitialPolicyInfo, Trainer } from '../train/trainer.ts';

/** Safe mid-run (the Train view exports a running policy): the weights are read in one pass. */
export function exportTrainedPolicy(trainer: Trainer | OfflineTrainer, backend: string, now: number = Date.now()): Promise<Uint8Array> {
  const { env, mode, seed } = trainer.options;
  // An offline run is named by its loss (its mode) and takes no real step.
  const { algo, realBudget } = 'algo' in trainer.options ? trainer.options : { algo: mode, realBudget: 0 };
  const last = trainer.history.at(-1);
  const evaluation = trainer.lastEval;
  return exportPolicy(trainer.policy, {
    env,
    algorithm: algo,
    backend,
    training: {
      mode,
      seed,
      realBudget,
      realTransitions: trainer.realTransitions,
      syntheticTransitions: trainer.syntheticTransitions,
      iterations: last?.iteration ?? 0,
      wallSeconds: last?.wallSeconds ?? 0,
      curve: curveSummary(trainer.history),
      // A fine-tuned or transferred policy says what it started from (its card shows it).
      // Not its path, which says nothing on another machine.
      ...('initialPolicy' in trainer && trainer.initialPolicy ? { initialPolicy: withoutPath(trainer.initialPolicy) } : {}),
    },
    evaluation: evaluation
      ? { split: evaluation.split, episodes: evaluation.episodes, successRate: evaluation.successRate, meanScore: evaluation.meanScore, actionsDigest: evaluation.actionsDigest }
      : null,
    createdAt: new Date(now).toISOString(),
  });
}

/** Points of the card's curve: transitions spent (real + synthetic) and a success rate. */
export type CurvePoint = [transitions: number, successRate: number];

/**
 * The learning curve in a few numbers, for the policy's card: every held-out evaluation during
 * training, and the training success at up to 10 evenly spaced iterations.
 */
export function curveSummary(history: readonly IterationMetrics[]): { heldOut: CurvePoint[]; training: CurvePoint[] } {
  const spent = (m: IterationMetrics): number => m.realTransitions + m.syntheticTransitions;
  const round = (x: number): number => Math.round(x * 1000) / 1000;
  const heldOut = history.filter((m) => m.eval).map((m): CurvePoint => [spent(m), round(m.eval?.successRate ?? 0)]);
  const step = Math.max(1, Math.ceil(history.length / 10));
  const training = history.filter((_, i) => i % step === step - 1 || i === history.length - 1).map((m): CurvePoint => [spent(m), round(m.successRate)]);
  return { heldOut, training };
}

function withoutPath({ name: _path, ...source }: InitialPolicyInfo): Omit<InitialPolicyInfo, 'name'> {
  return source;
}
