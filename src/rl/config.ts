/** One typed config per algorithm, with the defaults the CLI and the app start from. */
import type { TrainOnly } from '../policy/network.ts';

export interface CommonConfig {
  /** Adam learning rate at the start of training. */
  learningRate: number;
  /** 'linear' anneals the rate to 0 over the run's real-transition budget (CleanRL's anneal_lr). */
  learningRateSchedule: 'constant' | 'linear';
  /** Passes over each batch of experience. */
  epochs: number;
  /** Samples (steps) per gradient step. */
  minibatchSize: number;
  /** PPO's ratio clip ε. */
  clip: number;
  /** Weight of the entropy bonus. */
  entropyCoef: number;
  /** Clip the global gradient L2 norm to this; null leaves it unclipped. */
  maxGradNorm: number | null;
  /** Stop the epochs of an update once approximate KL(old‖new) exceeds this; null never stops. */
  targetKl: number | null;
  /** Environments stepped in lockstep while collecting. */
  parallelEnvs: number;
  /**
   * Which weights the updates change; absent, all of them. 'relations': only the policy's relation
   * weights (the linear path from each action's relation features to its logit, featurizer.ts) and
   * its value head, the words' path left as it started. The relations are what a page of any site
   * shares with another (the request names this, it was done before); the hashed words are the
   * site's own. For pretraining on some sites to play others; results/pretrain/ measures what it
   * carries (at PPO's rate, nothing moves; at ten times it, the pretraining families' balance of
   * relations, which does not carry either).
   */
  trainOnly?: TrainOnly;
}

export const TRAIN_ONLY: readonly TrainOnly[] = ['relations'];

export interface PpoConfig extends CommonConfig {
  algo: 'ppo';
  /** Episodes collected per iteration (one update each). */
  episodesPerIteration: number;
  /**
   * Episodes of each distinct task in an iteration (a divisor of episodesPerIteration). Advantages
   * stay GAE's; what changes is the curriculum: with 2 or more, a task is scored by the variance of
   * its own outcomes, as GRPO's groups are, instead of by its embedding cluster's.
   */
  rolloutsPerTask: number;
  gamma: number;
  /** GAE λ. */
  gaeLambda: number;
  valueCoef: number;
  /** Clip the value update to ±this around the old value (CleanRL's clip_vloss); null disables. */
  valueClip: number | null;
  /** Normalise advantages within each minibatch. */
  normalizeAdvantages: boolean;
}

export interface GrpoConfig extends CommonConfig {
  algo: 'grpo';
  /** Tasks per iteration; each is attempted `groupSize` times. */
  tasksPerIteration: number;
  /** G: rollouts per task whose outcomes are normalised against each other. */
  groupSize: number;
  /** Weight of KL(π‖π_ref) to the frozen reference (the policy at the start of training); 0 disables. */
  klCoef: number;
  /**
   * How the loss averages over steps. 'step': one mean over every step (DAPO's token-level mean).
   * 'trajectory': each trajectory's steps are averaged first, then the trajectories (DeepSeekMath's
   * 1/|o_i|), so a long failed episode weighs no more than a short success.
   */
  lossAverage: 'step' | 'trajectory';
}

export type AlgoConfig = PpoConfig | GrpoConfig;
export const LR_SCHEDULES: readonly CommonConfig['learningRateSchedule'][] = ['constant', 'linear'];
export const LOSS_AVERAGES: readonly GrpoConfig['lossAverage'][] = ['step', 'trajectory'];
export type AlgoName = AlgoConfig['algo'];
export const ALGORITHMS: readonly AlgoName[] = ['ppo', 'grpo'];

const COMMON: CommonConfig = {
  learningRate: 1e-3,
  learningRateSchedule: 'linear',
  epochs: 4,
  minibatchSize: 256,
  clip: 0.2,
  entropyCoef: 0.01,
  maxGradNorm: 0.5,
  targetKl: 0.05,
  parallelEnvs: 32,
};

export const DEFAULT_PPO: PpoConfig = {
  ...COMMON,
  algo: 'ppo',
  episodesPerIteration: 64,
  rolloutsPerTask: 1,
  gamma: 0.99,
  gaeLambda: 0.95,
  valueCoef: 0.5,
  valueClip: 0.2,
  normalizeAdvantages: true,
};

export const DEFAULT_GRPO: GrpoConfig = {
  ...COMMON,
  algo: 'grpo',
  tasksPerIteration: 8,
  groupSize: 8,
  klCoef: 0,
  lossAverage: 'step',
};

export function defaultConfig(algo: AlgoName): AlgoConfig {
  return algo === 'ppo' ? { ...DEFAULT_PPO } : { ...DEFAULT_GRPO };
}

/** Episodes each distinct task gets in one iteration: GRPO's group, PPO's rollouts per task. */
export function rolloutsPerTask(config: AlgoConfig): number {
  return config.algo === 'ppo' ? config.rolloutsPerTask : config.groupSize;
}

/** Episodes one iteration collects. */
export function episodesPerIteration(config: AlgoConfig): number {
  return config.algo === 'ppo' ? config.episodesPerIteration : config.tasksPerIteration * config.groupSize;
}
