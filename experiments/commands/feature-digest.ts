/**
 * `feature-digest`: prints a digest of the policy's features on the noisy expert's and the random
 * agent's seeded test-split steps: the same digest at two commits means the same policy inputs
 * (see ../feature-digest.ts).
 *
 * `npm run experiment -- feature-digest --env <shop|home|web> [--episodes 60] [--seed 3]`
 */
import { parseArgs } from 'node:util';
import { featureDigest } from '../feature-digest.ts';
import { envSpec } from '../../src/envs/registry.ts';
import { intOption } from '../../src/jobs/node-args.ts';
import { usage } from './common.ts';

export async function printFeatureDigest(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { env: { type: 'string' }, episodes: { type: 'string' }, seed: { type: 'string' } }, strict: true });
  const spec = envSpec(values.env ?? usage('--env is required'));
  const result = await featureDigest(spec, { episodes: intOption(values.episodes, 'episodes', 60, 1), seed: intOption(values.seed, 'seed', 3, 0) });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
