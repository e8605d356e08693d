/**
 * A site's folder served on loopback, so its pages load as a browser loads a site (relative
 * scripts, `../shared/lib.js`, forms that post to other pages). Only GET and HEAD, only files
 * under the root (symbolic links followed, and refused where they lead out of it); anything else
 * is a 404 or 405 with a plain message.
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

export interface StaticServer {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  close(): Promise<void>;
}

/** Whether `file` is `root` or under it (both absolute and resolved). */
function inside(root: string, file: string): boolean {
  return file === root || file.startsWith(root + path.sep);
}

export async function serveFolder(root: string): Promise<StaticServer> {
  const base = path.resolve(root);
  // The root's own real path: the folder itself may be reached through a link.
  const realRoot = realpath(base);
  realRoot.catch(() => undefined);
  const server = http.createServer((request, response) => {
    const reply = (status: number, text: string): void => {
      response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(text);
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') return reply(405, 'only GET and HEAD');
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    } catch {
      return reply(400, 'bad path');
    }
    const file = path.resolve(base, `.${pathname.endsWith('/') ? `${pathname}index.html` : pathname}`);
    if (!inside(base, file)) return reply(404, 'not found');
    // Where the file really is, links followed: a link inside a cloned site folder may not reach
    // out of it (a link to / served /etc/hostname). Links that stay inside are served.
    Promise.all([realRoot, realpath(file)]).then(([root, real]) => (inside(root, real) ? stat(real).then((info) => ({ real, info })) : null)).then(
      (found) => {
        if (found === null || !found.info.isFile()) return reply(404, 'not found');
        const { real, info } = found;
        response.writeHead(200, { 'content-type': TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream', 'content-length': info.size, 'cache-control': 'no-store' });
        if (request.method === 'HEAD') return response.end();
        createReadStream(real).on('error', () => response.destroy()).pipe(response);
      },
      () => reply(404, 'not found'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the site server has no port');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
