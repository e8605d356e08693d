/**
 * The replay buffer's figures: insert throughput into the memory store (Node) and into IndexedDB
 * (headless Chromium, the real browser store), and top-k (k = 4) latency over 10K, 100K and 1M
 * stored vectors with the bytes each query scans turned into an effective GB/s.
 *
 * Vectors for the latency figures are real embeddings of seeded transitions, repeated to reach the
 * size (the scan's cost does not depend on the values). Each latency is the median of `--queries`.
 */
import { parseArgs } from 'node:util';
import type { Transition } from '../src/core/types.ts';
import { envSpec } from '../src/envs/registry.ts';
import { EMBEDDING_DIM, embedStateAction } from '../src/replay/embed.ts';
import { measureGrounding } from '../src/replay/grounding.ts';
import { MemoryReplayStore } from '../src/replay/memory-store.ts';
import { ReplayBuffer } from '../src/replay/retrieval.ts';
import { parseMix, seedEpisodes } from '../src/replay/seed.ts';
import { VectorIndex } from '../src/replay/vector-index.ts';
import { idbInsertBench } from './replay-idb.ts';
import { median } from './stats.ts';

async function seededTransitions(count: number): Promise<Transition[]> {
  const out: Transition[] = [];
  for (const env of ['shop', 'home']) {
    for await (const e of seedEpisodes({ spec: envSpec(env), episodes: 400, mix: parseMix('oracle=0.6,random=0.4'), seed: 1, createdAt: 0 })) {
      out.push(...e.transitions);
      if (out.length >= count) return out;
    }
  }
  return out;
}

export async function replayBench(argv: string[]): Promise<unknown> {
  const { values } = parseArgs({
    args: argv,
    options: { queries: { type: 'string', default: '51' }, sizes: { type: 'string', default: '10000,100000,1000000' }, 'no-idb': { type: 'boolean', default: false } },
  });
  const queries = Number(values.queries);
  const sizes = values.sizes.split(',').map(Number);
  const transitions = await seededTransitions(20_000);

  // Memory store insert: batches of 500 through the buffer (embedding included, as the app pays it).
  const insertRuns: number[] = [];
  for (let r = 0; r < 5; r++) {
    const buffer = await ReplayBuffer.open(new MemoryReplayStore());
    const started = performance.now();
    for (let i = 0; i < transitions.length; i += 500) await buffer.add(transitions.slice(i, i + 500));
    insertRuns.push(transitions.length / ((performance.now() - started) / 1000));
  }

  const vectors = transitions.map((t) => embedStateAction(t.instruction, t.state, t.action));
  const probes = vectors.slice(0, queries).map((v) => embedStateAction('a held-out query', { text: 'page: results', actions: [] }, 'click[b01]').map((x, i) => x + (v[i] as number) * 0.1));
  const topk = [];
  const batch = Array.from({ length: 64 }, (_, i) => probes[i % probes.length] as Float32Array);
  for (const size of sizes) {
    // The SIMD kernel (what the index uses) and the JavaScript one it replaced, on the same vectors.
    const figures: Record<string, unknown> = { vectors: size, dim: EMBEDDING_DIM, k: 4 };
    for (const kernel of ['auto', 'js'] as const) {
      const index = new VectorIndex(EMBEDDING_DIM, { kernel });
      for (let i = 0; i < size; i++) {
        const t = transitions[i % transitions.length] as Transition;
        index.add(i + 1, vectors[i % vectors.length] as Float32Array, { env: t.env, source: t.source, episode: `${i >> 6}` });
      }
      index.search(probes[0] as Float32Array, 4); // warm-up: compile the scan loop
      const times = probes.map((q) => {
        const started = performance.now();
        index.search(q, 4);
        return performance.now() - started;
      });
      const filtered = probes.slice(0, 11).map((q) => {
        const started = performance.now();
        index.search(q, 4, { env: 'shop', excludeEpisode: '3' });
        return performance.now() - started;
      });
      // A batch of 64 queries in one call (each block of vectors read once for the batch).
      const batched = Array.from({ length: 5 }, () => {
        const started = performance.now();
        index.searchMany(batch, 4);
        return performance.now() - started;
      });
      const ms = median(times);
      figures[index.kernelKind] = {
        medianMs: Number(ms.toFixed(2)),
        filteredMedianMs: Number(median(filtered).toFixed(2)),
        batch64MedianMs: Number(median(batched).toFixed(2)),
        batch64OverOne: Number((median(batched) / ms).toFixed(1)),
        bytesPerQuery: index.bytesPerQuery,
        effectiveGBps: Number((index.bytesPerQuery / (ms / 1000) / 1e9).toFixed(2)),
      };
    }
    const simd = figures['wasm-simd'] as { medianMs: number } | undefined;
    const js = figures['js'] as { medianMs: number };
    if (simd) figures['speedup'] = Number((js.medianMs / simd.medianMs).toFixed(1));
    topk.push(figures);
  }

  const grounding = [];
  for (const env of ['shop', 'home']) {
    const result = await measureGrounding(envSpec(env), { trainEpisodes: 400, heldOutEpisodes: 60 });
    grounding.push({ ...result, samePageAndActionKind: Number(result.samePageAndActionKind.toFixed(4)) });
  }
  const idb = values['no-idb'] ? null : await idbInsertBench(transitions.slice(0, 10_000));
  return {
    memoryInsert: { transitions: transitions.length, batch: 500, repeats: insertRuns.length, transitionsPerSecMedian: Math.round(median(insertRuns)) },
    indexedDbInsert: idb,
    topk,
    grounding,
  };
}
