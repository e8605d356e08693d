/**
 * `real-table`: prints the real-mode baseline's table (results/real-baseline/README.md) from the
 * `<env>-<algo>-seed<S>.json` runs and their `.eval.json` there (see ../real-table.ts).
 *
 * `npm run experiment -- real-table --env <shop|home> [--dir results/real-baseline]`
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { realTable, type RealRun } from '../real-table.ts';
import { readRunFile, readTrainResult, rolloutEvalSchema } from '../run-file.ts';
import { usage } from './common.ts';

export async function printRealTable(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { env: { type: 'string' }, dir: { type: 'string', default: 'results/real-baseline' } }, strict: true });
  const env = values.env ?? usage('--env is required');
  const pattern = new RegExp(`^${env}-(ppo|grpo)-seed(\\d+)\\.json$`);
  const runs: RealRun[] = [];
  for (const file of (await readdir(values.dir)).sort()) {
    const match = pattern.exec(file);
    if (!match) continue;
    const base = path.join(values.dir, file.slice(0, -'.json'.length));
    if (!existsSync(`${base}.eval.json`)) usage(`${base}.eval.json is missing: run rollout on ${base}.dgp first`);
    runs.push({
      algo: match[1] as string,
      seed: Number(match[2]),
      history: await readTrainResult(`${base}.json`),
      final: (await readRunFile(`${base}.eval.json`, rolloutEvalSchema, 'rollout result (rollout --json)')) as RealRun['final'],
    });
  }
  if (runs.length === 0) usage(`no ${env}-<algo>-seed<S>.json runs in ${values.dir}`);
  process.stdout.write(`${realTable(env, runs)}\n`);
}
