/**
 * `--site DIR [--tasks a,b]`, taken by every command: a user's folder of pages becomes the `web`
 * environment for the command's run (envs/web/node/site-folder.ts checks it first).
 */
import { UsageError } from '../core/errors.ts';
import { replaceEnvironment } from '../envs/registry.ts';
import { loadSiteFolder } from '../envs/web/node/site-folder.ts';

/** The arguments without `--site` and `--tasks`, and what they said. */
export function siteOptions(args: readonly string[]): { rest: string[]; site: { dir: string; tasks: string[] } | null } {
  const rest: string[] = [];
  let dir: string | null = null;
  let tasks: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (flag !== '--site' && flag !== '--tasks') {
      rest.push(arg);
      continue;
    }
    const value = inline ?? args[++i];
    if (value === undefined || value === '' || value.startsWith('--')) throw new UsageError(`${flag} needs a value`);
    if (flag === '--site') dir = value;
    else tasks = value.split(',').map((t) => t.trim()).filter((t) => t !== '');
  }
  if (dir === null && tasks.length > 0) throw new UsageError('--tasks chooses tasks of a --site; give --site DIR too');
  return { rest, site: dir === null ? null : { dir, tasks } };
}

/** Makes the site the `web` environment; returns what puts the bundled suite back. */
export function useSite(dir: string, tasks: readonly string[]): () => void {
  return replaceEnvironment(loadSiteFolder(dir, { tasks }).environment);
}
