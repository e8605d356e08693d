/**
 * What the generated apps' Chromium tests share: each selection's site with a few seeds a split
 * (its instances are the same ones the full site makes for those seeds), played by one env, one
 * page, through the step limit the CLI puts around it.
 */
import type { Env, Task } from '../../../../src/core/types.ts';
import { withStepLimit } from '../../../../src/envs/step-limit.ts';
import type { EnvDefinition } from '../../../../src/envs/spec.ts';
import { webSiteEnvironment } from '../../../../src/envs/web/index.ts';
import { generatedSite, type AppData, type FamilySelection } from '../../../../src/envs/web/generated/index.ts';
import type { WebGoal } from '../../../../src/envs/web/site.ts';

export const TEST_FROM = 1_000_000;

/** The selection's site with `seeds` seeds in each of train and test. */
export function fewSeeds(selection: FamilySelection, seeds: number): EnvDefinition {
  const { site, programs } = generatedSite(selection);
  return webSiteEnvironment({ ...site, seeds: { train: [0, seeds], test: [TEST_FROM, TEST_FROM + seeds] } }, { bundled: 'generated' }, programs);
}

export function limited(spec: EnvDefinition): Env {
  return withStepLimit(spec.createEnv(), spec.maxSteps);
}

export const dataOf = (task: Task): AppData => (task.goal as WebGoal).data as AppData;

/** A task to play afresh (an env writes into the task it plays). */
export const fresh = (task: Task): Task => ({ ...task });
