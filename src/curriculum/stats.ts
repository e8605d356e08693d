/**
 * Outcome statistics per task and policy version: what the curriculum's selection reads. A task's
 * group is the set of outcomes the current policy version produced on it (GRPO's G rollouts);
 * outcomes of an older version are kept only as totals, since they say how a policy that no longer
 * exists fared.
 */

/** `V_τ = (1/n) Σ (r_i − r̄)²`: the population variance of a group's returns (p(1−p) for 0/1 outcomes). */
export function outcomeVariance(returns: readonly number[]): number {
  const n = returns.length;
  if (n === 0) return 0;
  const mean = returns.reduce((a, r) => a + r, 0) / n;
  return returns.reduce((a, r) => a + (r - mean) * (r - mean), 0) / n;
}

/** The variance of `wins` successes among `n` 0/1 outcomes: `outcomeVariance` of that list, p(1 − p). */
export function successVariance(wins: number, n: number): number {
  const p = n === 0 ? 0 : wins / n;
  return p * (1 - p);
}

export interface OutcomeGroup {
  /** The policy version (number of updates before collection) that produced these outcomes. */
  policyVersion: number;
  returns: number[];
  wins: number;
}

export interface TaskTotals {
  attempts: number;
  successes: number;
  returnSum: number;
}

export interface EpisodeResult {
  taskId: string;
  return: number;
  won: boolean;
}

export class TaskStatistics {
  private readonly groups = new Map<string, OutcomeGroup>();
  private readonly totals = new Map<string, TaskTotals>();

  record(results: readonly EpisodeResult[], policyVersion: number): void {
    for (const r of results) {
      let group = this.groups.get(r.taskId);
      if (!group || group.policyVersion < policyVersion) {
        group = { policyVersion, returns: [], wins: 0 };
        this.groups.set(r.taskId, group);
      }
      if (group.policyVersion === policyVersion) {
        group.returns.push(r.return);
        if (r.won) group.wins++;
      }
      const t = this.totals.get(r.taskId) ?? { attempts: 0, successes: 0, returnSum: 0 };
      this.totals.set(r.taskId, { attempts: t.attempts + 1, successes: t.successes + (r.won ? 1 : 0), returnSum: t.returnSum + r.return });
    }
  }

  /** The outcomes of the newest policy version that played the task. */
  group(taskId: string): OutcomeGroup | undefined {
    return this.groups.get(taskId);
  }

  totalsOf(taskId: string): TaskTotals | undefined {
    return this.totals.get(taskId);
  }

  attempted(taskId: string): boolean {
    return this.totals.has(taskId);
  }

  /** Every task's newest group and totals, in the order they were first recorded (for a checkpoint). */
  snapshot(): TaskStatisticsState {
    return { groups: [...this.groups].map(([id, g]) => [id, { ...g, returns: [...g.returns] }]), totals: [...this.totals].map(([id, t]) => [id, { ...t }]) };
  }

  /** Replace what is recorded with a `snapshot()`. */
  restore(state: TaskStatisticsState): void {
    this.groups.clear();
    this.totals.clear();
    for (const [id, g] of state.groups) this.groups.set(id, { policyVersion: g.policyVersion, returns: [...g.returns], wins: g.wins });
    for (const [id, t] of state.totals) this.totals.set(id, { ...t });
  }
}

export interface TaskStatisticsState {
  groups: [string, OutcomeGroup][];
  totals: [string, TaskTotals][];
}
