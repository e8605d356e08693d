/**
 * `--site DIR [--tasks a,b]`, taken by every command of the CLI and every experiment: a user's folder of pages becomes the `web`
 * environment for the command's run (envs/web/node/site-folder.ts checks it first). `--tasks`
 * alone keeps those tasks of the bundled suite (ids, or the groups `@app` and `@widgets`).
 * `--site-url URL` plays a site that is a running app at another address than its site.json's
 * `url` (the same site.json for a dev server on another port and for staging).
 */
import { UsageError } from '../core/errors.ts';
import { replaceEnvironment } from '../envs/registry.ts';
import { bundledSuiteEnvironment } from '../envs/web/index.ts';
import { loadSite } from '../envs/web/node/site-folder.ts';

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
  return { rest, site: dir === null && tasks.length === 0 ? null : { dir, tasks, ...(url !== undefined ? { url } : {}) } };
}

/** Makes the site (or the bundled suite's chosen tasks) the `web` environment; returns what puts the whole suite back. */
export function useSite(dir: string | null, tasks: readonly string[], url?: string): () => void {
  return replaceEnvironment(dir === null ? bundledSuiteEnvironment(tasks) : loadSite(dir, { tasks, ...(url !== undefined ? { url } : {}) }));
}
