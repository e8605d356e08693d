/**
 * A user's folder of pages as the `web` environment: `site.json` read and checked, every task's
 * page present, every hook valid JavaScript, before any browser starts, so a mistake is reported
 * once, naming the task and the hook.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../../core/errors.ts';
import type { EnvDefinition } from '../../spec.ts';
import { webSiteEnvironment } from '../index.ts';
import { checkSiteFolder, parseSiteDefinition, type SiteDefinition } from '../site.ts';

export interface LoadSiteOptions {
  /** Keep only these tasks (the CLI's `--tasks a,b`). */
  tasks?: readonly string[];
}

export function loadSiteFolder(dir: string, options: LoadSiteOptions = {}): { site: SiteDefinition; environment: EnvDefinition } {
  const root = path.resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new UsageError(`--site ${dir}: no such folder`);
  const file = path.join(root, 'site.json');
  if (!existsSync(file)) throw new UsageError(`--site ${dir}: the folder has no site.json (see the README's "Bring your own site")`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  let site = parseSiteDefinition(json, file);
  if (options.tasks && options.tasks.length > 0) {
    const unknown = options.tasks.filter((id) => !site.tasks.some((t) => t.id === id));
    if (unknown.length > 0) throw new UsageError(`--tasks: the site "${site.name}" has no task ${unknown.map((id) => `"${id}"`).join(', ')}; it has ${site.tasks.map((t) => t.id).join(', ')}`);
    site = { ...site, tasks: site.tasks.filter((t) => options.tasks?.includes(t.id)) };
  }
  checkSiteFolder(site, (page) => {
    const file = path.resolve(root, page);
    return file.startsWith(root + path.sep) && existsSync(file) && statSync(file).isFile();
  }, dir);
  return { site, environment: webSiteEnvironment(site, { root }) };
}
