/**
 * Which tasks an iteration trains on. The curriculum keeps the tasks the current policy sometimes
 * solves and sometimes fails: those with the highest outcome variance over their group (the task's
 * own GRPO group, or for PPO its cluster). Unattempted tasks get a floor share of the slots so the
 * pool keeps being explored, and generated tasks take at most a `λ` share.
 */
import type { Rng } from '../core/rng.ts';
import type { Task } from '../core/types.ts';

export interface SelectionConfig {
  /** λ: the largest share of an iteration's tasks that may be generated ones. */
  lambda: number;
  /** The share of the seed-task slots kept for tasks never attempted (while any are left). */
  explorationFloor: number;
  /** Most tasks the variance pass takes from one group (1 for GRPO, where a group is a task). */
  perGroup: number;
}

export interface Candidate {
  task: Task;
  /** The group whose outcomes score this task: its own id, or its cluster's. */
  group: string;
  /** The group's outcome variance under a recent policy version; null when there is none. */
  score: number | null;
  attempted: boolean;
}

export interface Selection {
  tasks: Task[];
  /** How each slot was filled, for the metrics. */
  generated: number;
  explored: number;
  byVariance: number;
  filled: number;
  /** Mean score of the tasks picked by variance (0 if none). */
  meanVariance: number;
}

export function selectTasks(candidates: readonly Candidate[], count: number, config: SelectionConfig, rng: Rng): Selection {
  const order = rng.shuffle(candidates); // random among equals
  const picked = new Set<Candidate>();
  const take = (c: Candidate): void => {
    if (picked.size < count) picked.add(c);
  };
  const free = (c: Candidate): boolean => !picked.has(c);
  const byScore = (a: Candidate, b: Candidate): number => (b.score ?? 0) - (a.score ?? 0);

  // Generated tasks: new ones first (they were made to be tried), then those still varied.
  const generated = order.filter((c) => c.task.origin === 'generated' && (!c.attempted || (c.score ?? 0) > 0));
  const fresh = generated.filter((c) => !c.attempted);
  const cap = Math.min(count, Math.floor(config.lambda * count));
  for (const c of [...fresh, ...generated.filter((c) => c.attempted).sort(byScore)].slice(0, cap)) take(c);
  const generatedCount = picked.size;

  const seeds = order.filter((c) => c.task.origin !== 'generated');
  const unseen = seeds.filter((c) => !c.attempted);
  const exploreCount = Math.min(unseen.length, Math.ceil(config.explorationFloor * (count - picked.size)));
  for (const c of unseen.slice(0, exploreCount)) take(c);
  const explored = picked.size - generatedCount;

  const perGroup = new Map<string, number>();
  let varianceSum = 0;
  let varianceCount = 0;
  for (const c of seeds.filter((c) => (c.score ?? 0) > 0).sort(byScore)) {
    if (picked.size >= count) break;
    const used = perGroup.get(c.group) ?? 0;
    if (!free(c) || used >= config.perGroup) continue;
    perGroup.set(c.group, used + 1);
    take(c);
    varianceSum += c.score ?? 0;
    varianceCount++;
  }
  const before = picked.size;
  // Never past λ: the fill takes seed tasks only, the unattempted first.
  for (const c of [...unseen, ...seeds]) if (free(c)) take(c);
  return {
    tasks: [...picked].map((c) => c.task),
    generated: generatedCount,
    explored,
    byVariance: varianceCount,
    filled: picked.size - before,
    meanVariance: varianceCount > 0 ? varianceSum / varianceCount : 0,
  };
}
