/**
 * Several sites as one `web` environment (a corpus: the CLI's `--site DIR` where DIR holds site
 * folders rather than a site.json). Each site keeps what makes it a site (its own server and
 * origin, its hooks, its step limit, its reward promises), so a site whose pages use absolute
 * paths (`/js/app.js`, a router at `/orders`) plays as it does alone. A task's id and kind are
 * prefixed with its site's name (`spa-router/ship-order:1000`), since two sites may both have a
 * task called `login`; an episode plays on the env of the task's site (its goal names it).
 */
import { UsageError } from '../../core/errors.ts';
import type { Rng } from '../../core/rng.ts';
import type { Env, Observation, PersonInput, StepResult, Task } from '../../core/types.ts';
import type { EnvDefinition, EnvOptions } from '../spec.ts';
import { withStepLimit } from '../step-limit.ts';
import type { TaskVariation, VariationDirection, VaryOptions } from '../variation.ts';
import { isWebGoal, type SiteDefinition } from './site.ts';
import { WEB_ENV } from './index.ts';

export interface CorpusSite {
  site: SiteDefinition;
  environment: EnvDefinition;
}

/** The task's id within the corpus: its site's name, then the site's own id. */
function corpusTask(site: string, task: Task): Task {
  return { ...task, id: `${site}/${task.id}` };
}

/** The task as its own site knows it (the corpus prefixes its id with the site's name). */
function siteTask(site: string, task: Task): Task {
  return { ...task, id: task.id.slice(site.length + 1) };
}

function siteOf(task: Task): string {
  if (!isWebGoal(task.goal)) throw new UsageError(`task ${task.id} has no web goal`);
  return task.goal.site;
}

/** One env per site, made when a task of the site first plays; a step goes to the env of the last reset. */
class CorpusEnv implements Env {
  readonly name = WEB_ENV;
  private readonly envs = new Map<string, Env>();
  private current: Env | null = null;

  constructor(
    private readonly sites: ReadonlyMap<string, CorpusSite>,
    private readonly options: EnvOptions = {},
  ) {}

  async reset(task: Task): Promise<Observation> {
    const name = siteOf(task);
    const part = this.sites.get(name);
    if (!part) throw new UsageError(`task ${task.id} is of the site "${name}", which the corpus does not hold`);
    let env = this.envs.get(name);
    if (!env) {
      env = withStepLimit(part.environment.createEnv(this.options), part.site.maxSteps);
      this.envs.set(name, env);
    }
    this.current = env;
    const own = siteTask(name, task);
    const first = await env.reset(own);
    // A site folder's instruction lives in its page: the site's env writes it into the task it was
    // given at reset (web/env.ts), here the copy under the site's own id. Without it carried back the
    // corpus's task kept an empty instruction, so the policy read no request and was offered nothing
    // to type (the proposer fills `type[…]` from the instruction): real PPO on the foreign-style
    // corpus sat at 1 % (issue 57).
    task.instruction = own.instruction;
    return first;
  }

  step(action: string): Promise<StepResult> {
    if (!this.current) return Promise.reject(new UsageError('call reset(task) before step(action)'));
    return this.current.step(action);
  }

  nextPersonInput(): Promise<PersonInput | null> {
    if (!this.current?.nextPersonInput) return Promise.reject(new UsageError('call reset(task) before asking for a person\'s input'));
    return this.current.nextPersonInput();
  }

  async screenshot(): Promise<Uint8Array | null> {
    return (await this.current?.screenshot?.()) ?? null;
  }

  async close(): Promise<void> {
    const envs = [...this.envs.values()];
    this.envs.clear();
    this.current = null;
    await Promise.all(envs.map((env) => env.close?.()));
  }
}

/** The curriculum's variations come from the task's own site (a site folder has none to offer: its instructions live in its pages). */
class CorpusVariation implements TaskVariation {
  constructor(private readonly sites: ReadonlyMap<string, CorpusSite>) {}

  vary(task: Task, siblings: readonly Task[], direction: VariationDirection, rng: Rng, options?: VaryOptions): Task | null {
    const name = siteOf(task);
    const varied = this.sites.get(name)?.environment.variation.vary(siteTask(name, task), siblings, direction, rng, options);
    return varied ? corpusTask(name, varied) : null;
  }

  ground(instruction: string, parent: Task): Task | null {
    return this.sites.get(siteOf(parent))?.environment.variation.ground(instruction, parent) ?? null;
  }
}

/**
 * The sites as one environment. They must share their split names and held-out split (a split of
 * the corpus is that split of every site); the step limit is the longest site's (each site's own
 * still applies to its episodes); the reward promises hold where every site makes them.
 */
export function siteCorpusEnvironment(parts: readonly CorpusSite[], where: string): EnvDefinition {
  if (parts.length === 0) throw new UsageError(`${where} holds no site folder (a folder with a site.json)`);
  const sites = new Map<string, CorpusSite>();
  for (const part of parts) {
    if (sites.has(part.site.name)) throw new UsageError(`${where}: two sites are named "${part.site.name}"; a corpus needs distinct names`);
    sites.set(part.site.name, part);
  }
  const [first] = parts as [CorpusSite, ...CorpusSite[]];
  const splitNames = first.environment.splits.map((s) => s.name).sort().join(', ');
  for (const part of parts) {
    const names = part.environment.splits.map((s) => s.name).sort().join(', ');
    if (names !== splitNames) throw new UsageError(`${where}: the site "${part.site.name}" has the splits ${names}, "${first.site.name}" ${splitNames}; a corpus's sites share their split names`);
    if (part.environment.testSplit !== first.environment.testSplit) throw new UsageError(`${where}: the site "${part.site.name}" holds out "${part.environment.testSplit}", "${first.site.name}" "${first.environment.testSplit}"; a corpus's sites hold out the same split`);
  }
  const cache = new Map<string, Task[]>();
  const tasks = (split: string): Task[] => {
    let all = cache.get(split);
    if (!all) {
      all = parts.flatMap((part) => part.environment.tasks(split).map((task) => corpusTask(part.site.name, task)));
      cache.set(split, all);
    }
    return all;
  };
  const every = (promise: 'rewardsAtEnd' | 'binaryReward'): boolean => parts.every((part) => part.environment[promise] === true);
  const { actionSyntax, testSplit, createRandom, proposeQueries, training } = first.environment;
  return {
    name: WEB_ENV,
    actionSyntax,
    testSplit,
    createRandom,
    ...(proposeQueries ? { proposeQueries } : {}),
    ...(training ? { training } : {}),
    description: `A corpus of ${parts.length} sites (${parts.map((p) => p.site.name).join(', ')}) as one environment.`,
    splits: first.environment.splits.map(({ name }) => ({ name, size: parts.reduce((n, part) => n + (part.environment.splits.find((s) => s.name === name)?.size ?? 0), 0) })),
    maxSteps: Math.max(...parts.map((part) => part.site.maxSteps)),
    ...(every('rewardsAtEnd') ? { rewardsAtEnd: true } : {}),
    ...(every('binaryReward') ? { binaryReward: true } : {}),
    createEnv: (options) => new CorpusEnv(sites, options),
    tasks,
    taskKind: (task) => (isWebGoal(task.goal) ? `${task.goal.site}/${task.goal.task}` : task.id),
    createOracle: () => {
      throw new UsageError(`the sites of ${where} have no oracle (only the bundled suite's tasks have one)`);
    },
    variation: new CorpusVariation(sites),
  };
}
