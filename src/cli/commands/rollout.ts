import { parseArgs } from 'node:util';
import { SCRIPTED_POLICIES, rollout, type ScriptedPolicy } from '../../envs/episode.ts';
import { ENVIRONMENTS, envSpec, splitNames } from '../../envs/registry.ts';
import { intOption, requireOption } from '../args.ts';
import type { CommandIO } from '../io.ts';
import { readFile } from 'node:fs/promises';
import { UsageError } from '../../core/errors.ts';
import type { EnvSpec } from '../../envs/spec.ts';
import { importPolicy } from '../../policy/policy-file.ts';
import { parseBackend, useBackend } from '../../runtime/tf.ts';
import { evaluatePolicy } from '../../train/evaluate.ts';

/** Greedy evaluation of a saved policy; every check on the file runs before any episode. */
async function policyFileRollout(
  io: CommandIO,
  spec: EnvSpec,
  path: string,
  values: { split?: string | undefined; episodes?: string | undefined; seed?: string | undefined; json?: boolean | undefined; backend?: string | undefined },
): Promise<void> {
  const split = requireOption(values.split ?? spec.testSplit, 'split', splitNames(spec));
  const episodes = intOption(values.episodes, 'episodes', spec.tasks(split).length, 1);
  const seed = intOption(values.seed, 'seed', 0);
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (error) {
    throw new UsageError(`cannot read --policy ${path}: ${(error as Error).message}`);
  }
  const backend = await useBackend([parseBackend(values.backend ?? 'wasm')]);
  const { policy, header } = importPolicy(bytes);
  if (header.env !== spec.name) throw new UsageError(`${path} is a policy for "${header.env}", not "${spec.name}"`);
  const every = Math.max(1, Math.floor(episodes / 10));
  let done = 0;
  const started = performance.now();
  const result = await evaluatePolicy({
    spec, policy, split, episodes, seed,
    onEpisode: () => {
      done++;
      if (done % every === 0 || done === episodes) io.progress(`rollout ${spec.name}/${path}: ${done}/${episodes} episodes`);
    },
  });
  policy.dispose();
  const seconds = (performance.now() - started) / 1000;
  const summary = { env: spec.name, policy: path, backend, ...result, stepsPerSec: (result.meanSteps * result.episodes) / seconds };
  if (values.json) {
    io.result(summary);
    return;
  }
  io.out(
    `${spec.name} ${path} on ${split} (${backend}): success ${(result.successRate * 100).toFixed(1)}%, score ${result.meanScore.toFixed(1)}, ` +
      `${result.meanSteps.toFixed(2)} steps/episode\nactions digest ${result.actionsDigest}`,
  );
}

export const ROLLOUT_USAGE =
  'rollout --env <shop|home> --policy <oracle|random|FILE.dgp> [--split NAME] [--episodes N] [--seed S] [--max-steps N] [--json]';

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
      backend: { type: 'string', default: 'wasm' },
    },
    strict: true,
  });
  const spec = envSpec(requireOption(values.env, 'env', ENVIRONMENTS.map((e) => e.name)));
  if (values.policy?.endsWith('.dgp')) {
    await policyFileRollout(io, spec, values.policy, values);
    return;
  }
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
