/** What one training iteration reports: the live charts and the CLI's progress read these. */
import type { EvalResult } from './evaluate.ts';

export interface IterationMetrics {
  iteration: number;
  /** Cumulative real-environment steps taken so far (every step, kept or dropped). */
  realTransitions: number;
  /** Cumulative steps in a synthetic environment (0 in mode real). */
  syntheticTransitions: number;
  episodes: number;
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
  /** Present on iterations where the held-out evaluation ran. */
  eval?: EvalResult;
}
