/**
 * `dream-scripted`: plays a scripted agent once in the real env and once inside the model on each
 * task and prints, as JSON, both outcomes and the first step where the model's own predictions part
 * from the real episode (free-running fidelity, see ../dream-scripted.ts).
 *
 * `npm run experiment -- dream-scripted --env <shop|home|web> --model FILE.dgx --buffer FILE.jsonl [--agent oracle] [--tasks 40] [--split train] [--seed 1] [--k 3] [--train-max-steps N] [--imagine sample|likeliest] [--trace (every step of both sides)]`
 */
import { parseArgs } from 'node:util';
import { dreamScripted } from '../dream-scripted.ts';
import { SCRIPTED_POLICIES } from '../../src/envs/episode.ts';
import { envSpec } from '../../src/envs/registry.ts';
import { intOption } from '../../src/jobs/node-args.ts';
import { useBackend } from '../../src/platform/tf.ts';
import { DEFAULT_IMAGINE } from '../../src/train/modes.ts';
import { imagineOption, kOption, loadDream, usage } from './common.ts';

/** A scripted agent in the real env and inside the model, step by step (see dream-scripted.ts). */
export async function printDreamScripted(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      env: { type: 'string' },
      model: { type: 'string' },
      buffer: { type: 'string' },
      agent: { type: 'string', default: 'oracle' },
      tasks: { type: 'string' },
      split: { type: 'string' },
      seed: { type: 'string' },
      k: { type: 'string' },
      'train-max-steps': { type: 'string' },
      imagine: { type: 'string', default: DEFAULT_IMAGINE },
      trace: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const spec = envSpec(values.env ?? usage('--env is required'));
  const imagine = imagineOption(values.imagine);
  const agent = SCRIPTED_POLICIES.find((p) => p === values.agent) ?? usage(`--agent must be one of: ${SCRIPTED_POLICIES.join(', ')}`);
  const modelFile = values.model ?? usage('--model FILE.dgx is required');
  const bufferFile = values.buffer ?? usage('--buffer FILE.jsonl is required (the offline data the model retrieves from)');
  const split = values.split ?? 'train';
  const k = kOption(values.k);
  const trainMaxSteps = values['train-max-steps'] === undefined ? undefined : intOption(values['train-max-steps'], 'train-max-steps', 0, 1);
  spec.tasks(split);
  const backend = await useBackend(['wasm']);
  const dream = { ...(await loadDream(spec.name, 'neural', modelFile, bufferFile, k)), imagine };
  const started = performance.now();
  const report = await dreamScripted(spec, { agent, dream, tasks: intOption(values.tasks, 'tasks', 40, 1), split, seed: intOption(values.seed, 'seed', 1, 0), trainMaxSteps, backend, trace: values.trace });
  const wallSeconds = Number(((performance.now() - started) / 1000).toFixed(1));
  process.stdout.write(`${JSON.stringify({ model: modelFile, buffer: bufferFile, k, wallSeconds, ...report })}\n`);
  const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
  process.stderr.write(
    `${report.tasks} tasks, ${agent}: won ${pct(report.successRate.real)} real, ${pct(report.successRate.model)} inside the model (${pct(report.wonBothOfRealWins)} of the real wins); ` +
      `mean score ${report.meanScore.real.toFixed(3)} real, ${report.meanScore.model.toFixed(3)} inside the model; ` +
      `${report.firstDivergence.tasks} diverged, first at step ${report.firstDivergence.meanStep?.toFixed(1) ?? '—'} on average (${wallSeconds} s)\n`,
  );
}
