/**
 * `by-type`: prints greedy success per task type on the whole split as JSON (`untrained`: the
 * policy `train --seed S` starts from, before any update; see ../by-type.ts).
 *
 * `npm run experiment -- by-type --env <shop|home|web> --policy <FILE.dgp|untrained> [--seed S] [--split NAME] [--episodes N (drawn with the seed; default the whole split)]`
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { countByType, meanByGroup } from '../by-type.ts';
import { envSpec } from '../../src/envs/registry.ts';
import { intOption } from '../../src/jobs/node-args.ts';
import { DEFAULT_POLICY, Policy } from '../../src/policy/policy.ts';
import { importPolicy } from '../../src/policy/policy-file.ts';
import type { Trajectory } from '../../src/rl/rollout.ts';
import { useBackend } from '../../src/platform/tf.ts';
import { evaluatePolicy } from '../../src/train/evaluate.ts';
import { usage } from './common.ts';

export async function printByType(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { env: { type: 'string' }, policy: { type: 'string' }, seed: { type: 'string', default: '0' }, split: { type: 'string' }, episodes: { type: 'string' } }, strict: true });
  const spec = envSpec(values.env ?? usage('--env is required'));
  const episodes = values.episodes === undefined ? undefined : intOption(values.episodes, 'episodes', 0, 1);
  const file = values.policy ?? usage('--policy FILE.dgp or --policy untrained is required');
  await useBackend(['wasm']);
  const policy = file === 'untrained' ? new Policy(DEFAULT_POLICY, Number(values.seed)) : importPolicy(new Uint8Array(await readFile(file))).policy;
  const outcomes: Trajectory[] = [];
  const result = await evaluatePolicy({ spec, policy, split: values.split ?? spec.testSplit, ...(episodes === undefined ? {} : { episodes, seed: Number(values.seed) }), onEpisode: (t) => outcomes.push(t) });
  const byType = countByType(outcomes);
  process.stdout.write(`${JSON.stringify({ env: spec.name, policy: file, split: result.split, episodes: result.episodes, successRate: result.successRate, byGroup: meanByGroup(byType), byType })}\n`);
}
