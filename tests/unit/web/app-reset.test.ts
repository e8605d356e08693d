/**
 * A running app as a site (site.json's `url`): every episode starts after the site's reset, in a
 * fresh browser context, so nothing one episode did is there in the next, and a reset that fails
 * is named. Played on the example app (examples/apps/crm, on a free port) by a scripted person.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrmDatabase } from '../../../examples/apps/crm/db.ts';
import { stateOf } from '../../../examples/apps/crm/fixtures.ts';
import { startCrm, type CrmServer } from '../../../examples/apps/crm/server.ts';
import type { Task } from '../../../src/core/types.ts';
import { runEpisode } from '../../../src/envs/episode.ts';
import { AppResetError } from '../../../src/envs/web/app-reset.ts';
import { appOrigins } from '../../../src/envs/web/app-site.ts';
import { WebEnv } from '../../../src/envs/web/env.ts';
import type { PageHost, PageTab } from '../../../src/envs/web/host.ts';
import { closePageHosts, hostFor } from '../../../src/envs/web/hosts.ts';
import { loadSiteFolder } from '../../../src/envs/web/node/site-folder.ts';
import { proposeTexts } from '../../../src/envs/web/queries.ts';
import { siteTasks, type SiteDefinition } from '../../../src/envs/web/site.ts';
import { CrmPerson } from './crm-person.ts';
import { OfferedOnly } from './offered-only.ts';

const CRM = 'examples/apps/crm';
const SEED = 7;

let crm: CrmServer;
let scratch: string;
beforeAll(async () => {
  crm = await startCrm({ port: 0 });
  scratch = mkdtempSync(path.join(tmpdir(), 'dreamgym-app-site-'));
});
afterAll(async () => {
  await closePageHosts();
  await crm.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** A WebEnv on `site` whose host hands the test each tab it opens, to look into the episode's page. */
function spiedEnv(site: SiteDefinition, storageState?: string): { env: WebEnv; tab: () => PageTab } {
  let last: PageTab | null = null;
  const host = async (): Promise<PageHost> => {
    const real = await hostFor({ url: site.url as string, origins: appOrigins(site), ...(storageState ? { storageState } : {}) });
    return { openTab: async () => (last = await real.openTab()), close: () => real.close() };
  };
  return { env: new WebEnv('web', site, host), tab: () => last as PageTab };
}

const instance = (site: SiteDefinition, id: string, seed = SEED): Task => ({ ...(siteTasks(site, 'train', {}, 'web').find((t) => t.id === `${id}:${seed}`) as Task) });
const stateIn = (tab: PageTab): Promise<unknown> => tab.evaluate("fetch('/__state').then((r) => r.json())");

/** The example's site.json with another reset, written beside the test's other files. */
function withReset(reset: unknown): string {
  const json = JSON.parse(readFileSync(path.join(CRM, 'site.json'), 'utf8')) as Record<string, unknown>;
  const file = path.join(scratch, `site-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ ...json, reset }));
  return file;
}

describe('an episode of a running app leaves nothing behind', () => {
  it('edits, deletes, creates and walks a wizard to a win; the same seed then starts from the same page and the database as seeded', async () => {
    const { site } = loadSiteFolder(CRM, { url: crm.url });
    const { env, tab } = spiedEnv(site);
    const seeded = stateOf(await CrmDatabase.seeded(SEED));
    const firsts = new Map<string, string>();
    for (const id of ['edit-phone', 'delete-contact', 'add-contact', 'new-deal']) {
      const person = new OfferedOnly(new CrmPerson(), { proposeQueries: proposeTexts });
      const record = await runEpisode(env, person, instance(site, id));
      expect(record.won, `${id}: ${record.steps.map((s) => s.result.info.explanation).join(' / ')}`).toBe(true);
      expect(record.invalidActions).toBe(0);
      // Every text the person types is one a policy is offered: the app's tasks can be learnt.
      expect(person.unoffered, id).toEqual([]);
      firsts.set(id, record.first.text);
      // The episode's own session holds what it did.
      expect(await stateIn(tab())).not.toEqual(seeded);
    }
    for (const [id, text] of firsts) {
      expect((await env.reset(instance(site, id))).text, id).toBe(text);
      expect(await stateIn(tab()), id).toEqual(seeded);
    }
    // Finding a record changes nothing, and is won too.
    expect((await runEpisode(env, new CrmPerson(), instance(site, 'find-contact'))).won).toBe(true);
    await env.close();
    // Five episodes and four resets of a real app in Chromium: about 40 s alone, and past the usual
    // 60 s once in a clean-clone run beside the rest of the suite.
  }, 180_000);

  it('resets by a script run in the page as by a request', async () => {
    const script = "const r = await fetch('/__reset', { method: 'POST', body: JSON.stringify({ seed: SEED }) }); if (!r.ok) throw new Error('the reset answered ' + r.status);";
    const { site } = loadSiteFolder(withReset({ script }), { url: crm.url });
    const { env, tab } = spiedEnv(site);
    const record = await runEpisode(env, new CrmPerson(), instance(site, 'delete-contact'));
    expect(record.won).toBe(true);
    expect((await env.reset(instance(site, 'delete-contact'))).text).toBe(record.first.text);
    expect(await stateIn(tab())).toEqual(stateOf(await CrmDatabase.seeded(SEED)));
    await env.close();
  });
});

describe('a reset that fails is named', () => {
  it('with the task, the address and the status the app answered', async () => {
    const refusing = http.createServer((_, response) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end('database is locked');
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(refusing.address() as { port: number }).port}/`;
    try {
      const { site } = loadSiteFolder(CRM, { url });
      const env = new WebEnv('web', site, () => hostFor({ url, origins: appOrigins(site) }));
      const failed = env.reset(instance(site, 'edit-phone'));
      await expect(failed).rejects.toBeInstanceOf(AppResetError);
      await expect(failed).rejects.toThrow(`site "crm", task "edit-phone": the reset POST ${url}__reset answered 500 Internal Server Error: database is locked`);
      await env.close();
    } finally {
      refusing.closeAllConnections();
      await new Promise((resolve) => refusing.close(resolve));
    }
  });

  it('when the app is not running', async () => {
    const gone = await startCrm({ port: 0 });
    await gone.close();
    const { site } = loadSiteFolder(CRM, { url: gone.url });
    const env = new WebEnv('web', site, () => hostFor({ url: gone.url, origins: appOrigins(site) }));
    await expect(env.reset(instance(site, 'find-contact'))).rejects.toThrow(new RegExp(`^site "crm", task "find-contact": the reset POST ${gone.url.replace(/[.]/g, '\\.')}__reset could not reach the app \\(.*ECONNREFUSED.*\\); is it running at ${gone.url.replace(/[.]/g, '\\.')}\\?$`));
    await env.close();
  });

  it('when the reset script throws', async () => {
    const { site } = loadSiteFolder(withReset({ script: "throw new Error('no fixtures here')" }), { url: crm.url });
    const env = new WebEnv('web', site, () => hostFor({ url: crm.url, origins: appOrigins(site) }));
    await expect(env.reset(instance(site, 'find-contact'))).rejects.toThrow(`site "crm", task "find-contact": the reset script threw on ${crm.url}contacts: no fixtures here`);
    await env.close();
  });
});

describe('the pages of a running app', () => {
  it('stay put for a mailto: link, and going back to a page a form posted to keeps the page where it is', async () => {
    const { site } = loadSiteFolder(CRM, { url: crm.url });
    const env = new WebEnv('web', site, () => hostFor({ url: crm.url, origins: appOrigins(site) }));
    // A task that no page of these ends (only a new deal would).
    const first = await env.reset(instance(site, 'new-deal'));
    const act = async (pattern: RegExp): Promise<string> => {
      const observation = (await env.step(first.actions.find((a) => pattern.test(a)) ?? '')).observation;
      first.actions = observation.actions;
      return observation.text;
    };
    // A contact's page, then its e-mail link: the page stays as it was (but for the link's focus).
    const contact = await act(/^click\[#5 /);
    expect((await act(/^click\[#\d+ [^ ]+@/)).replace(' | focused', '')).toBe(contact);
    // A refused form (a page a POST answered), then another page: going back cannot show the refused form again.
    await act(/^click\[#\d+ Contacts\]/);
    await act(/^click\[#\d+ New contact\]/);
    expect(await act(/^click\[#\d+ Create contact\]/)).toMatch(/There are 4 problems/);
    const deals = await act(/^click\[#\d+ Deals\]/);
    const back = await env.step('go back');
    expect(back.info.explanation).toMatch(/no page to go back to/);
    expect(back.observation.text).toBe(deals);
    await env.close();
  });
});

/** A server on a free port answering `handle`; its address ends in `/`. */
async function serve(handle: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

describe('a signed-in session and other origins', () => {
  it('every episode starts with the storage state, its reset is sent with its cookies, and only the listed origins answer', async () => {
    const resets: { cookie?: string; episode?: string; body: string }[] = [];
    const app = await serve((request, response) => {
      if (request.url === '/__reset') {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk));
        request.on('end', () => {
          resets.push({ cookie: request.headers.cookie, episode: request.headers['x-episode'] as string, body });
          response.writeHead(204).end();
        });
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Home</title><button>Go</button>');
    });
    const ping = (_: http.IncomingMessage, response: http.ServerResponse): void => void response.writeHead(200, { 'access-control-allow-origin': '*' }).end('pong');
    const api = await serve(ping);
    const elsewhere = await serve(ping);
    try {
      writeFileSync(path.join(scratch, 'signed-in.json'), JSON.stringify({
        cookies: [{ name: 'session', value: 'ada', domain: '127.0.0.1', path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' }],
        origins: [{ origin: new URL(app.url).origin, localStorage: [{ name: 'theme', value: 'dark' }] }],
      }));
      const file = path.join(scratch, 'signed-in-site.json');
      writeFileSync(file, JSON.stringify({
        name: 'signed-in',
        url: app.url,
        reset: { request: { url: '/__reset', headers: { 'X-Episode': '{task}:{seed}' }, body: { seed: '{seed}' } } },
        origins: [api.url],
        storageState: 'signed-in.json',
        tasks: [{ id: 'press', page: '/' }],
        seeds: { train: [0, 5] },
        hooks: { instruction: "'Press Go.'", reward: '0', done: 'false' },
      }));
      const { site } = loadSiteFolder(file);
      const { env, tab } = spiedEnv(site, path.join(scratch, 'signed-in.json'));
      for (const seed of [3, 4]) {
        await env.reset(instance(site, 'press', seed));
        // What the last episode stored is gone; the signed-in session's is there.
        expect(await tab().evaluate("(() => { const left = localStorage.getItem('left'); localStorage.setItem('left', 'yes'); return [left, localStorage.getItem('theme')]; })()")).toEqual([null, 'dark']);
      }
      expect(resets).toEqual([{ cookie: 'session=ada', episode: 'press:3', body: '{"seed":3}' }, { cookie: 'session=ada', episode: 'press:4', body: '{"seed":4}' }]);
      const reach = (url: string): Promise<string> => tab().evaluate(`fetch(${JSON.stringify(`${url}ping`)}).then((r) => r.text(), () => 'refused')`);
      expect(await reach(api.url)).toBe('pong');
      expect(await reach(elsewhere.url)).toBe('refused');
      await env.close();
    } finally {
      await Promise.all([app.close(), api.close(), elsewhere.close()]);
    }
  });
});
