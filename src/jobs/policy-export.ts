/**
 * A trained policy as a `.dgp` file, with the training summary and the last held-out evaluation in
 * its header: one way to write it for the CLI's `train --out` and the Train view's Export, so a
 * policy file says the same things whichever made it.
 */
import { exportPolicy } from '../policy/policy-file.ts';
import type { OfflineTrainer } from '../train/offline/trainer.ts';
import type { Trainer } from '../train/trainer.ts';

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
    },
    evaluation: evaluation
      ? { split: evaluation.split, episodes: evaluation.episodes, successRate: evaluation.successRate, meanScore: evaluation.meanScore, actionsDigest: evaluation.actionsDigest }
      : null,
    createdAt: new Date(now).toISOString(),
  });
}
