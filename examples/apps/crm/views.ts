/**
 * The CRM's pages, rendered on the server as plain HTML: tables, links and forms that post, a
 * message beside each field a form was refused for, and one small script (public/app.js).
 */
import { STAGES, type Company, type Contact, type Deal } from './db.ts';
import type { Errors, Values } from './forms.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
function esc(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

function money(amount: number): string {
  return `$${amount.toLocaleString('en-US')}`;
}

export function layout(title: string, body: string, flash = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Fieldbook CRM</title>
<link rel="stylesheet" href="/static/app.css">
<script src="/static/app.js" defer></script>
</head>
<body>
<header class="top">
  <a class="brand" href="/contacts">Fieldbook CRM</a>
  <nav aria-label="Main"><a href="/contacts">Contacts</a> <a href="/deals">Deals</a></nav>
</header>
<main>
<h1>${esc(title)}</h1>
${flash ? `<p class="flash" role="status">${esc(flash)}</p>` : ''}
${body}
</main>
</body>
</html>`;
}

export const PAGE_SIZE = 8;

export function contactList(contacts: Contact[], query: string, page: number, flash: string): string {
  const pages = Math.max(1, Math.ceil(contacts.length / PAGE_SIZE));
  const shown = contacts.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const link = (p: number): string => `/contacts?${new URLSearchParams({ ...(query ? { q: query } : {}), page: String(p) })}`;
  const rows = shown.map((c) => `<tr><td><a href="/contacts/${c.id}">${esc(c.name)}</a></td><td>${esc(c.company)}</td><td>${esc(c.email)}</td><td>${esc(c.phone)}</td></tr>`).join('\n');
  const table = shown.length === 0
    ? `<p>No contact matches “${esc(query)}”.</p>`
    : `<table>
<caption>${contacts.length} contact${contacts.length === 1 ? '' : 's'}${query ? ` matching “${esc(query)}”` : ''}</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Company</th><th scope="col">E-mail</th><th scope="col">Phone</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
  const pager = pages === 1 ? '' : `<nav class="pager" aria-label="Pages">
${page > 1 ? `<a href="${esc(link(page - 1))}">Previous page</a>` : ''}
<span>Page ${page} of ${pages}</span>
${page < pages ? `<a href="${esc(link(page + 1))}">Next page</a>` : ''}
</nav>`;
  return layout('Contacts', `<form class="search" method="get" action="/contacts" role="search">
  <label for="q">Search contacts</label>
  <input id="q" name="q" type="search" value="${esc(query)}">
  <button type="submit">Search</button>
</form>
<p><a class="button" href="/contacts/new">New contact</a></p>
${table}
${pager}`, flash);
}

export function contactPage(contact: Contact, deals: Deal[], flash: string): string {
  const dealRows = deals.map((d) => `<tr><td>${esc(d.title)}</td><td>${money(d.amount)}</td><td>${esc(d.stage)}</td></tr>`).join('\n');
  return layout(contact.name, `<dl class="record">
  <dt>Company</dt><dd>${esc(contact.company)}</dd>
  <dt>Job title</dt><dd>${esc(contact.title || '—')}</dd>
  <dt>E-mail</dt><dd><a href="mailto:${esc(contact.email)}">${esc(contact.email)}</a></dd>
  <dt>Phone</dt><dd>${esc(contact.phone)}</dd>
</dl>
<p class="actions"><a class="button" href="/contacts/${contact.id}/edit">Edit contact</a> <a class="button danger" href="/contacts/${contact.id}/delete">Delete contact</a></p>
<h2>Deals</h2>
${deals.length === 0 ? '<p>No deals yet.</p>' : `<table><thead><tr><th scope="col">Title</th><th scope="col">Amount</th><th scope="col">Stage</th></tr></thead><tbody>\n${dealRows}\n</tbody></table>`}
<p><a href="/contacts">Back to contacts</a></p>`, flash);
}

/** The list of what is wrong, at the top of a refused form, each linking to its field. */
function problems(errors: Errors, labels: Record<string, string>): string {
  const entries = Object.entries(errors);
  if (entries.length === 0) return '';
  return `<div class="problems" role="alert">
  <h2>There ${entries.length === 1 ? 'is a problem' : `are ${entries.length} problems`}</h2>
  <ul>${entries.map(([field, message]) => `<li><a href="#${esc(field)}">${esc(labels[field] ?? field)}: ${esc(message)}</a></li>`).join('')}</ul>
</div>`;
}

/** A labelled field with its message; `control` is the input or select itself. */
function field(name: string, label: string, errors: Errors, control: (attributes: string) => string, hint = ''): string {
  const error = errors[name];
  const described = [hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ');
  const attributes = `id="${esc(name)}" name="${esc(name)}"${described ? ` aria-describedby="${described}"` : ''}${error ? ' aria-invalid="true"' : ''}`;
  return `<div class="field${error ? ' has-error' : ''}">
  <label for="${esc(name)}">${esc(label)}</label>
  ${hint ? `<p class="hint" id="${esc(name)}-hint">${esc(hint)}</p>` : ''}
  ${error ? `<p class="error" id="${esc(name)}-error">${esc(error)}</p>` : ''}
  ${control(attributes)}
</div>`;
}

function textInput(values: Values, name: string, type = 'text'): (attributes: string) => string {
  return (attributes) => `<input ${attributes} type="${type}" value="${esc(values[name] ?? '')}">`;
}

function select(options: [string, string][], chosen: string, placeholder: string): (attributes: string) => string {
  return (attributes) => `<select ${attributes}>
    <option value="">${esc(placeholder)}</option>
    ${options.map(([value, label]) => `<option value="${esc(value)}"${value === chosen ? ' selected' : ''}>${esc(label)}</option>`).join('\n    ')}
  </select>`;
}

const CONTACT_LABELS: Record<string, string> = { name: 'Full name', email: 'E-mail', phone: 'Phone', title: 'Job title', company: 'Company' };

/** The new-contact form (`contact` null) or the edit form of one. */
export function contactForm(contact: Contact | null, companies: Company[], values: Values, errors: Errors): string {
  const action = contact ? `/contacts/${contact.id}` : '/contacts';
  const title = contact ? `Edit ${contact.name}` : 'New contact';
  return layout(title, `${problems(errors, CONTACT_LABELS)}
<form method="post" action="${action}" novalidate>
${field('name', CONTACT_LABELS.name as string, errors, textInput(values, 'name'))}
${field('email', CONTACT_LABELS.email as string, errors, textInput(values, 'email', 'email'))}
${field('phone', CONTACT_LABELS.phone as string, errors, textInput(values, 'phone', 'tel'), 'With the country code, like +44 20 7946 0321.')}
${field('title', CONTACT_LABELS.title as string, errors, textInput(values, 'title'), 'Optional.')}
${field('company', CONTACT_LABELS.company as string, errors, select(companies.map((c) => [String(c.id), c.name]), values.company ?? '', 'Choose a company…'))}
<p class="actions"><button type="submit">${contact ? 'Save changes' : 'Create contact'}</button> <a href="${contact ? `/contacts/${contact.id}` : '/contacts'}">Cancel</a></p>
</form>`);
}

export function deletePage(contact: Contact, deals: number): string {
  return layout(`Delete ${contact.name}?`, `<p>This removes ${esc(contact.name)} of ${esc(contact.company)}${deals > 0 ? ` and their ${deals} deal${deals === 1 ? '' : 's'}` : ''}. It cannot be undone.</p>
<form method="post" action="/contacts/${contact.id}/delete">
  <p class="actions"><button class="danger" type="submit">Delete contact</button> <a href="/contacts/${contact.id}">Cancel</a></p>
</form>`);
}

export function dealList(deals: Deal[], flash: string): string {
  const rows = deals.map((d) => `<tr><td>${esc(d.title)}</td><td><a href="/contacts/${d.contactId}">${esc(d.contact)}</a></td><td>${money(d.amount)}</td><td>${esc(d.stage)}</td><td>${esc(d.closeDate ?? '—')}</td></tr>`).join('\n');
  return layout('Deals', `<p><a class="button" href="/deals/new">New deal</a></p>
${deals.length === 0 ? '<p>No deals yet.</p>' : `<table>
<caption>${deals.length} deal${deals.length === 1 ? '' : 's'}</caption>
<thead><tr><th scope="col">Title</th><th scope="col">Contact</th><th scope="col">Amount</th><th scope="col">Stage</th><th scope="col">Closed</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`}`, flash);
}

const DEAL_LABELS: Record<string, string> = { contact: 'Contact', title: 'Deal title', amount: 'Amount (USD)', stage: 'Stage', closeDate: 'Close date' };

/** What the earlier steps chose, carried by the next step's form. */
function carried(values: Values, fields: readonly string[]): string {
  return fields.map((f) => `<input type="hidden" name="${esc(f)}" value="${esc(values[f] ?? '')}">`).join('\n');
}

/** The new-deal wizard: 1 who and what, 2 value and stage, 3 check and create. */
export function dealWizard(step: 1 | 2 | 3, contacts: Contact[], values: Values, errors: Errors): string {
  const steps = ['Who and what', 'Value and stage', 'Check and create'];
  const progress = `<ol class="steps">${steps.map((s, i) => `<li${i + 1 === step ? ' aria-current="step"' : ''}>${esc(s)}</li>`).join('')}</ol>`;
  const back = '<button type="submit" name="back" value="1" class="secondary">Back</button>';
  let body: string;
  if (step === 1) {
    body = `${field('contact', DEAL_LABELS.contact as string, errors, select(contacts.map((c) => [String(c.id), c.name]), values.contact ?? '', 'Choose a contact…'))}
${field('title', DEAL_LABELS.title as string, errors, textInput(values, 'title'))}
<p class="actions"><button type="submit">Next</button> <a href="/deals">Cancel</a></p>`;
  } else if (step === 2) {
    body = `${carried(values, ['contact', 'title'])}
${field('amount', DEAL_LABELS.amount as string, errors, textInput(values, 'amount'), 'In whole dollars.')}
${field('stage', DEAL_LABELS.stage as string, errors, select(STAGES.map((s) => [s, s]), values.stage ?? '', 'Choose a stage…'))}
<div id="close-date-field"${values.stage === 'Won' ? '' : ' hidden'}>
${field('closeDate', DEAL_LABELS.closeDate as string, errors, textInput(values, 'closeDate', 'date'))}
</div>
<p class="actions">${back} <button type="submit">Next</button></p>`;
  } else {
    const contact = contacts.find((c) => String(c.id) === values.contact);
    body = `${carried(values, ['contact', 'title', 'amount', 'stage', 'closeDate'])}
<dl class="record">
  <dt>Contact</dt><dd>${esc(contact?.name ?? '')}</dd>
  <dt>Deal title</dt><dd>${esc(values.title ?? '')}</dd>
  <dt>Amount</dt><dd>${money(Number((values.amount ?? '').replace(/[$,\s]/g, '')))}</dd>
  <dt>Stage</dt><dd>${esc(values.stage ?? '')}</dd>
  ${values.stage === 'Won' ? `<dt>Closed</dt><dd>${esc(values.closeDate ?? '')}</dd>` : ''}
</dl>
<p class="actions">${back} <button type="submit">Create deal</button></p>`;
  }
  return layout(`New deal, step ${step} of 3`, `${progress}
${problems(errors, DEAL_LABELS)}
<form method="post" action="/deals/new" novalidate>
<input type="hidden" name="step" value="${step}">
${body}
</form>`);
}

export function notFound(what: string): string {
  return layout('Not found', `<p>${esc(what)}</p><p><a href="/contacts">Back to contacts</a></p>`);
}
