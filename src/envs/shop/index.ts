import { UsageError } from '../../core/errors.ts';
import type { EnvSpec } from '../spec.ts';
import { ShopOracle, ShopRandom, ShopShopper } from './agents.ts';
import { SHOP_MAX_STEPS, ShopEnv } from './env.ts';
import { SHOP_SPLITS, type ShopSplit } from './tasks.ts';
import { ShopVariation } from './variation.ts';
import { shopWorld } from './world.ts';

export const shopSpec: EnvSpec = {
  name: 'shop',
  description: 'A WebShop-like store: search, compare products, choose options and buy what the instruction asks for.',
  actionSyntax: 'web',
  splits: Object.entries(SHOP_SPLITS).map(([name, size]) => ({ name, size })),
  testSplit: 'test',
  maxSteps: SHOP_MAX_STEPS,
  createEnv: (options) => new ShopEnv(shopWorld(), options?.maxSteps ?? SHOP_MAX_STEPS),
  tasks(split) {
    if (!(split in SHOP_SPLITS)) throw new UsageError(`shop has no split "${split}"; use one of: ${Object.keys(SHOP_SPLITS).join(', ')}`);
    return shopWorld().tasks[split as ShopSplit];
  },
  createOracle: () => new ShopOracle(),
  createRandom: (rng) => new ShopRandom(rng),
  createShopper: (rng) => new ShopShopper(rng),
  variation: new ShopVariation(),
};
