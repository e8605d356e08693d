/**
 * `episode-steps`: prints, per home `--history` file, how its training steps split between won
 * and lost episodes (see ../episode-steps.ts).
 *
 * `npm run experiment -- episode-steps FILE.json …  (home --history files)`
 */
import { episodeSteps } from '../episode-steps.ts';
import { readTrainResult } from '../run-file.ts';
import { envSpec } from '../../src/envs/registry.ts';
import { usage } from './common.ts';

export async function printEpisodeSteps(files: string[]): Promise<void> {
  if (files.length === 0) usage('name one or more --history files');
  for (const file of files) {
    const run = await readTrainResult(file);
    // Only home's episodes end on success or at the step limit alone; a shop episode ends at Buy Now.
    if (run.env !== 'home') usage(`${file} is a ${run.env} run; episode-steps needs home runs (losses there always reach the step limit)`);
    const steps = episodeSteps(run.history, envSpec(run.env).maxSteps);
    process.stdout.write(`${JSON.stringify({ file, algo: run.algo, seed: run.seed, ...steps })}\n`);
  }
}
