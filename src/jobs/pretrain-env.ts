/**
 * The one world `pretrain` plays: the generated apps of the pretraining families, and nothing
 * else. The generated site already refuses another site's task and its page another family; this
 * guard refuses any task that is not the pretraining site's, before a page is asked, and counts the
 * episodes of each family for the model card. The held-out families, the bundled suite and a
 * folder of sites are never reachable from it.
 */
import { DreamGymError } from '../core/errors.ts';
import type { Env, Task } from '../core/types.ts';
import type { EnvDefinition } from '../envs/spec.ts';
import { generatedSite, generatedSites, PRETRAINING_FAMILIES } from '../envs/web/generated/index.ts';
import { isWebGoal } from '../envs/web/site.ts';

/** The pretraining site's name (`generated`), as its tasks' goals carry it. */
export const PRETRAINING_SITE = generatedSite('pretraining').site.name;

/** Episodes started, by family, as the guard saw them. */
export type FamilyCounts = Record<string, number>;

/** A task `pretrain` must never play was asked for: a bug, not a usage error. */
export class PretrainingWorldError extends DreamGymError {
  constructor(message: string) {
    super('pretrain-world', message);
  }
}

/** The family of a pretraining task; throws for any other task. */
export function pretrainingFamily(task: Task): string {
  const goal = task.goal;
  if (!isWebGoal(goal) || goal.site !== PRETRAINING_SITE || !(PRETRAINING_FAMILIES as readonly string[]).includes(goal.task)) {
    const where = isWebGoal(goal) ? `site "${goal.site}", task "${goal.task}"` : 'no generated site';
    throw new PretrainingWorldError(`pretrain plays only the generated pretraining families (${PRETRAINING_FAMILIES.join(', ')}); it was asked to play ${task.id} (${where})`);
  }
  return goal.task;
}

/** The pretraining families' `web` environment, guarded; `count` is told each episode's family as it starts. */
export function pretrainingEnvironment(count: (family: string) => void): EnvDefinition {
  const definition = generatedSites({ families: 'pretraining' });
  return { ...definition, createEnv: (options) => guarded(definition.createEnv(options), count) };
}

function guarded(env: Env, count: (family: string) => void): Env {
  const out: Env = {
    name: env.name,
    reset: async (task) => {
      count(pretrainingFamily(task));
      return env.reset(task);
    },
    step: (action) => env.step(action),
  };
  if (env.truncate) out.truncate = () => env.truncate?.();
  if (env.close) out.close = () => env.close?.() ?? Promise.resolve();
  if (env.screenshot) out.screenshot = () => env.screenshot?.() ?? Promise.resolve(null);
  return out;
}
