/**
 * Does retrieval ground? For held-out real transitions (the env's test split), the share of the k
 * retrieved neighbours that are on the same kind of page and take the same kind of action: the
 * neighbours the experience model reads should show what happens in *this* situation.
 */
import { parseState } from '../core/state.ts';
import type { EnvSpec } from '../envs/spec.ts';
import { actionKind, pageKind } from './embed.ts';
import { MemoryReplayStore } from './memory-store.ts';
import { ReplayBuffer } from './retrieval.ts';
import { parseMix, seedEpisodes } from './seed.ts';

export interface GroundingResult {
  env: string;
  stored: number;
  heldOutNeighbours: number;
  samePageAndActionKind: number;
}

/** Seed a buffer from `trainEpisodes` train-split episodes, then query it with `heldOutEpisodes` test-split ones. */
export async function measureGrounding(spec: EnvSpec, options: { trainEpisodes: number; heldOutEpisodes: number; k?: number }): Promise<GroundingResult> {
  const mix = parseMix('oracle=0.6,random=0.4');
  const k = options.k ?? 4;
  const buffer = await ReplayBuffer.open(new MemoryReplayStore());
  for await (const e of seedEpisodes({ spec, episodes: options.trainEpisodes, mix, seed: 1 })) await buffer.add(e.transitions);
  let agree = 0;
  let total = 0;
  for await (const e of seedEpisodes({ spec, episodes: options.heldOutEpisodes, mix, seed: 2, split: spec.testSplit })) {
    const neighbours = await buffer.nearest(e.transitions, k, { env: spec.name });
    e.transitions.forEach((t, i) => {
      const state = parseState(t.state.text);
      for (const n of neighbours[i] ?? []) {
        const other = parseState(n.state.text);
        total++;
        if (pageKind(other) === pageKind(state) && actionKind(n.action, other) === actionKind(t.action, state)) agree++;
      }
    });
  }
  return { env: spec.name, stored: buffer.index.count, heldOutNeighbours: total, samePageAndActionKind: total === 0 ? 0 : agree / total };
}
