import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { UsageError } from '../../core/errors.ts';
import { SCRIPTED_POLICIES, rollout, type ScriptedPolicy } from '../../envs/episode.ts';
import { ENVIRONMENTS, envSpec } from '../../envs/registry.ts';
import type { EnvOptions, EnvSpec } from '../../envs/spec.ts';
import { importPolicy } from '../../policy/policy-file.ts';
import { parseBackend, useBackend } from '../../platform/tf.ts';
import { evaluatePolicy } from '../../train/evaluate.ts';
import { DEFAULT_SCRIPTED_EPISODES, policyFileRolloutSpec, scriptedRolloutSpec } from '../../jobs/rollout-spec.ts';
import { flagNamer, numberFlags, parseFlags, requireOption, stringFlags } from '../args.ts';
import type { CommandIO } from '../io.ts';

export const ROLLOUT_USAGE =
  'rollout --env <shop|home> --policy <oracle|random|noisy|shopper|FILE.dgp> [--split NAME] [--episodes N] [--seed S] [--max-steps N]\n' +
  '        [--backend wasm|cpu (FILE.dgp only)] [--json]';

/** The tfjs backend a saved policy runs on where --backend names none. */
const DEFAULT_BACKEND = 'wasm';

interface RolloutArgs {
  spec: EnvSpec;
  split: string;
  /** Undefined (a saved policy only): every task of the split in order. */
  episodes: number | undefined;
  seed: number;
  envOptions: EnvOptions;
  backend: string;
  json: boolean;
}

/** Progress on stderr about every tenth of the episodes. */
function progressEvery(io: CommandIO, label: string, total: number): (done: number) => void {
  const every = Math.max(1, Math.floor(total / 10));
  return (done) => {
    if (done % every === 0 || done === total) io.progress(`rollout ${label}: ${done}/${total} episodes`);
  };
}

/**
 * Greedy evaluation of a saved policy; every check on the file runs before any episode. Without
 * --episodes it plays the split in order, exactly as training's final evaluation does, so the two
 * report the same actions digest.
 */
async function policyFileRollout(io: CommandIO, path: string, args: RolloutArgs): Promise<void> {
  const { spec, split, episodes, seed } = args;
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (error) {
    throw new UsageError(`cannot read --policy ${path}: ${(error as Error).message}`);
  }
  const backend = await useBackend([parseBackend(args.backend)]);
  const { policy, header } = importPolicy(bytes);
  if (header.env !== spec.name) throw new UsageError(`${path} is a policy for "${header.env}", not "${spec.name}"`);
  const report = progressEvery(io, `${spec.name}/${path}`, episodes ?? spec.tasks(split).length);
  let done = 0;
  const started = performance.now();
  const result = await evaluatePolicy({
    spec, policy, split, seed,
    ...(episodes !== undefined ? { episodes } : {}),
    envOptions: args.envOptions,
    onEpisode: () => report(++done),
  });
  policy.dispose();
  // Wall-clock steps/s: policy forward passes included, unlike the scripted rollout's env-only rate.
  const seconds = (performance.now() - started) / 1000;
  const summary = { env: spec.name, policy: path, backend, ...result, stepsPerSec: (result.meanSteps * result.episodes) / seconds };
  if (args.json) {
    io.result(summary);
    return;
  }
  io.out(
    `${spec.name} ${path} on ${split} (${backend}): success ${(result.successRate * 100).toFixed(1)}%, score ${result.meanScore.toFixed(1)}, ` +
      `${result.meanSteps.toFixed(2)} steps/episode\nactions digest ${result.actionsDigest}`,
  );
}

async function scriptedRollout(io: CommandIO, policy: ScriptedPolicy, args: RolloutArgs): Promise<void> {
  const { spec, split, seed } = args;
  const episodes = args.episodes ?? DEFAULT_SCRIPTED_EPISODES;
  const report = progressEvery(io, `${spec.name}/${policy}`, episodes);
  const summary = await rollout({ spec, policy, split, episodes, seed, envOptions: args.envOptions, onEpisode: (i) => report(i + 1) });
  if (args.json) {
    io.result(summary);
    return;
  }
  io.out(
    `${summary.env} ${summary.policy} on ${summary.split}: success ${(summary.successRate * 100).toFixed(1)}%, ` +
      `score ${summary.meanScore.toFixed(1)}, ${summary.meanSteps.toFixed(2)} steps/episode, ` +
      `invalid ${(summary.invalidActionRate * 100).toFixed(1)}%, ${Math.round(summary.stepsPerSec)} steps/s\ndigest ${summary.digest}`,
  );
}

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
      backend: { type: 'string' },
    },
    strict: true,
  });
  const spec = envSpec(requireOption(values.env, 'env', ENVIRONMENTS.map((e) => e.name)));
  const fromFile = values.policy?.endsWith('.dgp') === true;
  if (!fromFile && values.backend !== undefined) throw new UsageError('--backend goes with --policy FILE.dgp (a scripted policy runs no model); drop it');
  const input = { ...stringFlags(values, { split: 'split' }), ...numberFlags(values, { episodes: 'episodes', seed: 'seed', maxSteps: 'max-steps' }) };
  const settings = fromFile
    ? parseFlags(policyFileRolloutSpec(spec), input, flagNamer(), 'to a saved policy')
    : parseFlags(scriptedRolloutSpec(spec), input, flagNamer(), 'to a scripted policy');
  const args: RolloutArgs = {
    spec,
    split: settings.split,
    episodes: settings.episodes,
    seed: settings.seed,
    envOptions: settings.maxSteps === undefined ? {} : { maxSteps: settings.maxSteps },
    backend: values.backend ?? DEFAULT_BACKEND,
    json: values.json,
  };
  if (fromFile) return policyFileRollout(io, values.policy as string, args);
  return scriptedRollout(io, requireOption(values.policy, 'policy', SCRIPTED_POLICIES), args);
}
