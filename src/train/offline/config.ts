/**
 * The offline baselines' settings and their defaults, which the CLI's spec and the trainer start
 * from (as src/rl/config.ts is for PPO and GRPO). tfjs-free, so a spec can name the defaults.
 */
import { UsageError } from '../../core/errors.ts';
import type { OfflineMode } from '../modes.ts';

interface OfflineCommon {
  /** Adam's learning rate, constant: an offline run has no budget of transitions to anneal over. */
  learningRate: number;
  /** Passes over the data; each pass is one iteration of the run's history (and of `--eval-every`). */
  epochs: number;
  /**
   * Policy steps per gradient step. DPO fills a minibatch with whole pairs up to this many steps
   * (a trajectory pair counts both its episodes), so a long pair may make a minibatch on its own.
   */
  minibatchSize: number;
  /** Clip the global gradient L2 norm to this (as the RL updates do); null leaves it unclipped. */
  maxGradNorm: number | null;
}

export interface BcConfig extends OfflineCommon {
  algo: 'bc';
}

export interface DpoConfig extends OfflineCommon {
  algo: 'dpo';
  /** β: the scale of the implicit reward β·log(π/π_ref); a smaller β lets the policy move further from the reference. */
  beta: number;
}

export type OfflineConfig = BcConfig | DpoConfig;
export type OfflineSettings = Partial<Omit<BcConfig, 'algo'> & Omit<DpoConfig, 'algo'>>;

/**
 * The modes' own settings, for an environment whose spec gives none (`training.offline`; shop's and
 * home's are chosen on their validation data, results/offline/README.md). These were measured on
 * 200-episode seeded buffers (oracle 0.4, noisy 0.3, random 0.3, seed 1), greedy on 100 episodes of
 * the split the paper table reports, before validation runs existed: cloning at 3e-4 for 10
 * epochs, DPO at 1e-4 (DPO's usual rate, below cloning's) for 10; β = 0.1 is the DPO paper's.
 */
export const OFFLINE_DEFAULTS: { readonly bc: Omit<BcConfig, 'algo'>; readonly dpo: Omit<DpoConfig, 'algo'> } = {
  bc: { learningRate: 3e-4, epochs: 10, minibatchSize: 64, maxGradNorm: 0.5 },
  dpo: { learningRate: 1e-4, epochs: 10, minibatchSize: 64, maxGradNorm: 0.5, beta: 0.1 },
};

/** Epochs a run may name at most. */
export const MAX_EPOCHS = 100_000;
/** DPO's β at most: past it the loss is a step function of the margin's sign. */
export const MAX_BETA = 100;

/** `mode`'s defaults with each of `layers` over them in turn (an undefined value leaves the one below); β belongs to DPO alone. */
export function offlineConfig(mode: OfflineMode, ...layers: (OfflineSettings | undefined)[]): OfflineConfig {
  const given = Object.assign({}, ...layers.map((layer) => Object.fromEntries(Object.entries(layer ?? {}).filter(([, value]) => value !== undefined)))) as OfflineSettings;
  if (mode === 'bc') {
    const { beta, ...rest } = given;
    if (beta !== undefined) throw new UsageError('β is a DPO setting; behaviour cloning has no reference to stay near');
    return { ...OFFLINE_DEFAULTS.bc, ...rest, algo: 'bc' };
  }
  return { ...OFFLINE_DEFAULTS.dpo, ...given, algo: 'dpo' };
}
