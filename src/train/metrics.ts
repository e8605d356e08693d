/** What one training iteration reports: the live charts and the CLI's progress read these. */
import type { EvalResult } from './evaluate.ts';

/** How the curriculum filled an iteration's task slots. */
export interface CurriculumMetrics {
  /** Slots given to generated tasks (at most λ of them). */
  generated: number;
  /** Slots given to tasks never attempted (the exploration floor). */
  explored: number;
  /** Slots given to the tasks whose groups vary most, and their mean variance. */
  byVariance: number;
  meanVariance: number;
  /** Variations generated after this iteration, and the pool's size. */
  newTasks: number;
  pool: number;
}

/** An offline epoch's measures (modes bc and dpo), over its minibatches, each before its step. */
export interface OfflineMetrics {
  /** BC: −log π of the cloned actions; DPO: the DPO loss. */
  loss: number;
  /** BC: share of cloned steps whose greedy choice is the cloned action; DPO: share of pairs whose margin is positive. */
  accuracy: number;
  /** DPO: mean (log π − log π_ref)(chosen) − (log π − log π_ref)(rejected). */
  margin?: number;
  gradientSteps: number;
}

/**
 * In the offline modes an iteration is one epoch over the buffer's data: no episode is played, so
 * the transition counts, `episodes`, `samplesPerIteration` and the training-episode success,
 * score and return are 0, and `offline` holds what the epoch measured.
 */
export interface IterationMetrics {
  iteration: number;
  /** Where this iteration collected (mode s2r changes from dream to real; the offline modes collect nothing). */
  phase: 'real' | 'dream' | 'offline';
  /** Cumulative real-environment steps taken so far (every step, kept or dropped). */
  realTransitions: number;
  /** Cumulative steps in a synthetic environment (0 in mode real). */
  syntheticTransitions: number;
  /** Training episodes the update learned from. */
  episodes: number;
  /** Training episodes a failing page ended (web), left out of the update and the curriculum; absent when none. */
  envErrors?: number;
  /** Environment steps this iteration collected (kept or dropped). */
  samplesPerIteration: number;
  /** On this iteration's (sampled, stochastic) training episodes. */
  successRate: number;
  meanScore: number;
  meanReturn: number;
  entropy: number;
  approxKl: number;
  clipFraction: number;
  policyLoss: number;
  valueLoss: number;
  /** GRPO with klCoef > 0: KL(π‖π_ref) to the policy before training; 0 otherwise. */
  referenceKl: number;
  gradNorm: number;
  learningRate: number;
  /** Steps collected and trained on per wall-clock second in this iteration. */
  samplesPerSecond: number;
  wallSeconds: number;
  curriculum?: CurriculumMetrics;
  offline?: OfflineMetrics;
  /** Present on iterations where the held-out evaluation ran. */
  eval?: EvalResult;
}
