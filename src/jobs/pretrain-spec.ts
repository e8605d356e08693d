/**
 * The spec of `pretrain`: every size of the pretraining on the generated apps, with defaults that
 * make a test-sized run (a minute) and bounds far above the real one. The sizes recommended for the
 * real run are `PRETRAIN_RECOMMENDED` (the CLI's usage text prints them). tfjs-free.
 */
import * as v from 'valibot';
import { MAX_EPOCHS } from './fit-spec.ts';
import { integerIn, MAX_EPISODES, numberWithin } from './bounds-spec.ts';
import { MAX_BUDGET, MAX_CHECKPOINT_SECONDS } from './train-spec.ts';
import { SEED } from './spec.ts';
import { MAX_K } from '../replay/retrieval.ts';
import { DEFAULT_FIT } from '../experience/neural/fit-settings.ts';
import { DEFAULT_CHECKPOINT_SECONDS } from '../train/checkpoint.ts';

/**
 * The seeding agents' shares: the oracle shows success, the noisy expert the near misses, the
 * random agent the dead ends a learning policy walks into (replay/seed.ts).
 */
export const PRETRAIN_MIX = 'oracle=0.4,noisy=0.3,random=0.3';

/** Parallel pages at most: each is a Chromium tab. */
const MAX_PARALLEL_ENVS = 256;

export const PRETRAIN_SPEC = v.strictObject({
  seed: v.optional(SEED, 1),
  /** (a) Scripted episodes seeded into the buffer. */
  seedEpisodes: v.optional(integerIn(1, MAX_EPISODES), 24),
  mix: v.optional(v.string(), PRETRAIN_MIX),
  /** (b) Epochs of the experience model's fit on the seeded buffer. */
  epochs: v.optional(integerIn(1, MAX_EPOCHS), 1),
  k: v.optional(integerIn(1, MAX_K), DEFAULT_FIT.k),
  /** (c) Real transitions of PPO on the generated sites. */
  realBudget: v.optional(integerIn(1, MAX_BUDGET), 300),
  episodesPerIteration: v.optional(integerIn(1, MAX_EPISODES), 8),
  parallelEnvs: v.optional(integerIn(1, MAX_PARALLEL_ENVS), 4),
  /** Greedy episodes of the final evaluation, on the pretraining families' test split. */
  evalEpisodes: v.optional(integerIn(1, MAX_EPISODES), 6),
  /** (d) Episodes the trained policy plays into the buffer before the model is fitted again; 0 leaves (d) out. */
  ownEpisodes: v.optional(integerIn(0, MAX_EPISODES), 4),
  /** Epochs of that second fit, which starts from the first one's model. */
  refitEpochs: v.optional(integerIn(1, MAX_EPOCHS), 1),
  /** How often the RL stage saves its checkpoint (a stopped run resumes from the last one). */
  checkpointEvery: v.optional(numberWithin(0, MAX_CHECKPOINT_SECONDS), DEFAULT_CHECKPOINT_SECONDS),
});

export type PretrainSpecInput = v.InferInput<typeof PRETRAIN_SPEC>;
export type PretrainSettings = v.InferOutput<typeof PRETRAIN_SPEC>;

/**
 * The sizes for the real run (hours on a workstation's CPU): about 3,000 seeded episodes (some
 * 25,000 transitions over the six families), the fit's usual 6 epochs, PPO for 100,000 real
 * transitions in iterations of 64 episodes, 300 test episodes to report, and 600 of the policy's
 * own episodes with 2 more epochs.
 */
export const PRETRAIN_RECOMMENDED: Readonly<Partial<Record<keyof PretrainSettings, number>>> = {
  seedEpisodes: 3000,
  epochs: 6,
  realBudget: 100_000,
  episodesPerIteration: 64,
  parallelEnvs: 16,
  evalEpisodes: 300,
  ownEpisodes: 600,
  refitEpochs: 2,
};
