/**
 * A CPU profile of some work in this process (V8's sampling profiler through node:inspector), and
 * where its time went: each function's share of the samples, inclusive (it or anything it called)
 * and self, named by function and file. Under tsx a module is one line, so functions are told apart
 * by name and file, not line; anonymous functions count together per file.
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

export interface ProfileShares {
  samples: number;
  /** The functions holding the largest shares of the samples, largest first. */
  inclusive: { fn: string; share: number }[];
  self: { fn: string; share: number }[];
}

/** Runs `work` under the profiler (sampling every `intervalMicros`), writes the .cpuprofile to `file`, and returns the shares. */
export async function profiled<T>(file: string, work: () => Promise<T>, top = 15, intervalMicros = 200): Promise<{ result: T; shares: ProfileShares }> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: intervalMicros });
    await session.post('Profiler.start');
    const result = await work();
    const { profile } = await session.post('Profiler.stop');
    await writeFile(file, JSON.stringify(profile));
    return { result, shares: profileShares(profile as unknown as Profile, top) };
  } finally {
    session.disconnect();
  }
}

export function profileShares(profile: Profile, top: number): ProfileShares {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n: ProfileNode): string => {
    const file = n.callFrame.url === '' ? '' : ` ${path.basename(n.callFrame.url)}`;
    return `${n.callFrame.functionName || '(anonymous)'}${file}`;
  };
  const hits = new Map<number, number>();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const inclusive = new Map<string, number>();
  const self = new Map<string, number>();
  for (const [id, count] of hits) {
    const leaf = byId.get(id);
    if (!leaf) continue;
    self.set(name(leaf), (self.get(name(leaf)) ?? 0) + count);
    // Each function once per sample, however deep it recurses.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (!node) break;
      const key = name(node);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + count);
    }
  }
  const total = profile.samples.length;
  const largest = (m: Map<string, number>) =>
    [...m].filter(([fn]) => fn !== '(root)' && fn !== '(program)').sort((a, b) => b[1] - a[1]).slice(0, top).map(([fn, n]) => ({ fn, share: Number((n / Math.max(1, total)).toFixed(3)) }));
  return { samples: total, inclusive: largest(inclusive), self: largest(self) };
}
