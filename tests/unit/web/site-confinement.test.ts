/**
 * A site folder is something people clone: nothing outside it may reach its pages, and its pages may
 * not reach other local servers (issue 60). The folder's server follows symbolic links only where
 * they stay inside the folder; a page's requests and WebSockets to another local port are refused.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePageHosts, hostFor } from '../../../src/envs/web/hosts.ts';
import { serveFolder, type StaticServer } from '../../../src/envs/web/node/static-server.ts';

let scratch: string;
let site: string;

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'dreamgym-confinement-'));
  site = path.join(scratch, 'site');
  mkdirSync(path.join(site, 'pages'), { recursive: true });
  writeFileSync(path.join(scratch, 'secret.txt'), 'outside the site');
  writeFileSync(path.join(site, 'index.html'), '<!doctype html><title>home</title><p>home</p>');
  writeFileSync(path.join(site, 'pages', 'inner.txt'), 'inside the site');
  symlinkSync(path.join(site, 'pages', 'inner.txt'), path.join(site, 'link-inside.txt'));
  symlinkSync(path.join(site, 'pages'), path.join(site, 'pages-again'));
  symlinkSync(path.join(scratch, 'secret.txt'), path.join(site, 'link-outside.txt'));
  symlinkSync('/', path.join(site, 'root'));
  symlinkSync(scratch, path.join(site, 'parent'));
});
afterAll(async () => {
  await closePageHosts();
  rmSync(scratch, { recursive: true, force: true });
});

describe("a site folder's server", () => {
  let server: StaticServer;
  beforeAll(async () => {
    server = await serveFolder(site);
  });
  afterAll(() => server.close());
  const get = async (pathname: string) => {
    const response = await fetch(`${server.origin}${pathname}`);
    return { status: response.status, text: await response.text() };
  };

  it('serves its files, and links that stay inside the folder', async () => {
    expect(await get('/')).toMatchObject({ status: 200, text: expect.stringContaining('home') });
    expect(await get('/pages/inner.txt')).toEqual({ status: 200, text: 'inside the site' });
    expect(await get('/link-inside.txt')).toEqual({ status: 200, text: 'inside the site' });
    expect(await get('/pages-again/inner.txt')).toEqual({ status: 200, text: 'inside the site' });
  });

  it('refuses links that lead out of the folder, and paths that climb out, plain or encoded', async () => {
    for (const pathname of ['/link-outside.txt', '/root/etc/hostname', '/root/etc/passwd', '/parent/secret.txt', '/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/pages/..%2f..%2fsecret.txt', '/%2e%2e%5csecret.txt']) {
      const { status, text } = await get(pathname);
      expect(status, pathname).toBe(404);
      expect(text, pathname).not.toContain('outside the site');
    }
  });

  it('serves a folder reached through a link itself', async () => {
    const linked = path.join(scratch, 'linked-site');
    symlinkSync(site, linked);
    const through = await serveFolder(linked);
    try {
      const inner = await fetch(`${through.origin}/pages/inner.txt`);
      expect(inner.status).toBe(200);
      expect((await fetch(`${through.origin}/link-outside.txt`)).status).toBe(404);
    } finally {
      await through.close();
    }
  });
});

describe("a site's pages", () => {
  /** Another local server, as a developer's machine has: it counts what reaches it. */
  let other: http.Server;
  let port: number;
  const reached = { requests: 0, upgrades: 0 };
  beforeAll(async () => {
    other = http.createServer((_request, response) => {
      reached.requests++;
      response.writeHead(200, { 'access-control-allow-origin': '*' }).end('private');
    });
    other.on('upgrade', (_request, socket) => {
      reached.upgrades++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    port = (other.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => other.close(() => resolve())));

  it('cannot reach another local port, by fetch or by WebSocket', async () => {
    const host = await hostFor({ root: site }, { loadMs: 5_000, callMs: 5_000 });
    const tab = await host.openTab();
    try {
      await tab.load('index.html');
      const outcome = await tab.evaluate<{ fetch: string; socket: string }>(`(async () => {
        const fetched = await fetch('http://127.0.0.1:${port}/').then((r) => 'answered ' + r.status, () => 'refused');
        const socket = await new Promise((resolve) => {
          const ws = new WebSocket('ws://127.0.0.1:${port}/');
          ws.onopen = () => resolve('open');
          ws.onerror = () => resolve('refused');
          ws.onclose = () => resolve('refused');
        });
        return { fetch: fetched, socket };
      })()`);
      expect(outcome).toEqual({ fetch: 'refused', socket: 'refused' });
      expect(reached).toEqual({ requests: 0, upgrades: 0 });
    } finally {
      await tab.close();
    }
  });
});
