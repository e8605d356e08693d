/** Turning collected trajectories into update samples: GAE for PPO, group-normalised outcomes for GRPO. */
import { gae, groupAdvantages } from './advantages.ts';
import type { GrpoConfig, PpoConfig } from './config.ts';
import type { Trajectory } from './rollout.ts';
import type { UpdateSample } from './update.ts';

export function ppoSamples(trajectories: readonly Trajectory[], config: Pick<PpoConfig, 'gamma' | 'gaeLambda'>): UpdateSample[] {
  const out: UpdateSample[] = [];
  for (const t of trajectories) {
    // Episodes cut by the step limit are treated as ended: the limit is part of the task.
    const { advantages, returns } = gae(
      t.steps.map((s) => s.reward),
      t.steps.map((s) => s.value),
      t.steps.map((s) => s.done),
      0,
      config.gamma,
      config.gaeLambda,
    );
    t.steps.forEach((s, i) =>
      out.push({
        features: s.features,
        actionIndex: s.actionIndex,
        oldLogProb: s.logProb,
        advantage: advantages[i] as number,
        returnTarget: returns[i] as number,
        oldValue: s.value,
        referenceLogProb: 0,
      }),
    );
  }
  return out;
}

/**
 * Trajectories grouped by task id; each trajectory's normalised outcome becomes the advantage of
 * every one of its steps. Groups where every outcome is equal teach nothing and give zeros; a group
 * of one (the rest cut off by the budget) is dropped. With `lossAverage: 'trajectory'` each step
 * weighs 1/length of its trajectory, scaled so the weights still average 1 over the batch.
 */
export function grpoSamples(trajectories: readonly Trajectory[], config: Pick<GrpoConfig, 'lossAverage'>): UpdateSample[] {
  const groups = new Map<string, Trajectory[]>();
  for (const t of trajectories) {
    const group = groups.get(t.task.id) ?? [];
    group.push(t);
    groups.set(t.task.id, group);
  }
  const kept = [...groups.values()].filter((group) => group.length >= 2);
  const keptSteps = kept.reduce((n, group) => n + group.reduce((m, t) => m + t.steps.length, 0), 0);
  const keptTrajectories = kept.reduce((n, group) => n + group.length, 0);
  const out: UpdateSample[] = [];
  for (const group of kept) {
    const advantages = groupAdvantages(group.map((t) => t.totalReward));
    group.forEach((t, g) => {
      const weight = config.lossAverage === 'trajectory' ? keptSteps / (keptTrajectories * t.steps.length) : 1;
      for (const s of t.steps) {
        out.push({
          features: s.features,
          actionIndex: s.actionIndex,
          oldLogProb: s.logProb,
          advantage: advantages[g] as number,
          returnTarget: 0,
          oldValue: 0,
          referenceLogProb: 0,
          weight,
        });
      }
    });
  }
  return out;
}
