/**
 * The neural benches' shared data: a buffer of real shop transitions seeded as the guided run
 * seeds (oracle 0.4, noisy 0.3, random 0.3; seed 1), and prediction rates at batch 32 on held-out
 * test transitions posed as `experience eval` poses them (with their history's states).
 */
import type { Transition } from '../src/core/types.ts';
import { envSpec } from '../src/envs/registry.ts';
import { heldoutInput, heldoutTransitions } from '../src/experience/fidelity.ts';
import { DEFAULT_FIT } from '../src/experience/neural/fit-settings.ts';
import type { NeuralPredictOptions } from '../src/experience/neural/model.ts';
import type { ExperienceInput, ExperienceModel } from '../src/experience/types.ts';
import { MemoryReplayStore } from '../src/replay/memory-store.ts';
import { ReplayBuffer } from '../src/replay/retrieval.ts';
import { seedEpisodes } from '../src/replay/seed.ts';

export const PREDICT_BATCH = 32;

/** A memory buffer holding the first `wanted` real shop transitions of the seeded episodes. */
export async function seededShopBuffer(wanted: number): Promise<{ buffer: ReplayBuffer; transitions: number }> {
  const transitions: Transition[] = [];
  for await (const e of seedEpisodes({ spec: envSpec('shop'), episodes: 4 * wanted, mix: { oracle: 0.4, noisy: 0.3, random: 0.3 }, seed: 1, createdAt: 0 })) {
    transitions.push(...e.transitions);
    if (transitions.length >= wanted) break;
  }
  const buffer = await ReplayBuffer.open(new MemoryReplayStore());
  await buffer.add(transitions.slice(0, wanted));
  return { buffer, transitions: Math.min(wanted, transitions.length) };
}

/** `count` batches of 32 held-out test transitions posed as `experience eval` poses them, examples retrieved (untimed); `seed` draws the episodes. */
export async function predictBatches(buffer: ReplayBuffer, count: number, seed = 1): Promise<ExperienceInput[][]> {
  const { heldout } = await heldoutTransitions(envSpec('shop'), PREDICT_BATCH * count, { oracle: 0.5, random: 0.5 }, seed);
  const out: ExperienceInput[][] = [];
  for (let b = 0; b < count; b++) {
    const slice = heldout.slice(b * PREDICT_BATCH, (b + 1) * PREDICT_BATCH);
    if (slice.length < PREDICT_BATCH) break;
    const examples = await buffer.nearest(slice.map(({ transition: t }) => ({ instruction: t.instruction, state: t.state, action: t.action })), DEFAULT_FIT.k, { env: 'shop', source: 'real' });
    out.push(slice.map((h, i) => heldoutInput(h, examples[i] ?? [])));
  }
  return out;
}

/** Transitions/s of each batch's prediction (retrieval excluded), after `warmup` untimed ones; a neural model reads `options.candidates`. */
export async function timePredictions(model: ExperienceModel, batches: readonly ExperienceInput[][], warmup = 0, options: NeuralPredictOptions = {}): Promise<number[]> {
  const rates: number[] = [];
  for (const [b, inputs] of batches.entries()) {
    const started = performance.now();
    await model.predict(inputs, options);
    if (b >= warmup) rates.push(inputs.length / ((performance.now() - started) / 1000));
  }
  return rates;
}

/** Transitions/s of `batches` predictions at batch 32 (retrieval excluded), after `warmup` untimed ones. */
export async function predictRates(model: ExperienceModel, buffer: ReplayBuffer, batches: number, warmup = 0): Promise<number[]> {
  return timePredictions(model, await predictBatches(buffer, batches + warmup), warmup);
}
