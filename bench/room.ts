/**
 * `npm run bench -- room [--clients 1,10,50] [--episodes 200] [--repeats 3]`: a workshop room on
 * loopback. The server answers with the neural model (fitted on a seeded shop buffer) and kNN; N
 * clients, each a participant with its own id, step dream episodes at once through the HTTP
 * experience model (multi-round chats). Reports, per model and room size, the steps per second the
 * server answered (median of the repeats), the median and 95th-percentile step latency, and the
 * requests that failed (which must be 0). `neural-unbatched` is the same model answering each request
 * on its own, for the ratio batching buys.
 */
import { Rng } from '../src/core/rng.ts';
import type { Observation, Task } from '../src/core/types.ts';
import { envSpec } from '../src/envs/registry.ts';
import { KnnExperienceModel } from '../src/experience/knn.ts';
import { ROOM_CLIENT_HEADER } from '../src/experience/llm/chat.ts';
import { startChatServer } from '../src/experience/llm/chat-server.ts';
import { OpenAiHttpClient } from '../src/experience/llm/http-client.ts';
import { LlmExperienceModel } from '../src/experience/llm/llm-model.ts';
import { fitNeuralModel } from '../src/experience/neural/fit.ts';
import { protocolAnswerer } from '../src/experience/serve-answer.ts';
import { useBackend } from '../src/platform/tf.ts';
import { MemoryReplayStore } from '../src/replay/memory-store.ts';
import { ReplayBuffer } from '../src/replay/retrieval.ts';
import { seedEpisodes } from '../src/replay/seed.ts';
import { median } from './stats.ts';
import { benchOptions } from './options.ts';

const K = 3;
/** Steps each participant takes per measurement. */
const STEPS_PER_CLIENT = 12;


function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

/** One participant: random admissible actions in dream episodes, each step one request. */
async function participant(url: string, model: string, id: number, tasks: readonly Task[], firsts: readonly Observation[], latencies: number[]): Promise<number> {
  const client = new OpenAiHttpClient({ baseUrl: url, model, headers: { [ROOM_CLIENT_HEADER]: `bench-${id}` }, retries: 0 });
  const llm = new LlmExperienceModel({ client, contextTokens: 1_000_000 });
  const rng = new Rng(`room:${id}`);
  let failed = 0;
  let steps = 0;
  for (let episode = 0; steps < STEPS_PER_CLIENT; episode++) {
    const index = (id * 7 + episode) % tasks.length;
    const task = tasks[index] as Task;
    let state = firsts[index]!;
    const history: { state: typeof state; action: string }[] = [];
    for (let t = 0; t < 6 && steps < STEPS_PER_CLIENT; t++) {
      const action = rng.pick(state.actions);
      const started = performance.now();
      const [prediction] = await llm.predict([{ task, history, state, action, examples: [], episodeId: `${id}/${episode}` }]);
      latencies.push(performance.now() - started);
      steps++;
      if (!prediction?.valid) {
        failed++;
        break;
      }
      history.push({ state, action });
      state = prediction.next;
      if (prediction.done) break;
    }
  }
  return failed;
}

export async function roomBench(args: string[]): Promise<unknown> {
  const options = benchOptions(args, { clients: '1,10,50', episodes: 200, repeats: 3 });
  const sizes = options.clients.split(',').map(Number);
  const { episodes, repeats } = options;
  await useBackend(['wasm']);
  const buffer = await ReplayBuffer.open(new MemoryReplayStore());
  for await (const e of seedEpisodes({ spec: envSpec('shop'), episodes, mix: { oracle: 0.6, random: 0.4 }, seed: 1, createdAt: 1 })) await buffer.add(e.transitions);
  const neural = (await fitNeuralModel({ buffer, env: 'shop', epochs: 2, validationShare: 0, seed: 1 })).model;
  const answerers = {
    neural: protocolAnswerer(neural, buffer, K, { env: 'shop' }),
    knn: protocolAnswerer(new KnnExperienceModel(), buffer, K),
    // The same model answering each request on its own: what batching the requests that arrive together buys.
    'neural-unbatched': protocolAnswerer(neural, buffer, K, { env: 'shop', batch: false }),
  };
  const server = await startChatServer({ port: 0, model: 'neural', otherModels: ['knn', 'neural-unbatched'], logRequests: 'failures', answer: (request, _signal, model) => answerers[model as keyof typeof answerers](request) });
  const tasks = envSpec('shop').tasks('test').slice(0, 100);
  const starter = envSpec('shop').createEnv();
  const firsts: Observation[] = [];
  for (const task of tasks) firsts.push(await starter.reset(task));
  const results: Record<string, unknown>[] = [];
  try {
    for (const model of ['neural', 'neural-unbatched', 'knn']) {
      // A round not counted: the first requests of a model pay for compiling and warming its kernels.
      await Promise.all(Array.from({ length: 10 }, (_, id) => participant(server.url, model, 900_000 + id, tasks, firsts, [])));
      for (const clients of sizes) {
        const rates: number[] = [];
        const latencies: number[] = [];
        let failed = 0;
        for (let r = 0; r < repeats; r++) {
          const before = server.counts();
          const started = performance.now();
          const failures = await Promise.all(Array.from({ length: clients }, (_, id) => participant(server.url, model, id + r * 1000, tasks, firsts, latencies)));
          const seconds = (performance.now() - started) / 1000;
          const after = server.counts();
          failed += failures.reduce((a, b) => a + b, 0) + (after.failed - before.failed);
          rates.push((after.answered - before.answered) / seconds);
        }
        results.push({ model, clients, stepsPerSecond: Math.round(median(rates)), medianLatencyMs: Math.round(median(latencies)), p95LatencyMs: Math.round(percentile(latencies, 0.95)), failed });
      }
    }
  } finally {
    await server.close();
  }
  return { backend: 'wasm', bufferTransitions: buffer.index.count, stepsPerClient: STEPS_PER_CLIENT, repeats, results };
}
