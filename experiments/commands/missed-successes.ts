/**
 * `missed-successes`: prints every real success among a policy's own greedy held-out steps with
 * the neural model's prediction and the examples retrieval gave it (see ../missed-successes.ts);
 * with `--false`, every step the model calls a success that was not one.
 *
 * `npm run experiment -- missed-successes --env <shop|home> --policy FILE.dgp --model FILE.dgx --buffer FILE.jsonl [--heldout 1000] [--k 3] [--seed 1] [--false]`
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { missedSuccesses } from '../missed-successes.ts';
import { envSpec } from '../../src/envs/registry.ts';
import { importNeuralModel } from '../../src/experience/neural/model-io.ts';
import { intOption } from '../../src/jobs/node-args.ts';
import { loadStoreFile } from '../../src/replay/file-store.ts';
import { MemoryReplayStore } from '../../src/replay/memory-store.ts';
import { ReplayBuffer } from '../../src/replay/retrieval.ts';
import { importPolicy } from '../../src/policy/policy-file.ts';
import { useBackend } from '../../src/platform/tf.ts';
import { kOption, usage } from './common.ts';

/** A policy's held-out real successes (or, with `--false`, the model's false ones), each with the model's prediction. */
export async function printMissedSuccesses(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { env: { type: 'string' }, policy: { type: 'string' }, model: { type: 'string' }, buffer: { type: 'string' }, heldout: { type: 'string' }, k: { type: 'string' }, seed: { type: 'string' }, false: { type: 'boolean', default: false } },
    strict: true,
  });
  const spec = envSpec(values.env ?? usage('--env is required'));
  const policyFile = values.policy ?? usage('--policy FILE.dgp is required');
  const modelFile = values.model ?? usage('--model FILE.dgx is required');
  const bufferFile = values.buffer ?? usage('--buffer FILE.jsonl is required (the offline data the model retrieves from)');
  await useBackend(['wasm']);
  const { model } = importNeuralModel(new Uint8Array(await readFile(modelFile)));
  const { policy } = importPolicy(new Uint8Array(await readFile(policyFile)));
  const buffer = await ReplayBuffer.open(new MemoryReplayStore({}, await loadStoreFile(bufferFile)));
  const which = values.false ? 'false' : 'real';
  const rows = await missedSuccesses(spec, { policy, model, buffer, k: kOption(values.k), heldout: intOption(values.heldout, 'heldout', 1000, 1), seed: intOption(values.seed, 'seed', 1, 0), which });
  for (const row of rows) process.stdout.write(`${JSON.stringify(row)}\n`);
  process.stderr.write(which === 'real' ? `${rows.length} real successes, ${rows.filter((r) => r.predicted.success).length} predicted\n` : `${rows.length} false successes\n`);
}
