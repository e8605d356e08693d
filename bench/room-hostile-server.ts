/**
 * The room of `npm run bench -- room-hostile`, in a process of its own: kNN on a seeded shop buffer
 * behind the chat server, as `serve` answers. Sends its URL to the parent, ends with it.
 */
import { envSpec } from '../src/envs/registry.ts';
import { KnnExperienceModel } from '../src/experience/knn.ts';
import { startChatServer } from '../src/experience/llm/chat-server.ts';
import { protocolAnswerer } from '../src/experience/serve-answer.ts';
import { MemoryReplayStore } from '../src/replay/memory-store.ts';
import { ReplayBuffer } from '../src/replay/retrieval.ts';
import { seedEpisodes } from '../src/replay/seed.ts';

const buffer = await ReplayBuffer.open(new MemoryReplayStore());
for await (const episode of seedEpisodes({ spec: envSpec('shop'), episodes: 6, mix: { oracle: 0.6, random: 0.4 }, seed: 1, createdAt: 1 })) await buffer.add(episode.transitions);
const server = await startChatServer({ model: 'knn', rateLimit: 0, log: () => undefined, answer: protocolAnswerer(new KnnExperienceModel(), buffer, 3) });
process.send?.({ url: server.url });
process.on('disconnect', () => void server.close().finally(() => process.exit(0)));
process.on('SIGTERM', () => void server.close().finally(() => process.exit(0)));
