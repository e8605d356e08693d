/** Small data the experience tests share: a seeded shop buffer and real steps to ask about. */
import type { Observation, Task, Transition } from '../../../src/core/types.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import type { ExperienceInput } from '../../../src/experience/types.ts';
import { MemoryReplayStore } from '../../../src/replay/memory-store.ts';
import { ReplayBuffer } from '../../../src/replay/retrieval.ts';
import { seedEpisodes } from '../../../src/replay/seed.ts';

export async function seededTransitions(env: string, episodes: number, seed = 1, split?: string): Promise<Transition[]> {
  const out: Transition[] = [];
  for await (const e of seedEpisodes({ spec: envSpec(env), episodes, mix: { oracle: 0.6, random: 0.4 }, seed, createdAt: 1, ...(split ? { split } : {}) })) out.push(...e.transitions);
  return out;
}

export async function seededBuffer(env: string, episodes: number, seed = 1): Promise<ReplayBuffer> {
  const buffer = await ReplayBuffer.open(new MemoryReplayStore());
  await buffer.add(await seededTransitions(env, episodes, seed));
  return buffer;
}

/** The first step of a shop test task: the search page and a search. */
export async function shopSearchStep(): Promise<{ task: Task; first: Observation; input: ExperienceInput }> {
  const spec = envSpec('shop');
  const task = spec.tasks('test')[0] as Task;
  const first = await spec.createEnv().reset(task);
  return { task, first, input: { task, history: [], state: first, action: 'search[running shoes]', examples: [] } };
}
