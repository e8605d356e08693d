/**
 * A person doing Fieldbook CRM's tasks (examples/apps/crm) from the instruction and what the page
 * shows, through the admissible actions alone: finds a contact (paging on), edits and saves one,
 * fills the new-contact form, walks the new-deal wizard, deletes one past its confirmation.
 */
import type { Agent, Observation, Task } from '../../../src/core/types.ts';
import { shownElements } from '../../../src/envs/web/snapshot.ts';

type Fields = [label: string, value: string][];

export class CrmPerson implements Agent {
  readonly name = 'crm-person';
  private instruction = '';

  reset(task: Task, first: Observation): void {
    this.instruction = /^instruction: (.*)$/m.exec(first.text)?.[1] ?? task.instruction;
  }

  act(observation: Observation): string {
    const i = this.instruction;
    const path = (/^url: (.*)$/m.exec(observation.text)?.[1] ?? '').split('?')[0] as string;
    const page = new PageActions(observation);
    let m: RegExpExecArray | null;
    if ((m = /^Open the contact record of (.+) of .+\.$/.exec(i))) return page.openContact(m[1] as string);
    if ((m = /^Change the phone number of (.+) to "(.+)" and save it\.$/.exec(i))) {
      if (path === '/contacts') return page.openContact(m[1] as string);
      if (/^\/contacts\/\d+$/.test(path)) return page.click('Edit contact');
      return page.fill([['Phone', m[2] as string]]) ?? page.click('Save changes');
    }
    if ((m = /^Delete the contact (.+) of .+\.$/.exec(i))) {
      if (path === '/contacts') return page.openContact(m[1] as string);
      if (/^\/contacts\/\d+$/.test(path)) return page.click('Delete contact');
      return page.click('Delete contact');
    }
    if ((m = /^Add a new contact "(.+)" at (.+), e-mail (\S+), phone "(.+)"\.$/.exec(i))) {
      if (path === '/contacts') return page.click('New contact');
      return page.fill([['Full name', m[1] as string], ['E-mail', m[3] as string], ['Phone', m[4] as string], ['Company', m[2] as string]]) ?? page.click('Create contact');
    }
    if ((m = /^Create a deal "(.+)" with (.+) for (\d+) dollars at stage (\w+)(?:, closed on (\S+))?\.$/.exec(i))) {
      if (path === '/deals') return page.click('New deal');
      if (page.has('Contact')) return page.fill([['Contact', m[2] as string], ['Deal title', m[1] as string]]) ?? page.click('Next');
      if (page.has('Amount (USD)')) return page.fill([['Amount (USD)', m[3] as string], ['Stage', m[4] as string], ...(m[5] ? [['Close date', m[5]] as [string, string]] : [])]) ?? page.click('Next');
      return page.click('Create deal');
    }
    throw new Error(`the person cannot read the instruction "${i}"`);
  }
}

/** The page's admissible actions, looked up by what a person sees. */
class PageActions {
  private readonly elements;
  constructor(private readonly observation: Observation) {
    this.elements = shownElements(observation.text);
  }

  has(name: string): boolean {
    return this.elements.some((e) => e.name === name && e.id !== undefined);
  }

  click(name: string): string {
    return this.find((a) => new RegExp(`^click\\[#\\d+ ${escape(name)}\\]$`).test(a), `click ${name}`);
  }

  /** The contact's link on this page of the list, else the next page. */
  openContact(name: string): string {
    return this.has(name) ? this.click(name) : this.click('Next page');
  }

  /** The first field whose value is not the one wanted, typed or chosen; null when all are. */
  fill(fields: Fields): string | null {
    for (const [label, value] of fields) {
      const element = this.elements.find((e) => e.name === label && e.id !== undefined);
      if (!element) throw new Error(`no field ${label} on the page:\n${this.observation.text}`);
      if (element.value === value) continue;
      const select = `select[#${element.id} ${label} | ${value}]`;
      if (this.observation.actions.includes(select)) return select;
      return this.find((a) => a === `type[#${element.id} ${label} | ...]`, `type into ${label}`).replace(/\| \.\.\.\]$/, `| ${value}]`);
    }
    return null;
  }

  private find(test: (action: string) => boolean, what: string): string {
    const action = this.observation.actions.find(test);
    if (!action) throw new Error(`the page admits no "${what}":\n${this.observation.text}\n${this.observation.actions.join(' ')}`);
    return action;
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
