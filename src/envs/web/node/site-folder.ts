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
import { checkSiteFolder, chooseSiteTasks, parseSiteDefinition, type SiteDefinition } from '../site.ts';

export interface LoadSiteOptions {
  /** Keep only these tasks, by id or group (the CLI's `--tasks a,b`; site.ts chooseSiteTasks). */
  tasks?: readonly string[];
}

export function loadSiteFolder(dir: string, options: LoadSiteOptions = {}): { site: SiteDefinition; environment: EnvDefinition } {
  const root = path.resolve(dir);
  if (!existsSync(root)) throw new UsageError(`--site ${dir}: no such folder`);
  if (!statSync(root).isDirectory()) throw new UsageError(`--site ${dir} is a file; name the site's folder (the one holding site.json)`);
  const file = path.join(root, 'site.json');
  if (!existsSync(file)) throw new UsageError(`--site ${dir}: the folder has no site.json (see docs/web.md, "Bring your own site")`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  const site = chooseSiteTasks(parseSiteDefinition(json, file), options.tasks ?? []);
  checkSiteFolder(site, (page) => {
    const file = path.resolve(root, page);
    return file.startsWith(root + path.sep) && existsSync(file) && statSync(file).isFile();
  }, dir);
  return { site, environment: webSiteEnvironment(site, { root }) };
}
