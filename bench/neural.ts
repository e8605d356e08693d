/**
 * `npm run bench -- neural [--transitions 5000] [--epochs 6] [--batches 20]`: the neural experience
 * model's cost on this machine, on the wasm backend (what the CLI uses):
 * - fitting with the default config on N real shop transitions (seeded train-split episodes,
 *   expert + noisy expert + random), wall seconds for the whole fit (retrieval, candidates, epochs);
 * - batched prediction at batch 32 on held-out transitions: transitions/s, the median over batches.
 */
import type { Transition } from '../src/core/types.ts';
import { envSpec } from '../src/envs/registry.ts';
import { heldoutInput, heldoutTransitions } from '../src/experience/fidelity.ts';
import { fitNeuralModel } from '../src/experience/neural/fit.ts';
import { DEFAULT_FIT } from '../src/experience/neural/fit-settings.ts';
import { MemoryReplayStore } from '../src/replay/memory-store.ts';
import { ReplayBuffer } from '../src/replay/retrieval.ts';
import { seedEpisodes } from '../src/replay/seed.ts';
import { useBackend } from '../src/platform/tf.ts';
import { median } from './stats.ts';

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

const BATCH = 32;

export async function neuralBench(args: string[]): Promise<unknown> {
  const wanted = option(args, 'transitions', 5000);
  const epochs = option(args, 'epochs', DEFAULT_FIT.epochs);
  const batches = option(args, 'batches', 20);
  const backend = await useBackend(['wasm']);
  const spec = envSpec('shop');
  const transitions: Transition[] = [];
  for await (const e of seedEpisodes({ spec, episodes: 2000, mix: { oracle: 0.4, noisy: 0.3, random: 0.3 }, seed: 1, createdAt: 0 })) {
    transitions.push(...e.transitions);
    if (transitions.length >= wanted) break;
  }
  const buffer = await ReplayBuffer.open(new MemoryReplayStore());
  await buffer.add(transitions.slice(0, wanted));

  const fitStarted = performance.now();
  const fit = await fitNeuralModel({ buffer, env: 'shop', epochs, maxTransitions: wanted });
  const fitSeconds = (performance.now() - fitStarted) / 1000;

  const { heldout } = await heldoutTransitions(spec, BATCH * batches, { oracle: 0.5, random: 0.5 }, 1);
  const rates: number[] = [];
  for (let b = 0; b < batches; b++) {
    const slice = heldout.slice(b * BATCH, (b + 1) * BATCH);
    if (slice.length < BATCH) break;
    const examples = await buffer.nearest(slice.map(({ transition: t }) => ({ instruction: t.instruction, state: t.state, action: t.action })), DEFAULT_FIT.k, { env: 'shop', source: 'real' });
    // Posed as `experience eval` poses them: with their history's states, which the model reads.
    const inputs = slice.map((h, i) => heldoutInput(h, examples[i] ?? []));
    const started = performance.now();
    await fit.model.predict(inputs);
    rates.push(BATCH / ((performance.now() - started) / 1000));
  }
  fit.model.dispose();
  return {
    backend,
    fit: { env: 'shop', realTransitions: Math.min(wanted, transitions.length), epochs, config: 'default', seconds: Number(fitSeconds.toFixed(1)), rows: fit.rows },
    predict: { batch: BATCH, batches: rates.length, medianTransitionsPerSecond: Math.round(median(rates)), note: 'retrieval excluded; candidates, three heads and assembly included' },
  };
}
