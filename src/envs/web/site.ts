/**
 * A site: a folder of pages and a `site.json` that says which pages are tasks, which seeds make
 * each split, and how a page reports its outcome (JavaScript hooks run in the page):
 *
 *   { "name": "my-site",
 *     "tasks": [ { "id": "click-button", "page": "pages/click-button.html" } ],
 *     "seeds": { "train": [0, 1000], "test": [1000, 1200] },
 *     "maxSteps": 10, "rewardsAtEnd": true, "binaryReward": true,
 *     "hooks": { "start": "…statements; SEED is the episode's seed…",
 *                "instruction": "…expression…", "reward": "…expression…", "done": "…expression…" } }
 *
 * A task may override any hook. A task instance is a task and a seed; a split is a seed range
 * (from inclusive, to exclusive), and the splits' ranges may not overlap. A site may instead be a
 * running app at a `url`, reset before every episode (app-site.ts). The bundled suite
 * (suite/) is a site too, whose tasks also have a generator: the instance's instruction and data
 * are made here from the seed (the page gets them as TASK) and its oracle reads them.
 */
import * as v from 'valibot';
import { UsageError } from '../../core/errors.ts';
import type { Observation, Task } from '../../core/types.ts';
import { APP_FIELDS, checkAppFields } from './app-site.ts';

const NAME = v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9_-]*$/, 'must be lowercase letters, digits, - or _'));
const CODE = v.pipe(v.string(), v.trim(), v.minLength(1, 'must be JavaScript, not empty'));

const hooksSchema = v.strictObject({
  start: v.optional(CODE),
  instruction: v.optional(CODE),
  reward: v.optional(CODE),
  done: v.optional(CODE),
});

const taskSchema = v.strictObject({
  id: NAME,
  page: v.pipe(v.string(), v.minLength(1, 'must name a page of the site')),
  /** 1 (one widget) to 5 (a small app); read by the curriculum. */
  difficulty: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(5)), 1),
  /** An app-like task (inbox, feed, shop, forum, admin) rather than a single widget. */
  app: v.optional(v.boolean(), false),
  hooks: v.optional(hooksSchema, {}),
});

/**
 * Seeds a split may hold: its task instances are made up front (a seed times the site's tasks), so
 * `[0, 1e9]` exhausted memory before a 3-episode run could start.
 */
export const MAX_SPLIT_SEEDS = 100_000;
/** Task instances (seeds × tasks) a split may make. */
export const MAX_SPLIT_INSTANCES = 1_000_000;

const RANGE = v.pipe(
  v.tuple([v.pipe(v.number(), v.integer(), v.minValue(0)), v.pipe(v.number(), v.integer(), v.minValue(1))]),
  v.check(([from, to]) => to > from, 'must be [from, to] with to > from'),
  v.check(([from, to]) => to - from <= MAX_SPLIT_SEEDS, `may hold at most ${MAX_SPLIT_SEEDS.toLocaleString('en-US')} seeds`),
);

/** Names an object cannot hold as its own keys safely: a split so named vanished from the parsed site. */
const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

const siteSchema = v.strictObject({
  name: NAME,
  description: v.optional(v.string(), ''),
  tasks: v.pipe(v.array(taskSchema), v.minLength(1, 'must list at least one task')),
  seeds: v.pipe(
    v.record(NAME, RANGE),
    v.check((seeds) => Object.keys(seeds).length > 0, 'must name at least one split'),
  ),
  testSplit: v.optional(NAME),
  maxSteps: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200)), 10),
  /**
   * The start hook sets a page up from scratch (as MiniWoB++'s pages do), so an episode on the page
   * already open skips the reload. Off by default: a page is loaded afresh for each episode.
   */
  reusePage: v.optional(v.boolean(), false),
  /**
   * The reward hook stays 0 until the episode is over (a task that pays only its outcome, as every
   * bundled task does). A dream over the site then pays nothing before a step the model ends, so the
   * model's small leaked rewards cannot add up into returns (experience/synthetic-env.ts); the env
   * holds the page to it.
   */
  rewardsAtEnd: v.optional(v.boolean(), false),
  /**
   * The reward hook gives exactly 0 or 1 (the task is done or it is not); the env holds the page to
   * it. A dream over the site still pays the model's fractional end reward as it is: rounding it cost
   * the suite's dream (EnvSpec.dreamRoundsEndReward).
   */
  binaryReward: v.optional(v.boolean(), false),
  hooks: v.optional(hooksSchema, {}),
  ...APP_FIELDS,
});

export type SiteHooks = v.InferOutput<typeof hooksSchema>;
export type SiteTask = v.InferOutput<typeof taskSchema>;
export type SiteDefinition = v.InferOutput<typeof siteSchema>;
export type HookName = keyof SiteHooks;

/** An instance's data and instruction, made from its seed (the bundled suite's tasks). */
export interface TaskInstance {
  instruction: string;
  data: unknown;
}

/** What a bundled task adds to its `site.json` entry: its generator and its oracle. */
export interface TaskProgram {
  /** The instance for `seed`; `split` lets a task keep the entities of train and test apart. */
  generate(seed: number, split: string): TaskInstance;
  /**
   * Another instance in the world of `data` (an instance of this task): the same entities, a new
   * goal among them drawn from `seed`. App-like tasks have one (the curriculum varies them so).
   */
  recombine?(data: unknown, seed: number, split: string): TaskInstance;
  /**
   * An oracle for one episode of the instance: its next action from the instance's data and what
   * the page shows (never the page's internals). It may keep its place between calls.
   */
  createOracle(data: unknown): (observation: Observation) => string;
}

/** What a web task carries as its goal: where its page is and which instance it is. */
export interface WebGoal {
  site: string;
  task: string;
  seed: number;
  split: string;
  /** The generator's data (bundled tasks), handed to the page's start hook as TASK. */
  data?: unknown;
  /** The task is app-like (the site says so), not a single widget: results are reported by group. */
  app?: boolean;
}

export function isWebGoal(goal: unknown): goal is WebGoal {
  const g = goal as WebGoal | null;
  return typeof g === 'object' && g !== null && typeof g.site === 'string' && typeof g.task === 'string' && Number.isInteger(g.seed) && typeof g.split === 'string';
}

/** `site.json`'s content, checked; a UsageError that names the task and the field otherwise. */
export function parseSiteDefinition(json: unknown, where = 'site.json'): SiteDefinition {
  const seeds = (json as { seeds?: unknown } | null)?.seeds;
  if (typeof seeds === 'object' && seeds !== null) {
    const reserved = Object.keys(seeds).find((name) => RESERVED_NAMES.has(name));
    if (reserved !== undefined) throw new UsageError(`${where}: seeds: a split may not be called "${reserved}"; name it otherwise`);
  }
  const result = v.safeParse(siteSchema, json, { abortEarly: true });
  if (!result.success) {
    const issue = result.issues[0];
    const keys = issue.path?.map((p) => p.key as string | number) ?? [];
    let subject = where;
    let rest = keys;
    if (keys[0] === 'tasks' && typeof keys[1] === 'number') {
      const id = (json as { tasks?: { id?: unknown }[] }).tasks?.[keys[1]]?.id;
      subject = `${where}, task ${typeof id === 'string' ? `"${id}"` : `#${keys[1] + 1}`}`;
      rest = keys.slice(2);
    }
    const field = rest.length === 0 ? '' : ` ${rest.join('.')}`;
    const missing = issue.received === 'undefined' ? ' is required' : ` ${issue.message}`;
    throw new UsageError(`${subject}:${field}${missing}`);
  }
  const site = result.output;
  const ids = new Set<string>();
  for (const task of site.tasks) {
    if (ids.has(task.id)) throw new UsageError(`${where}: task "${task.id}" is listed twice`);
    ids.add(task.id);
    for (const hook of ['reward', 'done'] as const) {
      if ((task.hooks[hook] ?? site.hooks[hook]) === undefined) throw new UsageError(`${where}, task "${task.id}": no ${hook} hook (give one in "hooks" or in the task's own "hooks")`);
    }
  }
  for (const [name, [from, to]] of Object.entries(site.seeds)) {
    const instances = (to - from) * site.tasks.length;
    if (instances > MAX_SPLIT_INSTANCES) throw new UsageError(`${where}: seeds.${name} makes ${instances.toLocaleString('en-US')} task instances (${(to - from).toLocaleString('en-US')} seeds × ${site.tasks.length} tasks), over the ${MAX_SPLIT_INSTANCES.toLocaleString('en-US')} a split may make`);
  }
  const ranges = Object.entries(site.seeds).sort((a, b) => a[1][0] - b[1][0]);
  for (let i = 1; i < ranges.length; i++) {
    const [prevName, prev] = ranges[i - 1] as [string, [number, number]];
    const [name, range] = ranges[i] as [string, [number, number]];
    if (range[0] < prev[1]) throw new UsageError(`${where}: the seeds of "${prevName}" and "${name}" overlap; a seed belongs to one split`);
  }
  if (site.testSplit !== undefined && !(site.testSplit in site.seeds)) throw new UsageError(`${where}: testSplit "${site.testSplit}" is not one of the seed splits (${Object.keys(site.seeds).join(', ')})`);
  checkAppFields(site, where);
  return site;
}

/**
 * Groups `--tasks` may name beside task ids: `@app` the app-like tasks (inbox, feed, shop, forum,
 * admin), `@widgets` the others. A task id cannot start with `@`, so the two never clash.
 */
export const TASK_GROUPS: Readonly<Record<string, (task: SiteTask) => boolean>> = {
  '@app': (task) => task.app,
  '@widgets': (task) => !task.app,
};

/**
 * The site with only the tasks `names` lists (ids or TASK_GROUPS), in the site's order: what the
 * CLI's `--tasks` keeps. An unknown name, or a group that holds none of the site's tasks, is refused.
 */
export function chooseSiteTasks(site: SiteDefinition, names: readonly string[]): SiteDefinition {
  if (names.length === 0) return site;
  const chosen = new Set<string>();
  const unknown: string[] = [];
  for (const name of names) {
    const group = TASK_GROUPS[name];
    const matched = group ? site.tasks.filter(group) : site.tasks.filter((t) => t.id === name);
    if (matched.length === 0) {
      if (group) throw new UsageError(`--tasks ${name}: the site "${site.name}" has no task in that group`);
      unknown.push(name);
    }
    for (const task of matched) chosen.add(task.id);
  }
  if (unknown.length > 0) {
    throw new UsageError(`--tasks: the site "${site.name}" has no task ${unknown.map((id) => `"${id}"`).join(', ')}; it has ${site.tasks.map((t) => t.id).join(', ')} (or the groups ${Object.keys(TASK_GROUPS).join(', ')})`);
  }
  return { ...site, tasks: site.tasks.filter((t) => chosen.has(t.id)) };
}

/** Compiles a hook the way the env runs it (without running it): a syntax error names the task and the hook. */
function checkHook(site: SiteDefinition, task: string, hook: HookName, code: string): void {
  const body = hook === 'start' ? `return (async (SEED, TASK) => { ${code}\n })` : `return () => (${code}\n)`;
  try {
    new Function(body);
  } catch (error) {
    throw new UsageError(`site "${site.name}", task "${task}": the ${hook} hook is not valid JavaScript: ${(error as Error).message}`);
  }
}

/**
 * A site's folder checked before any page opens: every task's page is in it (`hasFile` answers for
 * a path relative to the folder, `folder` names it in the message) and every hook compiles.
 */
export function checkSiteFolder(site: SiteDefinition, hasFile: (path: string) => boolean, folder: string): void {
  if (site.url !== undefined) throw new UsageError(`site "${site.name}" is a running app at ${site.url}, not a folder of pages`);
  for (const task of site.tasks) {
    const page = task.page.split(/[?#]/)[0] as string;
    if (page.split('/').includes('..') || !hasFile(page)) throw new UsageError(`site "${site.name}", task "${task.id}": the page ${task.page} is not in ${folder}`);
  }
  checkSiteCode(site);
}

/** Every hook of every task, and the reset script, compile (a site at a `url` has no pages to look for). */
export function checkSiteCode(site: SiteDefinition): void {
  for (const task of site.tasks) {
    for (const hook of ['start', 'instruction', 'reward', 'done'] as const) {
      const code = hookOf(site, task, hook);
      if (code !== undefined) checkHook(site, task.id, hook, code);
    }
  }
  const script = site.reset?.script;
  if (script === undefined) return;
  try {
    new Function(`return (async (SEED, TASK_ID, SPLIT) => { ${script}\n })`);
  } catch (error) {
    throw new UsageError(`site "${site.name}": the reset script is not valid JavaScript: ${(error as Error).message}`);
  }
}

/** The hook `task` uses: its own, else the site's. */
export function hookOf(site: SiteDefinition, task: SiteTask, hook: HookName): string | undefined {
  return task.hooks[hook] ?? site.hooks[hook];
}

/** The split held-out evaluation uses: `testSplit`, else `test`, else the last range. */
export function siteTestSplit(site: SiteDefinition): string {
  if (site.testSplit) return site.testSplit;
  if ('test' in site.seeds) return 'test';
  return Object.entries(site.seeds).sort((a, b) => b[1][0] - a[1][0])[0]?.[0] as string;
}

/**
 * The task instances of a split, seed by seed, each seed's tasks in the site's order (so a prefix
 * of the list covers every task). A task without a generator gets its instruction from its page
 * at reset (WebEnv writes it into the task).
 */
export function siteTasks(site: SiteDefinition, split: string, programs: Readonly<Record<string, TaskProgram>>, env: string): Task[] {
  const range = Object.hasOwn(site.seeds, split) ? site.seeds[split] : undefined;
  if (!range) throw new UsageError(`${site.name} has no split "${split}"; use one of: ${Object.keys(site.seeds).join(', ')}`);
  const tasks: Task[] = [];
  for (let seed = range[0]; seed < range[1]; seed++) {
    for (const entry of site.tasks) {
      const program = programs[entry.id];
      const instance = program?.generate(seed, split);
      const goal: WebGoal = { site: site.name, task: entry.id, seed, split, ...(entry.app ? { app: true } : {}), ...(instance ? { data: instance.data } : {}) };
      tasks.push({ id: `${entry.id}:${seed}`, env, instruction: instance?.instruction ?? '', difficulty: entry.difficulty, origin: 'seed', goal });
    }
  }
  return tasks;
}
