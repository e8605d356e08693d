/**
 * Messaging (held out of pretraining): folders (Inbox, Sent, Archive), threads, and a compose
 * form whose recipient is typed as an address or picked from the contacts. The goal replies to a
 * message, forwards one (maybe from the archive) to a contact, or writes a new message; sending
 * ends the episode and checks what was sent (public/web/generated/families/messaging.js).
 */
import { choose, click, fill, Page } from '../oracle-tools.ts';
import { half, people, type Family } from '../model.ts';
import { NOTE_WORDS } from '../vocabulary.ts';

export interface Message {
  id: number;
  from: string;
  subject: string;
  body: string;
  folder: 'Inbox' | 'Archive';
}
export interface MessagingWorld {
  messages: Message[];
  contacts: { name: string; address: string }[];
  /** The recipient is typed (an address or a name), or picked from the contacts. */
  picker: 'text' | 'choice';
  /** Folders are tabs, or links beside the list. */
  folders: 'tabs' | 'links';
}
export type MessagingGoal =
  | { kind: 'reply'; message: number; text: string }
  | { kind: 'forward'; message: number; to: string }
  | { kind: 'compose'; to: string; subject: string; text: string };

export const FOLDERS = ['Inbox', 'Sent', 'Archive'] as const;

/** A message's line in its folder, as its link names it. */
export function messageLink(message: Pick<Message, 'from' | 'subject'>): string {
  return `${message.from}: ${message.subject}`;
}

const capital = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);
const addressOf = (name: string): string => `${name.toLowerCase().replace(' ', '.')}@example.org`;

export const messaging: Family<MessagingWorld, MessagingGoal> = {
  id: 'messaging',
  world(rng, frame) {
    const senders = people(rng, frame.split, 9);
    const count = 5 + rng.int(5);
    const topics = rng.sample(frame.domain.topics, Math.min(count, frame.domain.topics.length));
    const messages = Array.from({ length: count }, (_, i) => ({
      id: i,
      from: senders[i % senders.length] as string,
      subject: `${capital(topics[i % topics.length] as string)}${i >= topics.length ? ' again' : ''}`,
      body: `About the ${topics[i % topics.length]}: ${rng.pick(['please see the details below', 'can we talk this week', 'all done on our side', 'one question left'])}.`,
      folder: i < count - 2 - rng.int(2) ? ('Inbox' as const) : ('Archive' as const),
    }));
    const contacts = rng.sample(senders, 5).map((name) => ({ name, address: addressOf(name) }));
    return { messages: rng.shuffle(messages), contacts, picker: rng.pick(['text', 'choice'] as const), folders: rng.pick(['tabs', 'links'] as const) };
  },
  goal(rng, frame, world) {
    const kind = rng.pick(['reply', 'forward', 'compose'] as const);
    const message = rng.pick(world.messages);
    const where = message.folder === 'Archive' ? ' (it is archived)' : '';
    const about = `the message from ${message.from} about "${message.subject}"${where}`;
    const words = half(NOTE_WORDS, frame.split);
    const contact = rng.pick(world.contacts);
    const recipient = `${contact.name} (${contact.address})`;
    if (kind === 'reply') {
      const text = `${capital(rng.pick(words))} is fine, thanks`;
      return { instruction: `Reply to ${about} with "${text}".`, goal: { kind, message: message.id, text } };
    }
    if (kind === 'forward') return { instruction: `Forward ${about} to ${recipient}.`, goal: { kind, message: message.id, to: contact.name } };
    const subject = `${capital(rng.pick(words))} ${rng.pick(frame.domain.topics)}`;
    const text = `Please send the ${rng.pick(words)} notes`;
    return { instruction: `Write a new message to ${recipient} with the subject "${subject}" and the text "${text}".`, goal: { kind, to: contact.name, subject, text } };
  },
  oracle(data) {
    const { world, goal } = data;
    const contact = (name: string) => world.contacts.find((c) => c.name === name) as { name: string; address: string };
    const recipient = (page: Page, name: string): string | null => (world.picker === 'choice' ? choose(page, 'To', name) : fill(page, 'To', contact(name).address));
    return (observation) => {
      const page = new Page(observation);
      const title = page.headings()[0] ?? '';
      const target = goal.kind === 'compose' ? null : (world.messages.find((m) => m.id === goal.message) as Message);
      if (title === 'New message' || title.startsWith('Reply: ') || title.startsWith('Forward: ')) {
        if (goal.kind === 'compose') return recipient(page, goal.to) ?? fill(page, 'Subject', goal.subject) ?? fill(page, 'Message', goal.text) ?? click(page, 'Send');
        if (goal.kind === 'forward') return recipient(page, goal.to) ?? click(page, 'Send');
        return fill(page, 'Message', goal.text) ?? click(page, 'Send');
      }
      if (target && title === target.subject) return click(page, goal.kind === 'reply' ? 'Reply' : 'Forward');
      if (!target) return title === 'Inbox' ? click(page, 'Compose') : click(page, 'Inbox');
      if (title !== target.folder) return click(page, target.folder);
      return click(page, messageLink(target));
    };
  },
};
