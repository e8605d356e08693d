/**
 * The web environment: a site's pages are the environment. `web` is the bundled suite
 * (its definition and task programs in suite/, its pages in public/web/suite/); a user's folder with
 * a `site.json` becomes the same environment through `webSiteEnvironment` (the CLI's `--site DIR`).
 */
import { UsageError } from '../../core/errors.ts';
import type { EnvDefinition, TrainingSettings } from '../spec.ts';
import { WebOracle, WebRandom } from './agents.ts';
import { DEFAULT_CAP, WebEnv } from './env.ts';
import { FailureStreak } from './failure-streak.ts';
import { DEFAULT_PAGE_TIMEOUTS, type SiteSource } from './host.ts';
import { hostFor } from './hosts.ts';
import { proposeTexts } from './queries.ts';
import { checkSiteFolder, chooseSiteTasks, isWebGoal, parseSiteDefinition, siteTasks, siteTestSplit, type SiteDefinition, type TaskProgram } from './site.ts';
import { SUITE_PROGRAMS } from './suite/index.ts';
import { SUITE_SITE } from './suite/site.ts';
import { WebVariation } from './variation.ts';

export const WEB_ENV = 'web';

/**
 * Any site's settings, chosen on the bundled suite's app-like tasks: the demonstrations regime's
 * buffer (20 oracle demonstrations a task and 240 random episodes), 180 train-split instances it
 * holds no episode of, seed 1 (results/offline/README.md). Cloning at the default 3e-4 stays at or
 * below the untrained level (about 45%) for 12 epochs and reaches 88% at 20; at 1e-3 it is at 89%
 * by 8 and 92% by 16.
 */
const WEB_TRAINING: TrainingSettings = {
  offline: {
    bc: { learningRate: 1e-3, epochs: 16 },
    // Preferences of demonstrations over failures hurt here: at 1e-4 and 3e-4 DPO falls to 33%;
    // at 1e-5 it barely moves the policy (46–47%, the untrained level), best smoothed at 4 epochs.
    dpo: { learningRate: 1e-5, epochs: 4 },
  },
};

/** The environment a site makes: its splits are its seed ranges, its tasks every (task, seed). */
export function webSiteEnvironment(site: SiteDefinition, source: SiteSource, programs: Readonly<Record<string, TaskProgram>> = {}): EnvDefinition {
  const testSplit = siteTestSplit(site);
  const streak = new FailureStreak(site.name);
  const splits = new Map<string, ReturnType<typeof siteTasks>>();
  const tasksOf = (split: string): ReturnType<typeof siteTasks> => {
    let tasks = splits.get(split);
    if (!tasks) {
      tasks = siteTasks(site, split, programs, WEB_ENV);
      splits.set(split, tasks);
    }
    return tasks;
  };
  return {
    name: WEB_ENV,
    description: site.description || `The pages of the site "${site.name}" as an environment.`,
    actionSyntax: 'page',
    splits: Object.entries(site.seeds).map(([name, [from, to]]) => ({ name, size: (to - from) * site.tasks.length })),
    testSplit,
    maxSteps: site.maxSteps,
    ...(site.rewardsAtEnd ? { rewardsAtEnd: true } : {}),
    ...(site.binaryReward ? { binaryReward: true } : {}),
    // One streak for every env of the site: lockstep rollouts end episodes in several envs at once.
    createEnv: (options) => new WebEnv(WEB_ENV, site, () => hostFor(source, options?.pageTimeouts ?? DEFAULT_PAGE_TIMEOUTS, { visible: options?.visible === true }), DEFAULT_CAP, streak),
    tasks: tasksOf,
    taskKind: (task) => (isWebGoal(task.goal) ? task.goal.task : task.id),
    createOracle: () => new WebOracle(programs, site.name),
    createRandom: (rng) => new WebRandom(rng),
    variation: new WebVariation(site, programs, testSplit),
    proposeQueries: proposeTexts,
    training: WEB_TRAINING,
  };
}

/**
 * A folder a person opened in the app as the `web` environment: `site.json`'s content and the
 * folder's file paths, checked as the CLI's `--site` checks a folder (the files stay on the page,
 * which writes them into its frames, under the site's name); with `tasks`, only those.
 */
export function openedSiteEnvironment(json: unknown, files: readonly string[], folder: string, tasks: readonly string[] = []): { site: SiteDefinition; environment: EnvDefinition } {
  const site = chooseSiteTasks(parseSiteDefinition(json, `${folder}/site.json`), tasks);
  // Its pages would run in a frame sandboxed to an opaque origin, which cannot reach a server on this machine with the app's session.
  if (site.url !== undefined) throw new UsageError(`${folder}/site.json is a running app at ${site.url}, which the app cannot play (its pages would run in a sandboxed frame, away from your server); play and train it with the CLI: npm run -s cli -- train --env web --site ${folder} … (docs/web.md, "A running app as a site")`);
  const present = new Set(files);
  checkSiteFolder(site, (page) => present.has(page), folder);
  return { site, environment: webSiteEnvironment(site, { files: site.name }) };
}

/**
 * The bundled suite as the `web` environment; with `tasks` (ids or groups, the CLI's `--tasks`),
 * only those tasks: its splits' instances are the same ones, fewer of them.
 */
export function bundledSuiteEnvironment(tasks: readonly string[] = []): EnvDefinition {
  return webSiteEnvironment(chooseSiteTasks(parseSiteDefinition(SUITE_SITE, 'src/envs/web/suite/site.ts'), tasks), { bundled: 'suite' }, SUITE_PROGRAMS);
}

export const webEnvironment: EnvDefinition = bundledSuiteEnvironment();
