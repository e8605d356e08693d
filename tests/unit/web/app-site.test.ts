/**
 * site.json for a running app (`url`, `reset`, `origins`, `storageState`): each mistake is named
 * with its field before a browser starts, `--site` takes the site.json itself and `--site-url`
 * another address, the app refuses such a site with why, and the reset request is filled in from
 * the episode's instance. No browser here: the reset is sent to a tab that records it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { siteOptions } from '../../../src/jobs/site.ts';
import { AppResetError, resetApp } from '../../../src/envs/web/app-reset.ts';
import { PageError, type ContextRequest, type PageTab } from '../../../src/envs/web/host.ts';
import { openedSiteEnvironment } from '../../../src/envs/web/index.ts';
import { loadSiteFolder } from '../../../src/envs/web/node/site-folder.ts';
import { parseSiteDefinition, type SiteDefinition, type WebGoal } from '../../../src/envs/web/site.ts';

const APP = {
  name: 'app',
  url: 'http://127.0.0.1:3000/crm',
  reset: { request: { url: '/__reset' } },
  tasks: [{ id: 'find', page: 'contacts' }],
  seeds: { train: [0, 10], test: [10, 12] },
  hooks: { instruction: "'Find it.'", reward: '0', done: 'false' },
};
const FOLDER = { name: 'folder', tasks: [{ id: 'a', page: 'a.html' }], seeds: { train: [0, 2] }, hooks: { reward: '0', done: 'false' } };

const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-app-site-json-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function write(name: string, json: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, typeof json === 'string' ? json : JSON.stringify(json));
  return file;
}

describe('site.json for a running app', () => {
  it('takes the app\'s address, a reset, other origins and a storage state', () => {
    const site = parseSiteDefinition({ ...APP, origins: ['http://127.0.0.1:4000'], storageState: 'signed-in.json' });
    expect(site).toMatchObject({ url: 'http://127.0.0.1:3000/crm/', reset: { request: { method: 'POST', url: '/__reset', headers: {} } }, origins: ['http://127.0.0.1:4000'], storageState: 'signed-in.json' });
    expect(parseSiteDefinition({ ...APP, reset: { script: 'localStorage.clear()' } }).reset).toEqual({ script: 'localStorage.clear()' });
  });

  it('names each mistake with its field', () => {
    const bad: [unknown, RegExp][] = [
      [{ ...APP, url: 'ftp://example.com/' }, /^site\.json: url must be the running app's address, http\(s\):\/\/host:port\/path, without a query or #$/],
      [{ ...APP, url: 'http://localhost:3000/?tab=1' }, /url must be the running app's address/],
      [{ ...APP, reset: undefined }, /^site\.json: a site at a "url" needs a "reset", run before every episode so that nothing one episode did is there in the next/],
      [{ ...APP, reset: {} }, /^site\.json: reset must be either \{"request": \{…\}\} or \{"script": "…"\}$/],
      [{ ...APP, reset: { request: { url: '/r' }, script: 'x()' } }, /^site\.json: reset must be either/],
      [{ ...APP, reset: { request: {} } }, /^site\.json: reset\.request\.url is required$/],
      [{ ...APP, reset: { request: { url: '/r', method: 'FETCH' } } }, /^site\.json: reset\.request\.method must be GET, POST, PUT, PATCH or DELETE$/],
      [{ ...APP, reset: { request: { url: '/r', method: 'GET', body: { seed: '{seed}' } } } }, /^site\.json: reset\.request has a body, which a GET cannot send; use POST$/],
      [{ ...APP, reset: { request: { url: 'http://127.0.0.1:9999/__reset' } } }, /^site\.json: reset\.request\.url http:\/\/127\.0\.0\.1:9999\/__reset is on neither the site's origin nor one of "origins" \(http:\/\/127\.0\.0\.1:3000\)$/],
      [{ ...APP, origins: ['http://127.0.0.1:4000/api'] }, /^site\.json: origins\.0 must be an origin, http\(s\):\/\/host\[:port\] with no path$/],
      [{ ...APP, reusePage: true }, /^site\.json: "reusePage" does not go with "url"/],
      [{ ...APP, tasks: [{ id: 'find', page: 'https://example.com/contacts' }] }, /^site\.json, task "find": page must be a path relative to "url" \(http:\/\/127\.0\.0\.1:3000\/crm\/\), not an address$/],
      [{ ...FOLDER, reset: { script: 'x()' } }, /^site\.json: "reset" is for a running app at a "url"; a folder's pages are loaded afresh for each episode$/],
      [{ ...FOLDER, origins: ['http://a.test'], storageState: 's.json' }, /^site\.json: "origins" and "storageState" are for a running app at a "url"/],
    ];
    for (const [json, message] of bad) expect(() => parseSiteDefinition(json), message.source).toThrow(message);
  });

  it('checks the reset script and the hooks compile, and the storage state is one, before any page opens', () => {
    expect(() => loadSiteFolder(write('bad-script.json', { ...APP, reset: { script: 'await fetch(' } }))).toThrow(/^site "app": the reset script is not valid JavaScript: /);
    expect(() => loadSiteFolder(write('bad-hook.json', { ...APP, hooks: { ...APP.hooks, reward: '1 +' } }))).toThrow(/^site "app", task "find": the reward hook is not valid JavaScript/);
    expect(() => loadSiteFolder(write('no-state.json', { ...APP, storageState: 'missing.json' }))).toThrow(/no-state\.json: storageState missing\.json is not a file beside site\.json/);
    write('not-a-state.json', { cookies: [{ name: 'session', value: 'x' }], origins: [] });
    expect(() => loadSiteFolder(write('bad-state.json', { ...APP, storageState: 'not-a-state.json' }))).toThrow(/not-a-state\.json is not a Playwright storage state \(\{"cookies": \[…\], "origins": \[…\]\}, as context\.storageState\(\) writes it\): cookies\.0\.domain is required$/);
    write('state.json', { cookies: [{ name: 'session', value: 'x', domain: '127.0.0.1', path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' }], origins: [] });
    expect(loadSiteFolder(write('good.json', { ...APP, storageState: 'state.json' })).site.name).toBe('app');
  });
});

describe('--site and --site-url', () => {
  it('--site takes a site.json itself, and --site-url replaces its url', () => {
    const file = write('crm.json', APP);
    expect(loadSiteFolder(file).site.url).toBe('http://127.0.0.1:3000/crm/');
    expect(loadSiteFolder(file, { url: 'http://localhost:5173' }).site.url).toBe('http://localhost:5173/');
    expect(siteOptions(['--env', 'web', '--site', file, '--site-url=http://localhost:5173', '--json'])).toEqual({ rest: ['--env', 'web', '--json'], site: { dir: file, tasks: [], url: 'http://localhost:5173' } });
  });

  it('refuses --site-url without a site, or for a folder of pages, and a url that is not one', () => {
    expect(() => siteOptions(['--env', 'web', '--site-url', 'http://localhost:3000'])).toThrow(/^--site-url replaces the "url" of a --site: name the site too/);
    expect(() => loadSiteFolder('examples/sites/page-globals', { url: 'http://localhost:3000' })).toThrow(/^--site-url: .*site\.json names no running app \("url"\); --site-url replaces a site's "url", and this site is a folder of pages$/);
    expect(() => loadSiteFolder(write('crm2.json', APP), { url: 'localhost:3000' })).toThrow(/crm2\.json \(with --site-url localhost:3000\): url must be the running app's address/);
  });

  it('the app refuses a running app with why, and how to play it', () => {
    expect(() => openedSiteEnvironment(APP, [], 'crm')).toThrow(/^crm\/site\.json is a running app at http:\/\/127\.0\.0\.1:3000\/crm\/, which the app cannot play \(its pages would run in a sandboxed frame, away from your server\); play and train it with the CLI: npm run -s cli -- train --env web --site crm/);
  });

  it('the example app\'s site.json is checked as valid, with five tasks', () => {
    const { site } = loadSiteFolder('examples/apps/crm');
    expect(site.tasks.map((t) => t.id)).toEqual(['find-contact', 'edit-phone', 'add-contact', 'new-deal', 'delete-contact']);
    expect(JSON.parse(readFileSync('examples/apps/crm/site.json', 'utf8')).url).toBe('http://localhost:3000/');
  });
});

/** A tab that records the requests sent through it and answers with `answer`. */
function recordingTab(answer: (request: ContextRequest) => Promise<{ status: number; statusText: string; text: string }>): PageTab & { sent: ContextRequest[] } {
  const sent: ContextRequest[] = [];
  const fail = (): never => {
    throw new Error('a request reset loads no page');
  };
  return { sent, load: fail, evaluate: fail, act: fail, path: () => '', goBack: fail, close: async () => undefined, request: (r) => (sent.push(r), answer(r)) };
}

describe('the reset request', () => {
  const site: SiteDefinition = parseSiteDefinition({
    ...APP,
    reset: { request: { url: '__reset?seed={seed}', headers: { 'X-Episode': '{task}:{seed}' }, body: { seed: '{seed}', task: '{task}', note: 'split {split}', tags: ['{seed}'] } } },
  });
  const entry = site.tasks[0] as SiteDefinition['tasks'][number];
  const goal: WebGoal = { site: 'app', task: 'find', seed: 7, split: 'train' };
  const ok = async (): Promise<{ status: number; statusText: string; text: string }> => ({ status: 204, statusText: 'No Content', text: '' });

  it('is filled in from the instance: {seed} alone in a JSON body is the number', async () => {
    const tab = recordingTab(ok);
    await resetApp(site, entry, goal, tab);
    expect(tab.sent).toEqual([{
      method: 'POST',
      url: 'http://127.0.0.1:3000/crm/__reset?seed=7',
      headers: { 'x-episode': 'find:7', 'content-type': 'application/json' },
      body: '{"seed":7,"task":"find","note":"split train","tags":[7]}',
      timeoutMs: 10_000,
    }]);
  });

  it('a status outside 2xx, or a host that cannot send it, stops the run; no answer in time ends the episode', async () => {
    await expect(resetApp(site, entry, goal, recordingTab(async () => ({ status: 503, statusText: 'Service Unavailable', text: '<h1>Down</h1> <p>for maintenance</p>' })))).rejects.toThrow(new AppResetError('app', 'find', 'the reset POST http://127.0.0.1:3000/crm/__reset?seed=7 answered 503 Service Unavailable: Down for maintenance').message);
    const { request: _, ...noRequests } = recordingTab(ok);
    await expect(resetApp(site, entry, goal, noRequests)).rejects.toThrow(/the reset POST .* cannot be sent from here: a running app is played under Node \(the CLI\)/);
    const slow = resetApp(site, entry, goal, recordingTab(async () => {
      throw new PageError('page-timeout', 'Timeout 10000ms exceeded.');
    }));
    await expect(slow).rejects.toBeInstanceOf(PageError);
    await expect(slow).rejects.toThrow('the reset POST http://127.0.0.1:3000/crm/__reset?seed=7 did not answer in 10 s');
  });
});
