import { parseArgs } from 'node:util';
import { SCRIPTED_POLICIES, rollout, type ScriptedPolicy } from '../../envs/episode.ts';
import { ENVIRONMENTS, envSpec, splitNames } from '../../envs/registry.ts';
import { intOption, requireOption } from '../args.ts';
import type { CommandIO } from '../io.ts';

export const ROLLOUT_USAGE =
  'rollout --env <shop|home> --policy <oracle|random> [--split NAME] [--episodes N] [--seed S] [--max-steps N] [--json]';

export async function rolloutCommand(io: CommandIO, argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      env: { type: 'string' },
      policy: { type: 'string' },
      split: { type: 'string' },
      episodes: { type: 'string' },
      seed: { type: 'string' },
      'max-steps': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const spec = envSpec(requireOption(values.env, 'env', ENVIRONMENTS.map((e) => e.name)));
  const policy = requireOption(values.policy, 'policy', SCRIPTED_POLICIES) as ScriptedPolicy;
  const split = requireOption(values.split ?? spec.testSplit, 'split', splitNames(spec));
  const episodes = intOption(values.episodes, 'episodes', 100, 1);
  const seed = intOption(values.seed, 'seed', 0);
  const maxSteps = values['max-steps'] === undefined ? undefined : intOption(values['max-steps'], 'max-steps', 0, 1);
  const every = Math.max(1, Math.floor(episodes / 10));
  const summary = await rollout({
    spec, policy, split, episodes, seed,
    envOptions: maxSteps === undefined ? {} : { maxSteps },
    onEpisode: (i) => {
      if ((i + 1) % every === 0 || i + 1 === episodes) io.progress(`rollout ${spec.name}/${policy}: ${i + 1}/${episodes} episodes`);
    },
  });
  if (values.json) {
    io.result(summary);
    return;
  }
  io.out(
    `${summary.env} ${summary.policy} on ${summary.split}: success ${(summary.successRate * 100).toFixed(1)}%, ` +
      `score ${summary.meanScore.toFixed(1)}, ${summary.meanSteps.toFixed(2)} steps/episode, ` +
      `invalid ${(summary.invalidActionRate * 100).toFixed(1)}%, ${Math.round(summary.stepsPerSec)} steps/s\ndigest ${summary.digest}`,
  );
}
