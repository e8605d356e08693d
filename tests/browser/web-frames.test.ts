/**
 * The app's frame host in a real page: the env worker drives web pages that live in iframes on
 * this page, through the port the page attaches, as the app does. Bundled pages open at their own
 * URL; a folder the person opened is written into a frame of an opaque origin.
 */
import { expose, transfer, wrap } from 'comlink';
import driver from 'virtual:page-driver';
import { afterAll, describe, expect, it } from 'vitest';
import { FramePages } from '../../src/envs/web/frame/frame-pages.ts';
import { DEFAULT_PAGE_TIMEOUTS } from '../../src/envs/web/host.ts';
import type { EnvSession } from '../../src/services/env-session.ts';

const frames = new FramePages(driver, new URL('/web/', location.origin).href);
const worker = new Worker(new URL('../../workers/env.worker.ts', import.meta.url), { type: 'module' });
const session = wrap<EnvSession>(worker);
const channel = new MessageChannel();
expose(frames, channel.port1);
const attached = session.attachPages(transfer(channel.port2, [channel.port2]));

const SITE = '/examples/sites/page-globals/';
const SITE_FILES = ['site.json', 'pages/click-color.html', 'pages/type-word.html', 'shared/core.js'];

async function siteFiles(): Promise<Map<string, Blob>> {
  const files = new Map<string, Blob>();
  for (const file of SITE_FILES) files.set(file, await (await fetch(`${SITE}${file}`)).blob());
  return files;
}

afterAll(() => worker.terminate());

describe('web pages in the app\'s frames (env in a worker, pages on the page)', () => {
  it('the oracle wins bundled tasks, from single widgets to a two-page catalogue and an app', async () => {
    await attached;
    const { tasks } = await session.listTasks('web', 'test', 0, 30);
    const wanted = ['click-button', 'enter-text-enter', 'signup-form', 'click-dialog', 'browse-pages', 'inbox-reply', 'shop-buy'];
    for (const id of wanted) {
      const index = tasks.findIndex((t) => t.id.startsWith(`${id}:`));
      const start = await session.start('web', 'test', index);
      expect(start.observation.text).toContain('instruction:');
      // Paths from the site's root, as under Node: a policy reads the same state in both hosts.
      expect(start.observation.text).toMatch(/^url: \/[a-z-]+\.html/m);
      let last;
      for (let step = 0; step < 12; step++) {
        last = (await session.oracleStep()).result;
        if (last.done) break;
      }
      expect(last?.info.won, `${id}: ${last?.info.explanation}`).toBe(true);
    }
    // The live page is an iframe on this page (out of sight: no view asked to show it).
    expect(document.querySelector('iframe.live-page')).not.toBeNull();
  });

  it('a folder the person opened runs as the web env, written into frames', async () => {
    const files = await siteFiles();
    frames.addSite('page-globals', files);
    const json: unknown = JSON.parse(await (files.get('site.json') as Blob).text());
    const opened = await session.openSite(json, [...files.keys()], 'page-globals');
    expect(opened.site).toBe('page-globals');
    expect(opened.env.splits).toContainEqual({ name: 'test', size: 100 });
    try {
      const { tasks } = await session.listTasks('web', 'test', 0, 2);
      const typeWord = tasks.findIndex((t) => t.id.startsWith('type-word:'));
      const start = await session.start('web', 'test', typeWord);
      // The suite's frame went with the suite's env: one live page at a time.
      expect(document.querySelectorAll('iframe.live-page')).toHaveLength(1);
      const word = /Type "(\w+)"/.exec(start.observation.text)?.[1] as string;
      expect(word).toMatch(/^\w+$/);
      const field = start.observation.actions.find((a) => a.startsWith('type[')) as string;
      const typed = await session.step(field.replace('...', word));
      expect(typed.result.info.valid).toBe(true);
      expect(typed.result.observation.text).toContain(`value: ${word}`);
      const send = typed.result.observation.actions.find((a) => a.includes('Send')) as string;
      const sent = await session.step(send);
      expect(sent.result.done).toBe(true);
      expect(sent.result.info.won).toBe(true);
      expect(sent.result.reward).toBe(1);

      const click = tasks.findIndex((t) => t.id.startsWith('click-color:'));
      const colours = await session.start('web', 'test', click);
      const colour = /Click the (\w+) button/.exec(colours.observation.text)?.[1] as string;
      const wrong = colours.observation.actions.find((a) => a.startsWith('click[') && !a.includes(` ${colour}]`)) as string;
      const missed = await session.step(wrong);
      expect(missed.result.done).toBe(true);
      expect(missed.result.info.won).toBe(false);
    } finally {
      await session.closeSite();
    }
  });

  it('a page from a folder runs in an opaque origin: the app\'s IndexedDB is out of its reach', async () => {
    frames.addSite('page-globals', await siteFiles());
    const opened = await frames.openTab({ files: 'page-globals' }, DEFAULT_PAGE_TIMEOUTS);
    if (!opened.ok) throw new Error(opened.message);
    const tab = opened.value.tab;
    try {
      expect((await frames.load(tab, 'pages/click-color.html')).ok).toBe(true);
      const seen = await frames.evaluate(tab, `(() => {
        let idb; try { indexedDB.open('dreamgym-replay'); idb = 'opened'; } catch (e) { idb = e.name; }
        let parent; try { parent = String(window.parent.document.title); } catch (e) { parent = e.name; }
        return { origin: self.origin, idb, parent, driver: typeof window.__dreamgym };
      })()`);
      expect(seen).toEqual({ ok: true, value: { origin: 'null', idb: 'SecurityError', parent: 'SecurityError', driver: 'object' } });
    } finally {
      await frames.closeTab(tab);
    }
  });

  it('a page that does not answer is ended by the watchdog and its frame removed', async () => {
    const spinning = new Map([['spin.html', new Blob(['<!doctype html><title>spin</title><button onclick="for(;;){}">Spin</button>'], { type: 'text/html' })]]);
    frames.addSite('spin', spinning);
    const opened = await frames.openTab({ files: 'spin' }, { loadMs: 2000, callMs: 300 });
    if (!opened.ok) throw new Error(opened.message);
    const tab = opened.value.tab;
    expect((await frames.load(tab, 'spin.html')).ok).toBe(true);
    // A call that never answers (a promise that never settles stands in for a loop: a loop in a
    // frame that shares this page's process would stop this test's own timers).
    const stuck = await frames.evaluate(tab, 'new Promise(() => {})');
    expect(stuck).toMatchObject({ ok: false, code: 'page-timeout' });
    expect(await frames.evaluate(tab, '1')).toMatchObject({ ok: false, code: 'page-crash' });
    await frames.closeTab(tab);
  });
});
