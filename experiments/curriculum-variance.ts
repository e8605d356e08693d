/**
 * `npm run experiment -- curriculum-variance --env <shop|home> --policy <FILE.dgp|untrained> --model FILE.dgx --buffer FILE.jsonl [--tasks 60] [--group 8] [--split train] [--seed 1] [--k 3]`
 *
 * Whether the tasks the curriculum picks are those whose real outcome varies. The curriculum scores
 * a task by the variance of its group's outcomes, and in a dream that group is played inside the
 * experience model: a model that predicts success wrongly points the curriculum at the wrong tasks.
 * For `--tasks` tasks of the split (a seeded choice), this plays `--group` sampled episodes of the
 * policy inside the model (the synthetic env `train --mode dream` trains in, built by the trainer
 * itself, with its step limit) and `--group` in the real environment, and compares, task by task,
 * the outcome variance the curriculum would see with the one it is meant to find.
 *
 * Two outcomes are compared, the two the curriculum can score by (`--curriculum-outcome`): success
 * (`won`: 0/1, variance p(1 − p) ≤ 0.25), the outcome that matters, and the episode's return (the
 * sum of rewards). They differ inside the model, which may pay rewards without the episode ending
 * in a success, and in the shop, whose reward is partial. `returnForSuccess` ranks by in-model
 * return and judges by real success, so it and `success` answer which score finds the tasks whose
 * real success varies.
 */
import type { Env, Task } from '../src/core/types.ts';
import { Rng } from '../src/core/rng.ts';
import { outcomeVariance } from '../src/curriculum/stats.ts';
import type { EnvSpec } from '../src/envs/spec.ts';
import { createTrainer } from '../src/jobs/train.ts';
import type { Policy } from '../src/policy/policy.ts';
import { collectTrajectories, type Trajectory } from '../src/rl/rollout.ts';
import type { DreamOptions, Trainer } from '../src/train/trainer.ts';
import { DEFAULT_CURRICULUM } from '../src/curriculum/curriculum.ts';

/** One side's (the model's or the real env's) outcomes on one task's group. */
export interface GroupOutcome {
  episodes: number;
  successRate: number;
  /** Population variance of the 0/1 successes: p(1 − p). */
  successVariance: number;
  meanReturn: number;
  /** Population variance of the returns: the curriculum's score. */
  returnVariance: number;
  /** Mean episode length in steps. */
  meanSteps: number;
}

export interface TaskRow {
  task: string;
  instruction: string;
  model: GroupOutcome;
  real: GroupOutcome;
}

/** How well the in-model variance of one outcome (success or return) stands for the real one. */
export interface VarianceFigures {
  /** Correlation of in-model and real variance over the tasks; null where either is constant. */
  pearson: number | null;
  spearman: number | null;
  /**
   * The quarter of the tasks (rounded up) with the highest in-model variance, ties in task order;
   * `varying` of them have any in-model variance (the curriculum's variance pass takes no other).
   */
  topQuarter: { tasks: number; varying: number; meanModelVariance: number; meanRealVariance: number; lowestModelVariance: number };
  /** Mean real variance of every task: what a uniform choice gets. */
  meanRealVariance: number;
  /** Tasks whose in-model outcome varies at all (the only ones the variance pass can pick). */
  modelVaries: { tasks: number; meanRealVariance: number | null };
  /** Share of the tasks whose real outcome varies but whose in-model outcome never does: the curriculum cannot pick them. */
  realVariesModelNever: number;
  /** Share of the tasks whose in-model outcome varies but whose real outcome never does: picked for nothing. */
  modelVariesRealNever: number;
}

export interface CurriculumVarianceReport {
  env: string;
  split: string;
  tasks: number;
  group: number;
  /** Step limit of the episodes on both sides (training's). */
  maxSteps: number;
  successRate: { model: number; real: number };
  meanReturn: { model: number; real: number };
  /** In-model against real success variance. */
  success: VarianceFigures;
  /** In-model against real return variance (`--curriculum-outcome return`'s score). */
  return: VarianceFigures;
  /**
   * Tasks ranked by in-model return variance, judged by real success variance: against `success`,
   * which of the curriculum's two outcomes finds the tasks whose real success varies.
   */
  returnForSuccess: VarianceFigures;
  rows: TaskRow[];
}

export interface CurriculumVarianceOptions {
  /** The policy to play; `'untrained'` is the one `train --seed S` starts from. */
  policy: Policy | 'untrained';
  dream: Pick<DreamOptions, 'model' | 'buffer' | 'k' | 'offlineTransitions' | 'imagine'>;
  tasks: number;
  group: number;
  split: string;
  seed: number;
  /** Training's `--train-max-steps`, if the dream being judged used one. */
  trainMaxSteps?: number | undefined;
  backend: string;
}

/** Anything above this is a variance, not rounding. */
const VARIES = 1e-12;

const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, x) => a + x, 0) / xs.length);

export function pearson(xs: readonly number[], ys: readonly number[]): number | null {
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  xs.forEach((x, i) => {
    const dx = x - mx;
    const dy = (ys[i] as number) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  });
  return sxx <= VARIES || syy <= VARIES ? null : sxy / Math.sqrt(sxx * syy);
}

/** Ranks from 1, tied values sharing their mean rank. */
export function ranks(xs: readonly number[]): number[] {
  const order = xs.map((x, i) => ({ x, i })).sort((a, b) => a.x - b.x);
  const out = new Array<number>(xs.length);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && Math.abs((order[end + 1] as { x: number }).x - (order[start] as { x: number }).x) <= VARIES) end++;
    for (let j = start; j <= end; j++) out[(order[j] as { i: number }).i] = (start + end) / 2 + 1;
    start = end + 1;
  }
  return out;
}

export const spearman = (xs: readonly number[], ys: readonly number[]): number | null => pearson(ranks(xs), ranks(ys));

export function groupOutcome(trajectories: readonly Trajectory[]): GroupOutcome {
  const wins = trajectories.map((t) => (t.won ? 1 : 0));
  const returns = trajectories.map((t) => t.totalReward);
  return {
    episodes: trajectories.length,
    successRate: mean(wins),
    successVariance: outcomeVariance(wins),
    meanReturn: mean(returns),
    returnVariance: outcomeVariance(returns),
    meanSteps: mean(trajectories.map((t) => t.steps.length)),
  };
}

type VarianceKey = 'successVariance' | 'returnVariance';

/**
 * The figures for one outcome, from the rows: the tasks ranked by their in-model variance of
 * `key`, judged by their real variance of `realKey` (by default the same outcome).
 */
export function varianceFigures(rows: readonly TaskRow[], key: VarianceKey, realKey: VarianceKey = key): VarianceFigures {
  const model = rows.map((r) => r.model[key]);
  const real = rows.map((r) => r.real[realKey]);
  const byModel = rows.map((_, i) => i).sort((a, b) => (model[b] as number) - (model[a] as number) || a - b);
  const top = byModel.slice(0, Math.ceil(rows.length / 4));
  const varies = rows.map((_, i) => i).filter((i) => (model[i] as number) > VARIES);
  const share = (test: (i: number) => boolean): number => (rows.length === 0 ? 0 : rows.filter((_, i) => test(i)).length / rows.length);
  return {
    pearson: pearson(model, real),
    spearman: spearman(model, real),
    topQuarter: {
      tasks: top.length,
      varying: top.filter((i) => (model[i] as number) > VARIES).length,
      meanModelVariance: mean(top.map((i) => model[i] as number)),
      meanRealVariance: mean(top.map((i) => real[i] as number)),
      lowestModelVariance: top.length === 0 ? 0 : (model[top.at(-1) as number] as number),
    },
    meanRealVariance: mean(real),
    modelVaries: { tasks: varies.length, meanRealVariance: varies.length === 0 ? null : mean(varies.map((i) => real[i] as number)) },
    realVariesModelNever: share((i) => (real[i] as number) > VARIES && (model[i] as number) <= VARIES),
    modelVariesRealNever: share((i) => (model[i] as number) > VARIES && (real[i] as number) <= VARIES),
  };
}

/**
 * A dream trainer used only to build envs: the synthetic env it gives (initial observation,
 * retrieval, step limit) is the one `train --mode dream` trains in, and its real env has training's
 * step limit too. Nothing is trained. Its policy is the one `train --seed S` starts from.
 */
export function envBuilder(spec: EnvSpec, options: { dream: CurriculumVarianceOptions['dream']; seed: number; trainMaxSteps?: number | undefined; backend: string; episodes: number }): Trainer {
  return createTrainer({
    env: spec.name,
    mode: 'dream',
    algo: 'grpo',
    backend: options.backend,
    run: { seed: options.seed, evalEvery: 0, lambda: DEFAULT_CURRICULUM.lambda, explorationFloor: DEFAULT_CURRICULUM.explorationFloor, trainMaxSteps: options.trainMaxSteps },
    curriculum: false,
    // Write-back only adds synthetic transitions, which retrieval (real transitions only) never reads.
    dream: { ...options.dream, syntheticBudget: Math.max(1, options.episodes * (options.trainMaxSteps ?? spec.maxSteps)), writeBack: false },
  });
}

/** Each task's `group` trajectories, in task order. */
function byTask(tasks: readonly Task[], trajectories: readonly Trajectory[]): Map<string, Trajectory[]> {
  const out = new Map(tasks.map((t) => [t.id, [] as Trajectory[]]));
  for (const t of trajectories) out.get(t.task.id)?.push(t);
  return out;
}

export async function curriculumVariance(spec: EnvSpec, options: CurriculumVarianceOptions): Promise<CurriculumVarianceReport> {
  const { group, seed } = options;
  const chosen = new Rng(`curriculum-variance:${spec.name}:${options.split}:${seed}`).sample(spec.tasks(options.split), options.tasks);
  const played = chosen.flatMap((t) => Array.from({ length: group }, () => t));
  const trainer = envBuilder(spec, { ...options, episodes: played.length });
  const policy = options.policy === 'untrained' ? trainer.policy : options.policy;
  if (policy !== trainer.policy) trainer.policy.dispose();
  // The trainer's own builder of a phase's lanes, not a copy of it.
  const envsOf = (phase: 'dream' | 'real'): Env[] => trainer.trainingEnvs(Math.min(trainer.config.parallelEnvs, played.length), phase);
  const root = new Rng(`curriculum-variance:act:${seed}`);
  try {
    const dreamt = await collectTrajectories({ envs: envsOf('dream'), tasks: played, policy, greedy: false, rng: root.fork('model') });
    const real = await collectTrajectories({ envs: envsOf('real'), tasks: played, policy, greedy: false, rng: root.fork('real') });
    const modelBy = byTask(chosen, dreamt.trajectories);
    const realBy = byTask(chosen, real.trajectories);
    const rows: TaskRow[] = chosen.map((t) => ({ task: t.id, instruction: t.instruction, model: groupOutcome(modelBy.get(t.id) ?? []), real: groupOutcome(realBy.get(t.id) ?? []) }));
    const overall = (side: 'model' | 'real', key: 'successRate' | 'meanReturn'): number => mean(rows.map((r) => r[side][key]));
    return {
      env: spec.name,
      split: options.split,
      tasks: rows.length,
      group,
      maxSteps: options.trainMaxSteps ?? spec.maxSteps,
      successRate: { model: overall('model', 'successRate'), real: overall('real', 'successRate') },
      meanReturn: { model: overall('model', 'meanReturn'), real: overall('real', 'meanReturn') },
      success: varianceFigures(rows, 'successVariance'),
      return: varianceFigures(rows, 'returnVariance'),
      returnForSuccess: varianceFigures(rows, 'returnVariance', 'successVariance'),
      rows,
    };
  } finally {
    if (options.policy === 'untrained') trainer.policy.dispose();
    // The real envs the trainer opened (a web env's pages): closed as its own runs close them.
    await trainer.closeTrainingEnvs();
  }
}
