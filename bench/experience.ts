/**
 * `npm run bench -- experience [--heldout N] [--episodes N]`: the experience models' figures.
 * - fidelity of kNN on held-out real transitions of shop and home (the same measure as
 *   `experience eval`), with transitions/s as the median of 3 passes;
 * - prompt size per step of the LLM protocol (Llama 3 tokenizer), k = 3;
 * - the multi-round framing's prefill: scripted agents (oracle and random, as the buffer is seeded)
 *   play synthetic episodes through `LlmExperienceModel` → HTTP → an in-process `serve` answering
 *   with kNN, in both framings, so prompt and prefill tokens per step are counted on real traffic.
 */
import { Rng } from '../src/core/rng.ts';
import type { Task, Transition } from '../src/core/types.ts';
import { createAgent, episodeTasks } from '../src/envs/episode.ts';
import { envSpec } from '../src/envs/registry.ts';
import { heldoutTransitions, measureFidelity, type FidelityReport } from '../src/experience/fidelity.ts';
import { KnnExperienceModel } from '../src/experience/knn.ts';
import { startChatServer } from '../src/experience/llm/chat-server.ts';
import { OpenAiHttpClient } from '../src/experience/llm/http-client.ts';
import { LlmExperienceModel } from '../src/experience/llm/llm-model.ts';
import type { Framing } from '../src/experience/prompt.ts';
import { protocolAnswerer } from '../src/experience/serve-answer.ts';
import { SyntheticWorld } from '../src/experience/synthetic-env.ts';
import { countTokens, promptTokenStats } from '../src/experience/tokens.ts';
import { MemoryReplayStore } from '../src/replay/memory-store.ts';
import { ReplayBuffer } from '../src/replay/retrieval.ts';
import { agentSchedule, seedEpisodes } from '../src/replay/seed.ts';
import { median } from './stats.ts';
import { benchOptions } from './options.ts';

const K = 3;


/** The buffer's offline data: seeded train-split episodes, the paper's expert + random mix. */
async function seededTrainTransitions(env: string, episodes: number): Promise<Transition[]> {
  const out: Transition[] = [];
  for await (const e of seedEpisodes({ spec: envSpec(env), episodes, mix: { oracle: 0.6, random: 0.4 }, seed: 1, createdAt: 0 })) out.push(...e.transitions);
  return out;
}

async function fidelity(env: string, buffer: ReplayBuffer, heldoutCount: number): Promise<FidelityReport & { promptTokensPerStep: { mean: number; p95: number; max: number } }> {
  const { heldout } = await heldoutTransitions(envSpec(env), heldoutCount, { oracle: 0.5, random: 0.5 }, 1);
  const passes = [];
  for (let i = 0; i < 3; i++) passes.push(await measureFidelity({ model: new KnnExperienceModel(), buffer, k: K, heldout }));
  const { report, inputs } = passes[0] as (typeof passes)[number];
  return { ...report, transitionsPerSecond: median(passes.map((p) => p.report.transitionsPerSecond)), promptTokensPerStep: promptTokenStats(inputs) };
}

/** Scripted episodes in a synthetic env whose model is an LLM client talking to a kNN server. */
async function framingTraffic(env: string, buffer: ReplayBuffer, url: string, framing: Framing, episodes: number) {
  const spec = envSpec(env);
  const model = new LlmExperienceModel({ client: new OpenAiHttpClient({ baseUrl: url, model: 'knn', concurrency: 8 }), framing, countTokens });
  const starter = spec.createEnv();
  const world = new SyntheticWorld({ env, model, buffer, k: K, runId: `bench-${framing}`, writeBack: false, initialObservation: (t) => starter.reset(t) });
  const rng = new Rng(`bench-experience:${env}`);
  const tasks = episodeTasks(spec.tasks(spec.splits[0]?.name as string), episodes, 2);
  const schedule = agentSchedule({ oracle: 0.5, random: 0.5 }, episodes, rng.fork('schedule'));
  const started = performance.now();
  let steps = 0;
  // Eight episodes in lockstep, as a rollout batch would run.
  for (let start = 0; start < episodes; start += 8) {
    const lanes = await Promise.all(
      tasks.slice(start, start + 8).map(async (task, i) => {
        const lane = world.createEnv();
        const agent = createAgent(spec, schedule[start + i] as 'oracle' | 'random', rng.fork(`agent:${start + i}`));
        const first = await lane.reset(task as Task);
        agent.reset(task as Task, first);
        return { lane, agent, observation: first, done: false };
      }),
    );
    while (lanes.some((l) => !l.done)) {
      const live = lanes.filter((l) => !l.done);
      const results = await Promise.all(live.map((l) => l.lane.step(l.agent.act(l.observation))));
      results.forEach((r, i) => {
        const l = live[i] as (typeof live)[number];
        l.observation = r.observation;
        l.done = r.done;
      });
      steps += live.length;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const s = model.stats();
  return {
    framing,
    steps,
    promptTokensPerStep: Math.round(s.promptTokens / s.predictions),
    prefillTokensPerStep: Math.round(s.prefillTokens / s.predictions),
    completionTokensPerStep: Math.round(s.completionTokens / s.predictions),
    invalidOutputs: s.invalidOutputs,
    transitionsPerSecond: Math.round(steps / seconds),
  };
}

export async function experienceBench(args: string[]): Promise<unknown> {
  const { heldout, episodes: seedEpisodeCount } = benchOptions(args, { heldout: 1000, episodes: 400 });
  const out: Record<string, unknown> = { k: K, seedEpisodes: seedEpisodeCount, heldoutTransitions: heldout, tokenizer: 'llama-3' };
  for (const env of ['shop', 'home']) {
    const buffer = await ReplayBuffer.open(new MemoryReplayStore());
    await buffer.add(await seededTrainTransitions(env, seedEpisodeCount));
    const knn = await fidelity(env, buffer, heldout);
    const server = await startChatServer({ port: 0, model: 'knn', answer: protocolAnswerer(new KnnExperienceModel(), buffer, K) });
    try {
      const multi = await framingTraffic(env, buffer, server.url, 'multi-round', 48);
      const single = await framingTraffic(env, buffer, server.url, 'single', 48);
      out[env] = { bufferTransitions: buffer.index.count, knn, llmProtocolOverHttp: { multiRound: multi, single } };
    } finally {
      await server.close();
    }
  }
  return out;
}
