/**
 * Retrieval over the app's replay store for a worker that only reads it (the experience worker):
 * one index per environment, rebuilt when the store changed since it was built (the Buffer view
 * seeds, imports and deletes in another worker); its real count and its runs tell.
 */
import { envSpec } from '../envs/registry.ts';
import { ReplayBuffer } from '../replay/retrieval.ts';
import type { ReplayStore } from '../replay/store.ts';
import type { BufferCounts } from './experience-protocol.ts';
import { Once } from './once.ts';

export class RetrievalCache {
  private readonly store: Once<ReplayStore>;
  private readonly buffers = new Map<string, { buffer: ReplayBuffer; signature: string }>();

  constructor(openStore: () => Promise<ReplayStore>) {
    this.store = new Once(openStore);
  }

  /** The env's real and synthetic transitions in the store. */
  async counts(env: string): Promise<BufferCounts> {
    envSpec(env);
    const store = await this.store.get();
    const [real, synthetic] = await Promise.all([store.count({ env, source: 'real' }), store.count({ env, source: 'synthetic' })]);
    return { env, real, synthetic };
  }

  /** The env's retrieval index over its real transitions, as the store holds them now. */
  async bufferFor(env: string): Promise<ReplayBuffer> {
    const store = await this.store.get();
    const [real, runs] = await Promise.all([store.count({ env, source: 'real' }), store.runs()]);
    const signature = `${real}|${runs.map((r) => r.id).sort().join(',')}`;
    const cached = this.buffers.get(env);
    if (cached?.signature === signature) return cached.buffer;
    const buffer = await ReplayBuffer.open(store, { filter: { env, source: 'real' } });
    this.buffers.set(env, { buffer, signature });
    return buffer;
  }
}
