import { UsageError } from '../../core/errors.ts';
import type { EnvDefinition } from '../spec.ts';
import { ShopOracle, ShopRandom, ShopShopper } from './agents.ts';
import { SHOP_MAX_STEPS, ShopEnv } from './env.ts';
import { SHOP_SPLITS, type ShopSplit } from './tasks.ts';
import { ShopVariation } from './variation.ts';
import { proposeQueries } from './queries.ts';
import { shopWorld } from './world.ts';

export const shopEnvironment: EnvDefinition = {
  name: 'shop',
  description: 'A WebShop-like store: search, compare products, choose options and buy what the instruction asks for.',
  actionSyntax: 'web',
  splits: Object.entries(SHOP_SPLITS).map(([name, size]) => ({ name, size })),
  testSplit: 'test',
  maxSteps: SHOP_MAX_STEPS,
  rewardsAtEnd: true,
  createEnv: () => new ShopEnv(shopWorld()),
  tasks(split) {
    if (!(split in SHOP_SPLITS)) throw new UsageError(`shop has no split "${split}"; use one of: ${Object.keys(SHOP_SPLITS).join(', ')}`);
    return shopWorld().tasks[split as ShopSplit];
  },
  createOracle: () => new ShopOracle(),
  createRandom: (rng) => new ShopRandom(rng),
  createShopper: (rng) => new ShopShopper(rng),
  variation: new ShopVariation(),
  proposeQueries,
  training: {
    all: {
      // With the generic bonus PPO's entropy fell to 0.32 by 80K and it reached 54.5% on 3 seeds; a
      // larger entropy bonus with Monte Carlo returns (λ = 1) gives 62.0% on the same seeds (the
      // runs that chose it are listed in results/real-baseline/README.md).
      ppo: { entropyCoef: 0.05, gaeLambda: 1 },
    },
    dream: {
      // Dream PPO with one episode per task reached 48.7% on 3 seeds (78.5% of real mode) and rarely
      // went back to open another product; 8 episodes of each of 8 tasks an iteration, the
      // curriculum scoring a task by its own outcomes, gives 52.4% (84.5%). In real mode the same
      // setting gives 56.9% against 62.0%, so it is a dream setting only (results/experience-model/neural/README.md).
      ppo: { rolloutsPerTask: 8 },
    },
    offline: {
      // Chosen on 200 train tasks the paper experiment's 700-episode buffer holds no episode of (the
      // table reports the test split), seed 1 (results/offline/README.md). Cloning's curves are flat
      // within that sample's noise (37–45% smoothed from 4 epochs on at every rate); DPO at 3e-4
      // reaches 20% by 8 epochs, the default 1e-4 × 10 epochs 10%.
      bc: { learningRate: 1e-2, epochs: 12 },
      dpo: { learningRate: 3e-4, epochs: 8 },
    },
  },
};
