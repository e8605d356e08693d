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

export interface IterationMetrics {
  iteration: number;
  /** Where this iteration collected (mode s2r changes from dream to real). */
  phase: 'real' | 'dream';
  /** Cumulative real-environment steps taken so far (every step, kept or dropped). */
  realTransitions: number;
  /** Cumulative steps in a synthetic environment (0 in mode real). */
  syntheticTransitions: number;
  episodes: number;
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
  /** Present on iterations where the held-out evaluation ran. */
  eval?: EvalResult;
}
