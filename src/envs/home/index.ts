/**
 * The household environment as the registry sees it.
 */
import type { Rng } from '../../core/rng.ts';
import type { EnvSpec } from '../spec.ts';
import { HomeOracle, HomeRandom } from './agents.ts';
import { HOME_MAX_STEPS, HomeEnv } from './env.ts';
import { homeTasks, SPLIT_NAMES, SPLIT_SIZES } from './tasks.ts';
import { HomeVariation } from './variation.ts';

export const homeSpec: EnvSpec = {
  name: 'home',
  description: 'ALFWorld-like household: find, clean, heat, cool, light and place objects by text commands.',
  actionSyntax: 'household',
  splits: SPLIT_NAMES.map((name) => ({ name, size: SPLIT_SIZES[name] })),
  testSplit: 'valid-unseen',
  maxSteps: HOME_MAX_STEPS,
  createEnv: (options) => new HomeEnv(options),
  tasks: homeTasks,
  createOracle: () => new HomeOracle(),
  createRandom: (rng: Rng) => new HomeRandom(rng),
  variation: new HomeVariation(),
};
