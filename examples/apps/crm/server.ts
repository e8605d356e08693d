/**
 * Fieldbook CRM: a small contacts-and-deals app as a team would write it, with node:http and no
 * framework. Pages are rendered on the server (views.ts), forms post and are checked there
 * (forms.ts), the data is SQLite (db.ts), and the test fixtures reset it (fixtures.ts).
 *
 *   npm run example:app            # http://localhost:3000/ (PORT and HOST change it)
 *
 * examples/apps/crm/site.json makes it a DreamGym site (docs/web.md, "A running app as a site").
 */
import { readFile } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CrmDatabase } from './db.ts';
import { Sandboxes, stateOf } from './fixtures.ts';
import { CONTACT_FIELDS, DEAL_FIELDS, checkContact, checkDeal, checkDealStart, checkDealTerms, valuesOf } from './forms.ts';
import * as views from './views.ts';

const PUBLIC = fileURLToPath(new URL('./public/', import.meta.url));
const STATIC_TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };
const MAX_BODY = 64 * 1024;

export interface CrmServer {
  /** `http://HOST:PORT/` */
  url: string;
  close(): Promise<void>;
}

export interface CrmOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** The seed of the shared database (the one a request without a test session sees). */
  seed?: number;
}

class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

function send(response: ServerResponse, status: number, body: string, type = 'text/html; charset=utf-8', headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
  response.end(body);
}

function redirect(response: ServerResponse, location: string): void {
  response.writeHead(303, { location });
  response.end();
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new HttpError(413, 'The form is too large.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function formOf(request: IncomingMessage): Promise<URLSearchParams> {
  return new URLSearchParams(await bodyOf(request));
}

/** The contact a path names, or a 404. */
function contactOf(db: CrmDatabase, id: string): NonNullable<ReturnType<CrmDatabase['contact']>> {
  const contact = db.contact(Number(id));
  if (!contact) throw new HttpError(404, `There is no contact ${id}.`);
  return contact;
}

async function handle(request: IncomingMessage, response: ServerResponse, sandboxes: Sandboxes): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://crm.local');
  const route = `${request.method} ${url.pathname}`;
  let match: RegExpExecArray | null;

  if (request.method === 'GET' && url.pathname.startsWith('/static/')) {
    const file = path.join(PUBLIC, path.basename(url.pathname));
    const type = STATIC_TYPES[path.extname(file)];
    if (!type) throw new HttpError(404, 'No such file.');
    return send(response, 200, await readFile(file, 'utf8').catch(() => { throw new HttpError(404, 'No such file.'); }), type);
  }
  if (route === 'POST /__reset') {
    let seed: unknown;
    try {
      seed = (JSON.parse((await bodyOf(request)) || '{}') as { seed?: unknown }).seed;
    } catch {
      return send(response, 400, '{"error":"the body is not JSON"}', 'application/json');
    }
    if (!Number.isInteger(seed) || (seed as number) < 0) return send(response, 400, '{"error":"give a seed: {\\"seed\\": 12}"}', 'application/json');
    const cookie = await sandboxes.reset(request, seed as number);
    return send(response, 200, JSON.stringify({ seed }), 'application/json', { 'set-cookie': cookie });
  }

  const db = sandboxes.databaseOf(request);
  if (!db) return send(response, 410, views.notFound('This test session has ended: reset again (POST /__reset).'));
  if (route === 'GET /__state') return send(response, 200, JSON.stringify(stateOf(db)), 'application/json');
  if (route === 'GET /') return redirect(response, '/contacts');

  if (route === 'GET /contacts') {
    const query = url.searchParams.get('q')?.trim() ?? '';
    const contacts = db.contacts(query);
    const pages = Math.max(1, Math.ceil(contacts.length / views.PAGE_SIZE));
    const page = Math.min(pages, Math.max(1, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1));
    const deleted = url.searchParams.get('deleted');
    return send(response, 200, views.contactList(contacts, query, page, deleted ? `${deleted} was deleted.` : ''));
  }
  if (route === 'GET /contacts/new') return send(response, 200, views.contactForm(null, db.companies(), {}, {}));
  if (route === 'POST /contacts') {
    const values = valuesOf(await formOf(request), CONTACT_FIELDS);
    const checked = checkContact(values, db);
    if (!checked.ok) return send(response, 422, views.contactForm(null, db.companies(), values, checked.errors));
    return redirect(response, `/contacts/${db.addContact(checked.value)}?created=1`);
  }
  if (request.method === 'GET' && (match = /^\/contacts\/(\d+)$/.exec(url.pathname))) {
    const contact = contactOf(db, match[1] as string);
    const flash = url.searchParams.has('created') ? 'Contact created.' : url.searchParams.has('saved') ? 'Changes saved.' : '';
    return send(response, 200, views.contactPage(contact, db.deals(contact.id), flash));
  }
  if (request.method === 'POST' && (match = /^\/contacts\/(\d+)$/.exec(url.pathname))) {
    const contact = contactOf(db, match[1] as string);
    const values = valuesOf(await formOf(request), CONTACT_FIELDS);
    const checked = checkContact(values, db, contact.id);
    if (!checked.ok) return send(response, 422, views.contactForm(contact, db.companies(), values, checked.errors));
    db.updateContact(contact.id, checked.value);
    return redirect(response, `/contacts/${contact.id}?saved=1`);
  }
  if (request.method === 'GET' && (match = /^\/contacts\/(\d+)\/edit$/.exec(url.pathname))) {
    const contact = contactOf(db, match[1] as string);
    const values = { name: contact.name, email: contact.email, phone: contact.phone, title: contact.title, company: String(contact.companyId) };
    return send(response, 200, views.contactForm(contact, db.companies(), values, {}));
  }
  if ((match = /^\/contacts\/(\d+)\/delete$/.exec(url.pathname))) {
    const contact = contactOf(db, match[1] as string);
    if (request.method === 'GET') return send(response, 200, views.deletePage(contact, db.deals(contact.id).length));
    if (request.method === 'POST') {
      db.deleteContact(contact.id);
      return redirect(response, `/contacts?${new URLSearchParams({ deleted: contact.name })}`);
    }
  }

  if (route === 'GET /deals') return send(response, 200, views.dealList(db.deals(), url.searchParams.has('created') ? 'Deal created.' : ''));
  if (route === 'GET /deals/new') return send(response, 200, views.dealWizard(1, db.contacts(), {}, {}));
  if (route === 'POST /deals/new') return dealStep(response, await formOf(request), db);
  throw new HttpError(404, `Nothing is at ${url.pathname}.`);
}

/** One step of the new-deal wizard: each step's form carries the earlier steps' answers. */
function dealStep(response: ServerResponse, form: URLSearchParams, db: CrmDatabase): void {
  const values = valuesOf(form, DEAL_FIELDS);
  const step = Number(form.get('step'));
  const show = (at: 1 | 2 | 3, errors = {}): void => send(response, Object.keys(errors).length > 0 ? 422 : 200, views.dealWizard(at, db.contacts(), values, errors));
  if (form.has('back')) return show(step === 3 ? 2 : 1);
  if (step === 1) {
    const errors = checkDealStart(values, db);
    return Object.keys(errors).length > 0 ? show(1, errors) : show(2);
  }
  if (step === 2) {
    const errors = checkDealTerms(values);
    return Object.keys(errors).length > 0 ? show(2, errors) : show(3);
  }
  const checked = checkDeal(values, db);
  // A last step that fails (a contact deleted meanwhile) goes back to the step that asks for it.
  if (!checked.ok) return show('contact' in checked.errors || 'title' in checked.errors ? 1 : 2, checked.errors);
  const id = db.addDeal(checked.value);
  return redirect(response, `/deals?created=${id}`);
}

export async function startCrm(options: CrmOptions = {}): Promise<CrmServer> {
  const sandboxes = new Sandboxes(await CrmDatabase.seeded(options.seed ?? 0));
  const server = http.createServer((request, response) => {
    handle(request, response, sandboxes).catch((error: unknown) => {
      const status = error instanceof HttpError ? error.status : 500;
      if (status === 500) console.error(error);
      if (!response.headersSent) send(response, status, views.notFound(error instanceof HttpError ? error.message : 'Something went wrong.'));
      else response.destroy();
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3000, host, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the CRM server has no port');
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}/`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => {
        sandboxes.close();
        resolve();
      });
    }),
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const crm = await startCrm({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' });
  console.log(`Fieldbook CRM at ${crm.url.replace('//127.0.0.1:', '//localhost:')} (test fixtures: POST /__reset {"seed": N}, GET /__state)`);
  const stop = (): void => void crm.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
