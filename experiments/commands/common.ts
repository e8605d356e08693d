/**
 * What the experiment sub-commands share: the usage text and its exit (status 2), the `cli()` runner
 * that trains and fits in `src/cli/main.ts` child processes, `--k` and `--imagine` parsed as every
 * caller parses them, and `loadDream`, a dream over a model and its buffer set up as `train` sets it up.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import * as v from 'valibot';
import { IMAGINE_MODES, type Imagine } from '../../src/train/modes.ts';
import { bufferFileSource, openBufferFile } from '../../src/jobs/buffer-file.ts';
import { buildDream } from '../../src/jobs/dream.ts';
import { nodeBuildContextFor } from '../../src/jobs/model-file.ts';
import { experienceModel } from '../../src/jobs/experience-models/registry.ts';
import { K } from '../../src/jobs/experience-models/retrieval-k.ts';
import { parseSpec } from '../../src/jobs/spec.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const CLI = path.join(ROOT, 'src', 'cli', 'main.ts');

/** The message, then every sub-command's usage line, on stderr; exits with status 2. */
export function usage(message: string): never {
  process.stderr.write(`${message}\nusage: npm run experiment -- paper --env <shop|home|web> --seeds N [--quick] [--regime standard|demos (web)] [--per-task N (demos: demonstrations of each task, default 20)] [--jobs N] [--rows ID,…] [--work DIR] [--out DIR]\n       npm run experiment -- rebuild --env <shop|home|web> [--quick] [--regime standard|demos] [--out DIR]\n       npm run experiment -- real-table --env <shop|home> [--dir results/real-baseline]\n       npm run experiment -- by-type --env <shop|home|web> --policy <FILE.dgp|untrained> [--seed S] [--split NAME] [--episodes N (drawn with the seed; default the whole split)]\n       npm run experiment -- feature-digest --env <shop|home|web> [--episodes 60] [--seed 3]
       npm run experiment -- episode-steps FILE.json …  (home --history files)\n       npm run experiment -- purchases --policy FILE.dgp --model FILE.dgx --buffer FILE.jsonl [--k 3]  (shop)\n       npm run experiment -- buffer-attributes --buffer FILE.jsonl  (shop)\n       npm run experiment -- policy-steps --env <shop|home> --policy <FILE.dgp|shopper|oracle|noisy|random> --model FILE.dgx --buffer FILE.jsonl [--episodes 200] [--k 3] [--split NAME]\n       npm run experiment -- missed-successes --env <shop|home> --policy FILE.dgp --model FILE.dgx --buffer FILE.jsonl [--heldout 1000] [--k 3] [--seed 1] [--false]\n       npm run experiment -- curriculum-variance --env <shop|home> --policy <FILE.dgp|untrained> --model FILE.dgx --buffer FILE.jsonl [--experience neural|knn] [--tasks 60] [--group 8] [--split train] [--seed 1] [--k 3] [--train-max-steps N] [--imagine sample|likeliest]\n       npm run experiment -- dream-scripted --env <shop|home|web> --model FILE.dgx --buffer FILE.jsonl [--agent oracle] [--tasks 40] [--split train] [--seed 1] [--k 3] [--train-max-steps N] [--imagine sample|likeliest] [--trace (every step of both sides)]\n       every experiment also takes [--site DIR] [--web-tasks a,b|@app] (web: the CLI's --site and --tasks)\n`);
  process.exit(2);
}

/** Run the CLI; stderr lines go to our stderr with a prefix, and a failure says which command. */
export function cli(args: string[], label: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // One process per run (node with tsx's loader, not the tsx wrapper): a stopped experiment stops its runs.
    const child = spawn(process.execPath, [...process.execArgv, CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let tail = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      tail = (tail + chunk).slice(-4000);
      for (const line of chunk.split('\n')) if (line.trim() && !line.includes('npm warn') && !/tfjs-node|===|Hi, looks like/.test(line)) process.stderr.write(`[${label}] ${line}\n`);
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${label} failed (exit ${code}): tsx src/cli/main.ts ${args.join(' ')}\n${tail}`))));
  });
}

/** `--imagine`: one of the dream's imagine modes (train/modes.ts). */
export function imagineOption(value: string | undefined): Imagine {
  return IMAGINE_MODES.find((m) => m === value) ?? usage(`--imagine must be one of: ${IMAGINE_MODES.join(', ')}; got "${value}"`);
}

/** `--k`, with the one bound every caller uses (jobs/experience-models/retrieval-k.ts). */
export function kOption(text: string | undefined): number {
  return parseSpec(v.object({ k: K }), text === undefined ? {} : { k: text.trim() === '' ? Number.NaN : Number(text) }, () => '--k').k;
}

/** What a dream over a model and its buffer needs, set up by the dream job as `train` sets it up. */
export async function loadDream(env: string, experience: 'neural' | 'knn', modelFile: string | undefined, bufferFile: string, k: number) {
  const choice = { kind: experience, settings: { k, ...(experience === 'neural' ? { model: modelFile } : {}) } };
  const context = await nodeBuildContextFor(experienceModel(experience), choice.settings);
  const buffer = await openBufferFile(bufferFile);
  // The synthetic budget is the caller's (these experiments play a fixed number of episodes instead).
  return buildDream({
    env,
    experience: choice,
    context,
    store: buffer.store,
    openBuffer: async () => buffer,
    source: bufferFileSource(bufferFile, env),
    syntheticBudget: 0,
  });
}
