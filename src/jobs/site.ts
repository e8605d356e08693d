/**
 * `--site DIR [--tasks a,b]`, taken by every command of the CLI and every experiment: a user's folder of pages becomes the `web`
 * environment for the command's run (envs/web/node/site-folder.ts checks it first). `--tasks`
 * alone keeps those tasks of the bundled suite (ids, or the groups `@app` and `@widgets`).
 * `--site-url URL` plays a site that is a running app at another address than its site.json's
 * `url` (the same site.json for a dev server on another port and for staging).
 * `--site @generated` and `--site @generated-held-out` name the generated web apps
 * (envs/web/generated/): the pretraining families, and the families held out of pretraining.
 */
import { UsageError } from '../core/errors.ts';
import { replaceEnvironment } from '../envs/registry.ts';
import type { EnvDefinition } from '../envs/spec.ts';
import { bundledSuiteEnvironment, webSiteEnvironment } from '../envs/web/index.ts';
import { generatedSite, HELD_OUT_FAMILIES, PRETRAINING_FAMILIES, type FamilySelection } from '../envs/web/generated/index.ts';
import { GENERATED_PAGES } from '../envs/web/generated/site.ts';
import { chooseSiteTasks } from '../envs/web/site.ts';
import { loadSite } from '../envs/web/node/site-folder.ts';

/** The `--site` names of the generated apps, and the selection of families each plays. */
export const GENERATED_SITE_NAMES: Readonly<Record<string, FamilySelection>> = { '@generated': 'pretraining', '@generated-held-out': 'held-out' };

/** `--site`'s words for the generated apps, for usage texts. */
export const GENERATED_SITE_USAGE =
  `--site @generated plays the generated apps of the pretraining families (${PRETRAINING_FAMILIES.join(', ')}),\n` +
  `    --site @generated-held-out those held out of pretraining (${HELD_OUT_FAMILIES.join(', ')}), --tasks naming families`;

/**
 * The arguments without `--site` and `--tasks`, and what they said (`dir` null: the bundled suite).
 * `tasksFlag` names the tasks flag where `--tasks` means something else (the experiments' `--web-tasks`).
 */
export function siteOptions(args: readonly string[], tasksFlag = '--tasks'): { rest: string[]; site: { dir: string | null; tasks: string[]; url?: string } | null } {
  const rest: string[] = [];
  let dir: string | null = null;
  let url: string | undefined;
  let tasks: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (flag !== '--site' && flag !== '--site-url' && flag !== tasksFlag) {
      rest.push(arg);
      continue;
    }
    const value = inline ?? args[++i];
    if (value === undefined || value === '' || value.startsWith('--')) throw new UsageError(`${flag} needs a value`);
    if (flag === '--site') dir = value;
    else if (flag === '--site-url') url = value;
    else tasks = value.split(',').map((t) => t.trim()).filter((t) => t !== '');
  }
  const envAt = rest.findIndex((a) => a === '--env' || a.startsWith('--env='));
  const env = envAt < 0 ? undefined : rest[envAt]?.startsWith('--env=') ? rest[envAt]?.slice(6) : rest[envAt + 1];
  if ((dir !== null || tasks.length > 0) && env !== undefined && env !== 'web') throw new UsageError(`${dir !== null ? '--site' : tasksFlag} is for --env web (pages); --env ${env} has no site`);
  if (url !== undefined && dir === null) throw new UsageError('--site-url replaces the "url" of a --site: name the site too (--site DIR --site-url URL)');
  if (dir !== null) generatedSelection(dir, url);
  return { rest, site: dir === null && tasks.length === 0 ? null : { dir, tasks, ...(url !== undefined ? { url } : {}) } };
}

/**
 * The selection of generated families `--site` names, null for a folder. Any other `@name` is
 * refused rather than looked for on disk: it is a mistyped name far more often than a folder
 * (a folder whose name starts with @ is still reached as ./@name).
 */
function generatedSelection(dir: string, url: string | undefined): FamilySelection | null {
  if (!dir.startsWith('@')) return null;
  const selection = GENERATED_SITE_NAMES[dir];
  if (selection === undefined) throw new UsageError(`--site ${dir} names no generated site; use ${Object.keys(GENERATED_SITE_NAMES).join(' or ')}, or a folder (./${dir} for a folder of that name)`);
  if (url !== undefined) throw new UsageError(`--site-url plays a site.json's running app elsewhere; --site ${dir} is served from this build's own pages: drop --site-url`);
  return selection;
}

/** The `web` environment `--site` and `--tasks` name: the bundled suite's tasks, the generated apps', or a folder's. */
export function siteEnvironment(dir: string | null, tasks: readonly string[], url?: string): EnvDefinition {
  if (dir === null) return bundledSuiteEnvironment(tasks);
  const selection = generatedSelection(dir, url);
  if (selection !== null) {
    const { site, programs } = generatedSite(selection);
    // chooseSiteTasks refuses a family the selection does not hold: `--site @generated --tasks cart` plays nothing held out.
    return webSiteEnvironment(chooseSiteTasks(site, tasks), { bundled: GENERATED_PAGES }, programs);
  }
  return loadSite(dir, { tasks, ...(url !== undefined ? { url } : {}) });
}

/** Makes the site (or the bundled suite's chosen tasks) the `web` environment; returns what puts the whole suite back. */
export function useSite(dir: string | null, tasks: readonly string[], url?: string): () => void {
  return replaceEnvironment(siteEnvironment(dir, tasks, url));
}
