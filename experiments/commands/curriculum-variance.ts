/**
 * `curriculum-variance`: plays `--group` sampled episodes of each of `--tasks` tasks inside the
 * experience model (the dream's own synthetic env) and as many in the real env, and prints as JSON
 * each task's success and outcome variance on both sides and how well the in-model variance the
 * curriculum selects by stands for the real one: correlations, the real variance of the top quarter
 * by in-model variance against all tasks', and the tasks that vary on one side only (see
 * ../curriculum-variance.ts).
 *
 * `npm run experiment -- curriculum-variance --env <shop|home> --policy <FILE.dgp|untrained> --model FILE.dgx --buffer FILE.jsonl [--experience neural|knn] [--tasks 60] [--group 8] [--split train] [--seed 1] [--k 3] [--train-max-steps N] [--imagine sample|likeliest]`
 */
import { parseArgs } from 'node:util';
import { curriculumVariance } from '../curriculum-variance.ts';
import { UsageError } from '../../src/core/errors.ts';
import { envSpec } from '../../src/envs/registry.ts';
import { intOption, readInputBytes } from '../../src/jobs/node-args.ts';
import type { Policy } from '../../src/policy/policy.ts';
import { importPolicy } from '../../src/policy/policy-file.ts';
import { useBackend } from '../../src/platform/tf.ts';
import { DEFAULT_IMAGINE } from '../../src/train/modes.ts';
import { imagineOption, kOption, loadDream, usage } from './common.ts';

/** Whether the curriculum's in-model outcome variance picks the tasks whose real outcome varies (see curriculum-variance.ts). */
export async function printCurriculumVariance(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      env: { type: 'string' },
      policy: { type: 'string' },
      model: { type: 'string' },
      buffer: { type: 'string' },
      experience: { type: 'string', default: 'neural' },
      tasks: { type: 'string' },
      group: { type: 'string' },
      split: { type: 'string' },
      seed: { type: 'string' },
      k: { type: 'string' },
      'train-max-steps': { type: 'string' },
      imagine: { type: 'string', default: DEFAULT_IMAGINE },
    },
    strict: true,
  });
  const spec = envSpec(values.env ?? usage('--env is required'));
  const policyName = values.policy ?? usage('--policy FILE.dgp or --policy untrained is required');
  const imagine = imagineOption(values.imagine);
  const experience = values.experience === 'knn' ? 'knn' : values.experience === 'neural' ? 'neural' : usage(`--experience must be neural or knn, got "${values.experience}"`);
  if (experience === 'neural' && values.model === undefined) usage('--model FILE.dgx is required (or --experience knn)');
  if (experience === 'knn' && values.model !== undefined) usage('--model goes with --experience neural; drop it');
  const bufferFile = values.buffer ?? usage('--buffer FILE.jsonl is required (the offline data the model retrieves from)');
  const split = values.split ?? 'train';
  const tasks = intOption(values.tasks, 'tasks', 60, 1);
  const group = intOption(values.group, 'group', 8, 2);
  const seed = intOption(values.seed, 'seed', 1, 0);
  const k = kOption(values.k);
  const trainMaxSteps = values['train-max-steps'] === undefined ? undefined : intOption(values['train-max-steps'], 'train-max-steps', 0, 1);
  spec.tasks(split); // an unknown split is refused before anything is loaded
  const backend = await useBackend(['wasm']);
  let policy: Policy | 'untrained' = 'untrained';
  if (policyName !== 'untrained') {
    const { policy: loaded, header } = importPolicy(await readInputBytes(policyName, '--policy'));
    if (header.env !== spec.name) {
      loaded.dispose();
      throw new UsageError(`--policy ${policyName} is a policy for "${header.env}", not "${spec.name}"`);
    }
    policy = loaded;
  }
  const dream = { ...(await loadDream(spec.name, experience, values.model, bufferFile, k)), imagine };
  const started = performance.now();
  const report = await curriculumVariance(spec, { policy, dream, tasks, group, split, seed, trainMaxSteps, backend });
  const wallSeconds = Number(((performance.now() - started) / 1000).toFixed(1));
  process.stdout.write(`${JSON.stringify({ policy: policyName, model: values.model ?? experience, buffer: bufferFile, seed, k, wallSeconds, ...report })}\n`);
  const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
  const { success: s } = report;
  process.stderr.write(
    `${report.tasks} tasks × ${group}: success ${pct(report.successRate.model)} in the model, ${pct(report.successRate.real)} real; success variance Pearson ${s.pearson?.toFixed(3) ?? '—'}, Spearman ${s.spearman?.toFixed(3) ?? '—'}; ` +
      `real variance ${s.topQuarter.meanRealVariance.toFixed(3)} in the top quarter by in-model variance (${s.topQuarter.varying} of ${s.topQuarter.tasks} vary there) vs ${s.meanRealVariance.toFixed(3)} over all; ` +
      `${pct(s.realVariesModelNever)} vary only really, ${pct(s.modelVariesRealNever)} only in the model (${wallSeconds} s)\n`,
  );
}
