/**
 * The curriculum task generator, the third part of DreamGym: it keeps per-task outcome statistics
 * under the current policy, chooses each iteration's tasks by outcome variance over their group
 * (`selection.ts`), and after each iteration asks a generator for variations of the tasks with the
 * highest variance, which join the pool with at most a `λ` share of any iteration.
 */
import type { Rng } from '../core/rng.ts';
import type { Task } from '../core/types.ts';
import { isSyntheticOnly } from '../envs/variation.ts';
import { embedTask } from '../replay/embed.ts';
import { TaskClusters } from './clusters.ts';
import type { GeneratorStats, TaskGenerator } from './generator.ts';
import { selectTasks, type Candidate, type Selection } from './selection.ts';
import { outcomeVariance, successVariance, TaskStatistics, type EpisodeResult, type TaskStatisticsState } from './stats.ts';

/**
 * What a group's outcome variance is computed over. `success`: the 0/1 outcome the tables judge,
 * so the variance is p(1 − p), the paper's reward entropy over binary outcome rewards. `return`: the
 * episodes' summed rewards, which also count a shop purchase's partial score and, inside an
 * experience model, the partial rewards it predicts at the end of episodes it does not call a success.
 */
export type CurriculumOutcome = 'success' | 'return';
export const CURRICULUM_OUTCOMES: readonly CurriculumOutcome[] = ['success', 'return'];

/**
 * Which variations the generator may make: `any` direction's edits, or only those that keep the
 * task's kind (the household's task type; a shop variation always stays in its department), as the
 * paper's generator keeps a task's type and changes its constraints.
 */
export type VariationScope = 'any' | 'same-kind';
export const VARIATION_SCOPES: readonly VariationScope[] = ['any', 'same-kind'];

export interface CurriculumConfig {
  /** λ: the largest share of an iteration's tasks that may be generated. */
  lambda: number;
  /** What a group's variance is computed over. */
  outcome: CurriculumOutcome;
  /** Which variations generated tasks may be (read by the default generator). */
  variations: VariationScope;
  /** Share of the seed-task slots kept for tasks never attempted. */
  explorationFloor: number;
  /** A group's variance counts for this many policy versions after it was measured. */
  staleAfter: number;
  /** PPO: tasks are clustered into this many groups by their instruction embeddings. */
  clusters: number;
  /** Generated tasks kept in the pool at most (the oldest that stopped varying go first). */
  maxGenerated: number;
}

export const DEFAULT_CURRICULUM: CurriculumConfig = {
  lambda: 0.25,
  // Success finds the tasks whose real success varies better than return does, on both
  // environments (results/curriculum/: in-model variance of a starting policy against its real one).
  outcome: 'success',
  variations: 'any',
  explorationFloor: 0.2,
  staleAfter: 20,
  clusters: 48,
  maxGenerated: 256,
};

/** What a task's group is: the task itself (GRPO's G rollouts) or its embedding cluster (PPO). */
export type Grouping = 'task' | 'cluster';

/** One row of the Curriculum view. */
export interface CurriculumRow {
  id: string;
  instruction: string;
  origin: Task['origin'];
  parentId: string | null;
  syntheticOnly: boolean;
  difficulty: number;
  group: string;
  attempts: number;
  successRate: number | null;
  /** The group's outcome variance under the newest policy version that played it. */
  variance: number | null;
  policyVersion: number | null;
}

export interface CurriculumSummary {
  generator: string;
  lambda: number;
  outcome: CurriculumOutcome;
  /** What the variances are computed over now: `outcome`, or the return where no group's success varies. */
  outcomeInUse: CurriculumOutcome;
  variations: VariationScope;
  grouping: Grouping;
  pool: number;
  generatedInPool: number;
  generatorStats: GeneratorStats;
}

/**
 * What a checkpoint keeps of a curriculum to go on exactly: the policy version it has seen, the
 * generated tasks in the pool (oldest first, as the pool orders them), every task's outcomes and the
 * generator's counters. The seed tasks and their clusters are rebuilt from the run's settings.
 */
export interface CurriculumState {
  version: number;
  generated: Task[];
  statistics: TaskStatisticsState;
  generator: GeneratorStats;
}

export interface CurriculumOptions {
  grouping: Grouping;
  config?: Partial<CurriculumConfig>;
  generator: TaskGenerator;
  rng: Rng;
}

export class Curriculum {
  readonly config: CurriculumConfig;
  private readonly stats = new TaskStatistics();
  private readonly tasks = new Map<string, Task>();
  private readonly groupOf = new Map<string, string>();
  private readonly clusters: TaskClusters | null;
  private generated: string[] = [];
  private version = 0;
  lastSelection: Selection | null = null;

  constructor(seedTasks: readonly Task[], private readonly options: CurriculumOptions) {
    this.config = { ...DEFAULT_CURRICULUM, ...options.config };
    if (!(this.config.lambda >= 0 && this.config.lambda <= 1)) throw new RangeError(`λ must be in [0, 1], got ${this.config.lambda}`);
    if (!(this.config.explorationFloor >= 0 && this.config.explorationFloor <= 1)) throw new RangeError(`the exploration floor must be in [0, 1], got ${this.config.explorationFloor}`);
    if (!CURRICULUM_OUTCOMES.includes(this.config.outcome)) throw new RangeError(`the curriculum's outcome must be one of ${CURRICULUM_OUTCOMES.join(', ')}, got ${String(this.config.outcome)}`);
    if (!VARIATION_SCOPES.includes(this.config.variations)) throw new RangeError(`the curriculum's variations must be one of ${VARIATION_SCOPES.join(', ')}, got ${String(this.config.variations)}`);
    for (const t of seedTasks) this.tasks.set(t.id, t);
    this.clusters = options.grouping === 'cluster' ? TaskClusters.fit(seedTasks.map((t) => embedTask(t)), this.config.clusters, options.rng.fork('clusters')) : null;
    for (const t of seedTasks) this.groupOf.set(t.id, this.groupKey(t));
  }

  private groupKey(task: Task): string {
    return this.clusters ? `c${this.clusters.nearest(embedTask(task))}` : task.id;
  }

  task(id: string): Task | undefined {
    return this.tasks.get(id);
  }

  /** The nearest ancestor with a real goal (a synthetic-only task starts from its parent's first page). */
  realAncestor(task: Task): Task | undefined {
    let t: Task | undefined = task;
    while (t && isSyntheticOnly(t)) t = t.parentId ? this.tasks.get(t.parentId) : undefined;
    return t;
  }

  /** Each group's recent outcomes (clusters pool their tasks'): groups measured by a recent policy version only. */
  private groupOutcomes(): Map<string, { returns: number[]; wins: number }> {
    const pooled = new Map<string, { returns: number[]; wins: number }>();
    for (const id of this.tasks.keys()) {
      const g = this.stats.group(id);
      if (!g || this.version - g.policyVersion > this.config.staleAfter) continue;
      const key = this.groupOf.get(id) as string;
      const entry = pooled.get(key) ?? { returns: [], wins: 0 };
      entry.returns.push(...g.returns);
      entry.wins += g.wins;
      pooled.set(key, entry);
    }
    return pooled;
  }

  /** A group's outcome variance over `outcome`. */
  private static variance(outcomes: { returns: readonly number[]; wins: number }, outcome: CurriculumOutcome): number {
    return outcome === 'return' ? outcomeVariance(outcomes.returns) : successVariance(outcomes.wins, outcomes.returns.length);
  }

  /**
   * The outcome the variances are computed over now: the configured one, unless it is the success
   * and no measured group's success varies while some group's return does (every episode of a
   * group won, or none did: a model that calls nothing a success, a policy that always fails). Then
   * the return, which still tells the tasks apart, rather than choosing nothing by variance.
   */
  private outcomeInUse(groups: ReadonlyMap<string, { returns: number[]; wins: number }>): CurriculumOutcome {
    if (this.config.outcome !== 'success') return this.config.outcome;
    const measured = [...groups.values()].filter((o) => o.returns.length >= 2);
    const successVaries = measured.some((o) => Curriculum.variance(o, 'success') > 0);
    const returnVaries = measured.some((o) => Curriculum.variance(o, 'return') > 0);
    return !successVaries && returnVaries ? 'return' : 'success';
  }

  /** Each group's outcome variance, where it has at least two outcomes. */
  private groupScores(): Map<string, number> {
    const groups = this.groupOutcomes();
    const outcome = this.outcomeInUse(groups);
    return new Map([...groups].filter(([, o]) => o.returns.length >= 2).map(([k, o]) => [k, Curriculum.variance(o, outcome)]));
  }

  /** This iteration's tasks; `realOnly` leaves out synthetic-only ones (a real-environment phase). */
  next(count: number, rng: Rng, options: { realOnly?: boolean } = {}): Task[] {
    const scores = this.groupScores();
    const perGroup = this.clusters ? Math.max(1, Math.ceil(count / 8)) : 1;
    const candidates: Candidate[] = [];
    for (const task of this.tasks.values()) {
      if (options.realOnly && isSyntheticOnly(task)) continue;
      const group = this.groupOf.get(task.id) as string;
      candidates.push({ task, group, score: scores.get(group) ?? null, attempted: this.stats.attempted(task.id) });
    }
    const selection = selectTasks(candidates, count, { lambda: this.config.lambda, explorationFloor: this.config.explorationFloor, perGroup }, rng);
    this.lastSelection = selection;
    return selection.tasks;
  }

  /**
   * Fold an iteration's outcomes (played by `policyVersion`, the number of updates before it) into
   * the statistics and generate variations of the tasks whose groups vary most. Returns the new tasks.
   */
  async observe(results: readonly EpisodeResult[], policyVersion: number, perIteration: number, rng: Rng): Promise<Task[]> {
    this.stats.record(results, policyVersion);
    this.version = Math.max(this.version, policyVersion + 1);
    const want = Math.max(0, Math.ceil(this.config.lambda * perIteration));
    if (want === 0) return [];
    // Parents: tasks just played whose group varies most (for PPO, tasks of the most varied clusters).
    const groups = this.groupOutcomes();
    const outcome = this.outcomeInUse(groups);
    const parents = [...new Set(results.map((r) => r.taskId))]
      .map((id) => ({ id, outcomes: groups.get(this.groupOf.get(id) as string) }))
      .filter((p) => p.outcomes && p.outcomes.returns.length >= 2 && !isSyntheticOnly(this.tasks.get(p.id) as Task))
      .map((p) => ({
        id: p.id,
        variance: p.outcomes ? Curriculum.variance(p.outcomes, outcome) : 0,
        successRate: (p.outcomes?.wins ?? 0) / (p.outcomes?.returns.length ?? 1),
      }))
      .filter((p) => p.variance > 0)
      .sort((a, b) => b.variance - a.variance)
      .slice(0, want);
    const made = await this.options.generator.generate(
      parents.map((p) => ({ parent: this.tasks.get(p.id) as Task, successRate: p.successRate, variance: p.variance })),
      rng,
    );
    // Checked one by one: two parents can make the same variation in one batch (a web world of a
    // few entities recombines into the same goal), and the pool holds a task once.
    const fresh: Task[] = [];
    for (const t of made) {
      if (this.tasks.has(t.id)) continue;
      this.tasks.set(t.id, t);
      this.groupOf.set(t.id, this.groupKey(t));
      this.generated.push(t.id);
      fresh.push(t);
    }
    this.prune();
    return fresh;
  }

  /** Keep the pool of generated tasks bounded: drop those that stopped varying first, then the oldest. */
  private prune(): void {
    const excess = this.generated.length - this.config.maxGenerated;
    if (excess <= 0) return;
    const scores = this.groupScores();
    const settled = this.generated.filter((id) => this.stats.attempted(id) && !((scores.get(this.groupOf.get(id) as string) ?? 0) > 0));
    const drop = new Set([...settled, ...this.generated].slice(0, excess));
    this.generated = this.generated.filter((id) => !drop.has(id));
    for (const id of drop) this.tasks.delete(id);
  }

  snapshot(): CurriculumState {
    return {
      version: this.version,
      generated: this.generated.map((id) => this.tasks.get(id) as Task),
      statistics: this.stats.snapshot(),
      generator: this.options.generator.stats(),
    };
  }

  /**
   * Go on from a `snapshot()` of a curriculum over the same seed tasks: the generated tasks join the
   * pool in their order, so the pool (and every choice made from it) is the one the snapshot left.
   */
  restore(state: CurriculumState): void {
    if (this.generated.length > 0 || this.version > 0) throw new Error('a curriculum is restored before it is used');
    const restored = new Set<string>();
    for (const t of state.generated) {
      // A checkpoint written before a batch's duplicates were dropped may list one twice: kept as it was, so the run goes on as it would have.
      if (restored.has(t.id)) {
        this.generated.push(t.id);
        continue;
      }
      if (this.tasks.has(t.id)) throw new RangeError(`the checkpoint's generated task ${t.id} is already in the pool`);
      restored.add(t.id);
      this.tasks.set(t.id, t);
      this.groupOf.set(t.id, this.groupKey(t));
      this.generated.push(t.id);
    }
    this.stats.restore(state.statistics);
    this.version = state.version;
    this.options.generator.restoreStats?.(state.generator);
  }

  /** Every task in the pool with its statistics, the most varied first. */
  rows(): CurriculumRow[] {
    const scores = this.groupScores();
    return [...this.tasks.values()]
      .map((t) => {
        const totals = this.stats.totalsOf(t.id);
        const group = this.groupOf.get(t.id) as string;
        const g = this.stats.group(t.id);
        return {
          id: t.id,
          instruction: t.instruction,
          origin: t.origin,
          parentId: t.parentId ?? null,
          syntheticOnly: isSyntheticOnly(t),
          difficulty: t.difficulty,
          group,
          attempts: totals?.attempts ?? 0,
          successRate: totals ? totals.successes / totals.attempts : null,
          variance: scores.get(group) ?? null,
          policyVersion: g?.policyVersion ?? null,
        };
      })
      .sort((a, b) => (b.variance ?? -1) - (a.variance ?? -1) || b.attempts - a.attempts);
  }

  summary(): CurriculumSummary {
    return {
      generator: this.options.generator.name,
      lambda: this.config.lambda,
      outcome: this.config.outcome,
      outcomeInUse: this.outcomeInUse(this.groupOutcomes()),
      variations: this.config.variations,
      grouping: this.options.grouping,
      pool: this.tasks.size,
      generatedInPool: this.generated.length,
      generatorStats: this.options.generator.stats(),
    };
  }
}
