/**
 * Fieldbook CRM's data: SQLite in memory, through sql.js (SQLite compiled to wasm: nothing to
 * install or build). A database is made from a seed, the same one every time: the same companies,
 * people and deals, with the same ids, in the same order. The test fixtures (fixtures.ts) rely on
 * it: a reset with a seed restores a known world.
 */
import initSqlJs, { type Database, type SqlJsStatic, type SqlValue } from 'sql.js';

// AUTOINCREMENT: a deleted row's id is never given to a new one, so "the rows added since" is "the ids above".
const SCHEMA = `
  PRAGMA foreign_keys = ON;
  CREATE TABLE companies (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE, city TEXT NOT NULL, domain TEXT NOT NULL);
  CREATE TABLE contacts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE,
    phone TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    company_id INTEGER NOT NULL REFERENCES companies(id)
  );
  CREATE TABLE deals (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL,
    contact_id INTEGER NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
    amount INTEGER NOT NULL CHECK (amount > 0),
    stage TEXT NOT NULL,
    close_date TEXT
  );
`;

export const STAGES = ['Lead', 'Qualified', 'Proposal', 'Won', 'Lost'] as const;

export interface Company {
  id: number;
  name: string;
  city: string;
  domain: string;
}

export interface Contact {
  id: number;
  name: string;
  email: string;
  phone: string;
  title: string;
  companyId: number;
  company: string;
}

export interface Deal {
  id: number;
  title: string;
  contactId: number;
  contact: string;
  amount: number;
  stage: string;
  closeDate: string | null;
}

export interface NewContact {
  name: string;
  email: string;
  phone: string;
  title: string;
  companyId: number;
}

export interface NewDeal {
  title: string;
  contactId: number;
  amount: number;
  stage: string;
  closeDate: string | null;
}

const COMPANIES: [string, string, string][] = [
  ['Brightwave', 'Leeds', 'brightwave.io'],
  ['Copperleaf Studio', 'Porto', 'copperleaf.pt'],
  ['Harbor & Pine', 'Portland', 'harborpine.com'],
  ['Northgate Logistics', 'Rotterdam', 'northgate.nl'],
  ['Quillfeather', 'Dublin', 'quillfeather.ie'],
  ['Saltmarsh Foods', 'Bergen', 'saltmarsh.no'],
  ['Tinder & Flint', 'Austin', 'tinderflint.com'],
  ['Verdant Labs', 'Nairobi', 'verdantlabs.co.ke'],
  ['Bluefin Analytics', 'Lisbon', 'bluefin.pt'],
  ['Oakridge Legal', 'Toronto', 'oakridgelegal.ca'],
  ['Meridian Health', 'Melbourne', 'meridianhealth.com.au'],
  ['Kestrel Robotics', 'Munich', 'kestrel.de'],
];
const FIRST_NAMES = ['Ada', 'Bruno', 'Chiara', 'Dmitri', 'Elena', 'Farid', 'Grace', 'Hugo', 'Ines', 'Jakob', 'Keiko', 'Liam', 'Maya', 'Nils', 'Olga', 'Pavel', 'Rosa', 'Samir', 'Tess', 'Umar'];
const LAST_NAMES = ['Byrne', 'Costa', 'Dahl', 'Evans', 'Fischer', 'Garcia', 'Holm', 'Ito', 'Jensen', 'Kowalski', 'Laurent', 'Mensah', 'Nakamura', 'Okoro', 'Petrov', 'Quinn', 'Rossi', 'Silva', 'Tanaka', 'Varga'];
const JOB_TITLES = ['Head of Operations', 'Account Manager', 'CTO', 'Procurement Lead', 'Office Manager', 'Founder', 'Finance Director', 'Product Owner'];
const DEAL_TITLES = ['Website refresh', 'Quarterly support', 'Hardware order', 'Consulting retainer', 'Security audit', 'Team workshop'];
const DIALLING_CODES = ['+44 20', '+351 22', '+31 10', '+353 1', '+47 55', '+49 89'];

const SIZES = { companies: 6, contacts: 14, deals: 5 };

/** mulberry32: a small seeded generator, so a seed always makes the same data. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: readonly T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

let engine: Promise<SqlJsStatic> | null = null;

/** The SQLite engine, loaded once per process (its wasm file ships in the sql.js package). */
function sqlite(): Promise<SqlJsStatic> {
  engine ??= initSqlJs();
  return engine;
}

export class CrmDatabase {
  private constructor(private readonly db: Database, readonly seed: number) {}

  /** A new database holding the data `seed` makes. */
  static async seeded(seed: number): Promise<CrmDatabase> {
    const SQL = await sqlite();
    const crm = new CrmDatabase(new SQL.Database(), seed);
    crm.db.run(SCHEMA);
    crm.fill(seed);
    return crm;
  }

  private fill(seed: number): void {
    const next = random(seed);
    const companies = shuffled(COMPANIES, next).slice(0, SIZES.companies);
    for (const [name, city, domain] of companies) this.db.run('INSERT INTO companies (name, city, domain) VALUES (?, ?, ?)', [name, city, domain]);
    const firsts = shuffled(FIRST_NAMES, next);
    const lasts = shuffled(LAST_NAMES, next);
    for (let i = 0; i < SIZES.contacts; i++) {
      const first = firsts[i] as string;
      const last = lasts[i] as string;
      const company = Math.floor(next() * companies.length);
      const phone = `${DIALLING_CODES[Math.floor(next() * DIALLING_CODES.length)]} ${String(1000 + Math.floor(next() * 9000))} ${String(1000 + Math.floor(next() * 9000))}`;
      const title = JOB_TITLES[Math.floor(next() * JOB_TITLES.length)] as string;
      this.db.run('INSERT INTO contacts (name, email, phone, title, company_id) VALUES (?, ?, ?, ?, ?)', [`${first} ${last}`, `${first}.${last}@${companies[company]?.[2]}`.toLowerCase(), phone, title, company + 1]);
    }
    for (let i = 0; i < SIZES.deals; i++) {
      const stage = STAGES[Math.floor(next() * STAGES.length)] as string;
      this.db.run('INSERT INTO deals (title, contact_id, amount, stage, close_date) VALUES (?, ?, ?, ?, ?)', [
        DEAL_TITLES[Math.floor(next() * DEAL_TITLES.length)] as string,
        1 + Math.floor(next() * SIZES.contacts),
        500 * (1 + Math.floor(next() * 20)),
        stage,
        stage === 'Won' ? `2024-${String(1 + Math.floor(next() * 12)).padStart(2, '0')}-${String(1 + Math.floor(next() * 28)).padStart(2, '0')}` : null,
      ]);
    }
  }

  private rows(sql: string, params: SqlValue[] = []): Record<string, SqlValue>[] {
    const statement = this.db.prepare(sql, params);
    const rows: Record<string, SqlValue>[] = [];
    try {
      while (statement.step()) rows.push(statement.getAsObject());
    } finally {
      statement.free();
    }
    return rows;
  }

  companies(): Company[] {
    return this.rows('SELECT id, name, city, domain FROM companies ORDER BY id').map((r) => ({ id: Number(r.id), name: String(r.name), city: String(r.city), domain: String(r.domain) }));
  }

  /** Contacts by name; `query` keeps those whose name, e-mail or company contains it. */
  contacts(query = '', order: 'name' | 'id' = 'name'): Contact[] {
    const like = `%${query.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return this.rows(
      `SELECT contacts.id, contacts.name, email, phone, title, company_id, companies.name AS company
       FROM contacts JOIN companies ON companies.id = contacts.company_id
       WHERE contacts.name LIKE ?1 ESCAPE '\\' OR email LIKE ?1 ESCAPE '\\' OR companies.name LIKE ?1 ESCAPE '\\'
       ORDER BY ${order === 'name' ? 'contacts.name COLLATE NOCASE, contacts.id' : 'contacts.id'}`,
      [like],
    ).map(toContact);
  }

  contact(id: number): Contact | null {
    const [row] = this.rows('SELECT contacts.id, contacts.name, email, phone, title, company_id, companies.name AS company FROM contacts JOIN companies ON companies.id = contacts.company_id WHERE contacts.id = ?', [id]);
    return row ? toContact(row) : null;
  }

  /** Whether another contact than `except` has this e-mail address (case does not matter). */
  emailTaken(email: string, except?: number): boolean {
    return this.rows('SELECT id FROM contacts WHERE lower(email) = lower(?) AND id != ?', [email, except ?? -1]).length > 0;
  }

  addContact(contact: NewContact): number {
    this.db.run('INSERT INTO contacts (name, email, phone, title, company_id) VALUES (?, ?, ?, ?, ?)', [contact.name, contact.email, contact.phone, contact.title, contact.companyId]);
    return Number(this.rows('SELECT last_insert_rowid() AS id')[0]?.id);
  }

  updateContact(id: number, contact: NewContact): void {
    this.db.run('UPDATE contacts SET name = ?, email = ?, phone = ?, title = ?, company_id = ? WHERE id = ?', [contact.name, contact.email, contact.phone, contact.title, contact.companyId, id]);
  }

  /** Deletes the contact and, with it, their deals. */
  deleteContact(id: number): void {
    this.db.run('DELETE FROM contacts WHERE id = ?', [id]);
  }

  deals(contactId?: number): Deal[] {
    const where = contactId === undefined ? '' : 'WHERE deals.contact_id = ?';
    return this.rows(
      `SELECT deals.id, deals.title, contact_id, contacts.name AS contact, amount, stage, close_date
       FROM deals JOIN contacts ON contacts.id = deals.contact_id ${where} ORDER BY deals.id`,
      contactId === undefined ? [] : [contactId],
    ).map((r) => ({ id: Number(r.id), title: String(r.title), contactId: Number(r.contact_id), contact: String(r.contact), amount: Number(r.amount), stage: String(r.stage), closeDate: r.close_date === null ? null : String(r.close_date) }));
  }

  addDeal(deal: NewDeal): number {
    this.db.run('INSERT INTO deals (title, contact_id, amount, stage, close_date) VALUES (?, ?, ?, ?, ?)', [deal.title, deal.contactId, deal.amount, deal.stage, deal.closeDate]);
    return Number(this.rows('SELECT last_insert_rowid() AS id')[0]?.id);
  }

  close(): void {
    this.db.close();
  }
}

function toContact(r: Record<string, SqlValue>): Contact {
  return { id: Number(r.id), name: String(r.name), email: String(r.email), phone: String(r.phone), title: String(r.title), companyId: Number(r.company_id), company: String(r.company) };
}
