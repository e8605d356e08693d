/**
 * A user's site as the `web` environment: `site.json` read and checked, every task's page present
 * (or, for a running app at a `url`, its storage-state file), every hook valid JavaScript, before
 * any browser starts, so a mistake is reported once, naming the task and the hook. `--site` names
 * the folder holding site.json or the file itself (a running app's site.json needs no folder).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../../core/errors.ts';
import type { EnvDefinition } from '../../spec.ts';
import { appOrigins, checkStorageState } from '../app-site.ts';
import type { SiteSource } from '../host.ts';
import { webSiteEnvironment } from '../index.ts';
import { siteCorpusEnvironment } from '../site-corpus.ts';
import { checkSiteCode, checkSiteFolder, chooseSiteTasks, parseSiteDefinition, type SiteDefinition } from '../site.ts';
import { FileReadError, fileProblem, readFileBoundedSync } from '../../../platform/files.ts';

export interface LoadSiteOptions {
  /** Keep only these tasks, by id or group (the CLI's `--tasks a,b`; site.ts chooseSiteTasks). */
  tasks?: readonly string[];
  /** The running app's address instead of site.json's `url` (the CLI's `--site-url`: another port, staging). */
  url?: string;
}

/**
 * What `--site` names as the `web` environment: a site folder, a site.json, or a folder of site
 * folders (a corpus: every site in it as one environment, site-corpus.ts).
 */
export function loadSite(dir: string, options: LoadSiteOptions = {}): EnvDefinition {
  const given = path.resolve(dir);
  const corpus = existsSync(given) && statSync(given).isDirectory() && !existsSync(path.join(given, 'site.json'));
  const sites = corpus ? readdirSync(given, { withFileTypes: true }).filter((e) => e.isDirectory() && existsSync(path.join(given, e.name, 'site.json'))).map((e) => e.name).sort() : [];
  if (sites.length === 0) return loadSiteFolder(dir, options).environment;
  if (options.url !== undefined) throw new UsageError(`--site-url replaces one site's "url"; ${dir} is a corpus of ${sites.length} sites`);
  if ((options.tasks ?? []).length > 0) throw new UsageError(`--tasks chooses tasks of one site; ${dir} is a corpus of ${sites.length} sites (name one of them with --site)`);
  return siteCorpusEnvironment(sites.map((name) => loadSiteFolder(path.join(given, name))), dir);
}

export function loadSiteFolder(dir: string, options: LoadSiteOptions = {}): { site: SiteDefinition; environment: EnvDefinition } {
  const given = path.resolve(dir);
  if (!existsSync(given)) throw new UsageError(`--site ${dir}: no such folder or file`);
  const isFile = statSync(given).isFile();
  if (isFile && !given.endsWith('.json')) throw new UsageError(`--site ${dir} is a file; name the site's folder (the one holding site.json) or a site.json itself`);
  const root = isFile ? path.dirname(given) : given;
  const file = isFile ? given : path.join(root, 'site.json');
  if (!existsSync(file)) throw new UsageError(`--site ${dir}: the folder has no site.json, nor site folders holding one (see docs/web.md, "Bring your own site")`);
  const json = readJson(file);
  if (options.url !== undefined) {
    if (typeof json !== 'object' || json === null || !('url' in json)) throw new UsageError(`--site-url: ${file} names no running app ("url"); --site-url replaces a site's "url", and this site is a folder of pages`);
    (json as { url: unknown }).url = options.url;
  }
  const site = chooseSiteTasks(parseSiteDefinition(json, options.url === undefined ? file : `${file} (with --site-url ${options.url})`), options.tasks ?? []);
  if (site.url !== undefined) {
    checkSiteCode(site);
    return { site, environment: webSiteEnvironment(site, appSource(site, site.url, root, file)) };
  }
  checkSiteFolder(site, (page) => {
    const file = path.resolve(root, page);
    return file.startsWith(root + path.sep) && existsSync(file) && statSync(file).isFile();
  }, dir);
  return { site, environment: webSiteEnvironment(site, { root }) };
}

/** The most a site.json may be: a site's description, not its data. */
const SITE_JSON_MAX_BYTES = 4 * 1024 * 1024;

function readJson(file: string): unknown {
  let text: string;
  try {
    text = new TextDecoder().decode(readFileBoundedSync(file, SITE_JSON_MAX_BYTES));
  } catch (error) {
    // Not the file a site.json should be, or not readable: said as such, not as bad JSON.
    throw new UsageError(error instanceof FileReadError ? error.message : `${file} cannot be read: ${fileProblem(error)}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON: ${(error as Error).message.slice(0, 200)}`);
  }
}

/** A running app's source; its storage-state file, relative to site.json, is checked here. */
function appSource(site: SiteDefinition, url: string, root: string, file: string): SiteSource {
  const origins = appOrigins({ url, origins: site.origins });
  if (site.storageState === undefined) return { url, origins };
  const state = path.resolve(root, site.storageState);
  if (!existsSync(state) || !statSync(state).isFile()) throw new UsageError(`${file}: storageState ${site.storageState} is not a file beside site.json (${state})`);
  checkStorageState(readJson(state), state);
  return { url, origins, storageState: state };
}
