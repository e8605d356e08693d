/**
 * What the CRM's forms send, read and checked on the server: the pages carry no validation of
 * their own (`novalidate`), so every rule lives here and a refusal comes back as the same form
 * with the values kept and a message beside each field at fault.
 */
import { STAGES, type CrmDatabase, type NewContact, type NewDeal } from './db.ts';

/** A form's values as they were typed (texts), to show again when it is refused. */
export type Values = Record<string, string>;
/** The messages of a refused form, by field name. */
export type Errors = Record<string, string>;

export type Checked<T> = { ok: true; value: T } | { ok: false; errors: Errors };

export const CONTACT_FIELDS = ['name', 'email', 'phone', 'title', 'company'] as const;
export const DEAL_FIELDS = ['contact', 'title', 'amount', 'stage', 'closeDate'] as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ()-]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The named fields of a posted form, trimmed. */
export function valuesOf(form: URLSearchParams, fields: readonly string[]): Values {
  return Object.fromEntries(fields.map((field) => [field, (form.get(field) ?? '').trim()]));
}

export function checkContact(values: Values, db: CrmDatabase, id?: number): Checked<NewContact> {
  const errors: Errors = {};
  const name = values.name ?? '';
  const email = values.email ?? '';
  const phone = values.phone ?? '';
  if (name.length < 2 || name.length > 80) errors.name = 'Enter the contact\'s full name.';
  if (!EMAIL.test(email)) errors.email = 'Enter an e-mail address like name@example.com.';
  else if (db.emailTaken(email, id)) errors.email = 'Another contact already has this e-mail address.';
  const digits = phone.replace(/\D/g, '').length;
  if (!PHONE.test(phone) || digits < 7 || digits > 15) errors.phone = 'Enter a phone number of 7 to 15 digits, like +44 20 7946 0321.';
  if ((values.title ?? '').length > 80) errors.title = 'Keep the job title under 80 characters.';
  const company = db.companies().find((c) => String(c.id) === values.company);
  if (!company) errors.company = 'Choose the contact\'s company.';
  if (Object.keys(errors).length > 0 || !company) return { ok: false, errors };
  return { ok: true, value: { name, email, phone, title: values.title ?? '', companyId: company.id } };
}

/** The wizard's first step: who the deal is with, and its title. */
export function checkDealStart(values: Values, db: CrmDatabase): Errors {
  const errors: Errors = {};
  if (!db.contact(Number(values.contact))) errors.contact = 'Choose the contact this deal is with.';
  const title = values.title ?? '';
  if (title.length < 3 || title.length > 80) errors.title = 'Give the deal a title of 3 to 80 characters.';
  return errors;
}

/** The wizard's second step: its value and stage (and, for a won deal, when it closed). */
export function checkDealTerms(values: Values): Errors {
  const errors: Errors = {};
  const amount = (values.amount ?? '').replace(/[$,\s]/g, '');
  if (!/^\d+$/.test(amount) || Number(amount) <= 0 || Number(amount) > 10_000_000) errors.amount = 'Enter the amount in whole dollars, like 4500.';
  if (!(STAGES as readonly string[]).includes(values.stage ?? '')) errors.stage = 'Choose a stage.';
  else if (values.stage === 'Won' && !(DATE.test(values.closeDate ?? '') && !Number.isNaN(Date.parse(values.closeDate ?? '')))) errors.closeDate = 'A won deal needs the date it closed.';
  return errors;
}

/** The whole deal, as the last step creates it. */
export function checkDeal(values: Values, db: CrmDatabase): Checked<NewDeal> {
  const errors = { ...checkDealStart(values, db), ...checkDealTerms(values) };
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      contactId: Number(values.contact),
      title: values.title ?? '',
      amount: Number((values.amount ?? '').replace(/[$,\s]/g, '')),
      stage: values.stage ?? '',
      closeDate: values.stage === 'Won' ? (values.closeDate ?? null) : null,
    },
  };
}
