/**
 * The household environment as the registry sees it.
 */
import type { Rng } from '../../core/rng.ts';
import type { EnvDefinition } from '../spec.ts';
import { HomeOracle, HomeRandom } from './agents.ts';
import { HOME_MAX_STEPS, HomeEnv } from './env.ts';
import { homeTasks, SPLIT_NAMES, SPLIT_SIZES } from './tasks.ts';
import { HomeVariation } from './variation.ts';

export const homeEnvironment: EnvDefinition = {
  name: 'home',
  description: 'ALFWorld-like household: find, clean, heat, cool, light and place objects by text commands.',
  actionSyntax: 'household',
  splits: SPLIT_NAMES.map((name) => ({ name, size: SPLIT_SIZES[name] })),
  testSplit: 'valid-unseen',
  maxSteps: HOME_MAX_STEPS,
  rewardsAtEnd: true,
  binaryReward: true,
  // A home dream paid 0.3 for putting an object down uncleaned and its policy learned to collect it;
  // the published home tables ran with the end reward rounded (spec.ts).
  dreamRoundsEndReward: true,
  createEnv: () => new HomeEnv(),
  tasks: homeTasks,
  createOracle: () => new HomeOracle(),
  createHasty: () => new HomeOracle('hasty'),
  createRandom: (rng: Rng) => new HomeRandom(rng),
  variation: new HomeVariation(),
  training: {
    all: {
      // Home gets only about 30 updates in 80K transitions; the entropy bonus did not clearly help
      // there (results/real-baseline/home-*-seed1-entropy-default.json).
      ppo: { entropyCoef: 0 },
      // Lost episodes run to the 50-step limit and won ones average 21–24 steps, so under a mean
      // over steps lost episodes supply about 80% of the steps (`npm run experiment -- episode-steps`);
      // seed 3 never improved on its start (32.8%). Averaging per trajectory first: 50.8% on that seed.
      grpo: { entropyCoef: 0, lossAverage: 'trajectory' },
    },
    offline: {
      // Chosen on the 250 valid-seen tasks (the table reports valid-unseen) with the paper
      // experiment's 500-episode buffer, seed 1 (results/offline/README.md): cloning at 1e-2 for 20
      // epochs succeeds 72% there (smoothed), the default 3e-4 × 10 epochs 13%; DPO learns slowly
      // and steadily at 1e-5 (52% at 20 epochs), while at 1e-4 it peaks in its first epochs and falls.
      bc: { learningRate: 1e-2, epochs: 20 },
      dpo: { learningRate: 1e-5, epochs: 20 },
    },
  },
};
