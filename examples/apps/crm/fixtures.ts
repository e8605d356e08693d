/**
 * The CRM's test fixtures, as a team keeps them for its end-to-end tests (and only serves them
 * in development): `POST /__reset {"seed": N}` gives the calling session a database of its own,
 * seeded from N, and `GET /__state` answers that session's data as JSON.
 *
 * A session is a cookie the reset sets. Browsers that play at once (a run's envs, a test suite's
 * workers) each reset their own session, so none sees another's edits; a request without the
 * cookie reads and writes the shared database a person browsing the app uses.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { CrmDatabase } from './db.ts';

export const SESSION_COOKIE = 'crm_test_session';

/** Sessions kept at most; the least recently used goes first (a run opens one per episode). */
const MAX_SESSIONS = 128;

export class Sandboxes {
  private readonly sessions = new Map<string, CrmDatabase>();

  constructor(readonly shared: CrmDatabase) {}

  /**
   * The database a request works on: its session's, the shared one where it has none, and null
   * where its session is gone (evicted, or the server restarted).
   */
  databaseOf(request: IncomingMessage): CrmDatabase | null {
    const id = sessionOf(request);
    if (id === undefined) return this.shared;
    const db = this.sessions.get(id);
    if (!db) return null;
    // Most recently used last.
    this.sessions.delete(id);
    this.sessions.set(id, db);
    return db;
  }

  /** A fresh database from `seed` for the request's session (a new session where it has none); answers the cookie to set. */
  async reset(request: IncomingMessage, seed: number): Promise<string> {
    const db = await CrmDatabase.seeded(seed);
    const id = sessionOf(request) ?? randomUUID();
    this.sessions.get(id)?.close();
    this.sessions.delete(id);
    this.sessions.set(id, db);
    while (this.sessions.size > MAX_SESSIONS) {
      const [oldest, old] = this.sessions.entries().next().value as [string, CrmDatabase];
      old.close();
      this.sessions.delete(oldest);
    }
    return `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax`;
  }

  close(): void {
    for (const db of this.sessions.values()) db.close();
    this.sessions.clear();
    this.shared.close();
  }
}

function sessionOf(request: IncomingMessage): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === SESSION_COOKIE && value) return value;
  }
  return undefined;
}

/** A session's data as the fixture answers it: what a task's hooks check the outcome against. */
export function stateOf(db: CrmDatabase): unknown {
  return { seed: db.seed, companies: db.companies(), contacts: db.contacts('', 'id'), deals: db.deals() };
}
