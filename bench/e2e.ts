/**
 * `npm run bench -- e2e [--eval-episodes 500] [--work DIR]`: the time from nothing to a trained shop
 * policy, in Node, with the guided first run's settings (jobs/guide-plan.ts: 300 seeded episodes,
 * a 3-epoch fit, GRPO for 8,000 steps): the CLI commands a person types, each timed whole
 * (process start, loading, work and the final evaluation on the held-out test episodes):
 *
 *   dream path: buffer seed → experience fit → train --mode dream (0 real transitions)
 *   real path:  train --mode real with as many real steps as the dream took synthetic ones
 *   untrained:  train --iterations 0 (the policy both start from), for the gains
 *
 * The same path in the app is `npm run bench -- guide` (its phases as the page measured them).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { GUIDE } from '../src/jobs/guide-plan.ts';
import { benchOptions } from './options.ts';

const run = promisify(execFile);


/** One CLI command with --json: its last stdout line parsed, and its wall seconds. */
async function cli(args: string[]): Promise<{ seconds: number; result: Record<string, unknown> }> {
  const started = performance.now();
  const { stdout } = await run(process.execPath, [...process.execArgv, 'src/cli/main.ts', ...args, '--json'], { maxBuffer: 64 * 1024 * 1024 });
  const last = stdout.trim().split('\n').pop() ?? '{}';
  return { seconds: Number(((performance.now() - started) / 1000).toFixed(1)), result: JSON.parse(last) as Record<string, unknown> };
}

const success = (r: Record<string, unknown>): number => Number((r['eval'] as { successRate: number }).successRate.toFixed(4));

export async function e2eBench(args: string[]): Promise<unknown> {
  const options = benchOptions(args, { 'eval-episodes': '500', work: '' });
  const episodes = options['eval-episodes'];
  const work = options.work || mkdtempSync(join(tmpdir(), 'dreamgym-e2e-'));
  const buffer = join(work, 'shop.jsonl');
  const model = join(work, 'shop.dgx');
  const common = ['--env', GUIDE.env, '--seed', String(GUIDE.seed)];
  const train = ['--algo', GUIDE.algo, '--eval-every', '0', '--final-eval-episodes', episodes];
  try {
    const seed = await cli(['buffer', 'seed', ...common, '--episodes', String(GUIDE.seedEpisodes), '--mix', GUIDE.seedMix, '--out', buffer]);
    const fit = await cli(['experience', 'fit', ...common, '--buffer', buffer, '--out', model, '--epochs', String(GUIDE.fitEpochs)]);
    const settings = (mode: 'dream' | 'real') => Object.entries(GUIDE.algoConfig[mode]).flatMap(([key, value]) => ['--set', `${key}=${value}`]);
    const dream = await cli(['train', ...common, ...train, ...settings('dream'), '--mode', 'dream', '--experience', 'neural', '--model', model, '--buffer', buffer, '--synthetic-budget', String(GUIDE.steps), '--curriculum', GUIDE.curriculum.dream ? 'on' : 'off']);
    const real = await cli(['train', ...common, ...train, ...settings('real'), '--mode', 'real', '--real-budget', String(GUIDE.steps), '--curriculum', GUIDE.curriculum.real ? 'on' : 'off']);
    const untrained = await cli(['train', ...common, ...train, '--mode', 'real', '--real-budget', String(GUIDE.steps), '--iterations', '0']);
    const base = success(untrained.result);
    return {
      settings: { env: GUIDE.env, seedEpisodes: GUIDE.seedEpisodes, fitEpochs: GUIDE.fitEpochs, algo: GUIDE.algo, steps: GUIDE.steps, evalEpisodes: Number(episodes), backend: dream.result['backend'] },
      seconds: {
        seed: seed.seconds,
        fit: fit.seconds,
        dream: dream.seconds,
        dreamPath: Number((seed.seconds + fit.seconds + dream.seconds).toFixed(1)),
        realPath: real.seconds,
        untrainedEvaluation: untrained.seconds,
      },
      success: { untrained: base, dream: success(dream.result), real: success(real.result) },
      gain: { dream: Number((success(dream.result) - base).toFixed(4)), real: Number((success(real.result) - base).toFixed(4)) },
      realTransitions: { seed: seed.result['transitions'] ?? null, dream: dream.result['realTransitions'], real: real.result['realTransitions'] },
    };
  } finally {
    if (!args.includes('--work')) rmSync(work, { recursive: true, force: true });
  }
}
