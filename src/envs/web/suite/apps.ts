/**
 * The bundled suite's app-like tasks: an e-mail inbox, a social feed, a forum, an admin table and
 * a small shop (their pages: public/web/suite/tasks/<app>.js). Each task is a seeded generator, an
 * instruction and an oracle that reads the page's element lines. The people, subjects and products
 * of test instances are never those of train instances (each pool is split in two), as WebShop's
 * and ALFWorld's held-out splits keep their goals apart.
 */
import { Rng } from '../../../core/rng.ts';
import type { Observation } from '../../../core/types.ts';
import type { TaskProgram } from '../site.ts';
import { shownElements, type ShownElement } from '../snapshot.ts';
import { findElement, on } from './oracle-tools.ts';
import { FIRST_NAMES, WORDS } from './words.ts';

const LAST_NAMES = ['Abara', 'Berg', 'Costa', 'Dahl', 'Eze', 'Fontaine', 'Garcia', 'Haddad', 'Ito', 'Jensen', 'Kowalski', 'Larsen', 'Moreau', 'Nakamura', 'Okafor', 'Petrov', 'Quispe', 'Rossi', 'Santos', 'Tanaka', 'Usman', 'Varga', 'Weber', 'Xu', 'Yilmaz', 'Zhou'];
const ITEMS = ['lamp', 'chair', 'mug', 'kite', 'scarf', 'clock', 'jacket', 'backpack', 'kettle', 'blanket', 'notebook', 'umbrella'];
const BRANDS = ['Acme', 'Norde', 'Vela', 'Orin', 'Tasko', 'Lumo', 'Brio', 'Kanto'];
const SIZES = ['XS', 'S', 'M', 'L', 'XL'];
const ROLES = ['viewer', 'editor', 'admin', 'auditor'];

/** Train and test draw from different halves of every pool, so their entities never meet. */
function half<T>(items: readonly T[], split: string): T[] {
  return items.filter((_, i) => (split === 'test' ? i % 2 === 1 : i % 2 === 0));
}

const capital = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

function people(rng: Rng, split: string, count: number): { name: string; address: string }[] {
  const firsts = rng.sample(half(FIRST_NAMES, split), count);
  const lasts = half(LAST_NAMES, split);
  return firsts.map((first) => {
    const last = rng.pick(lasts);
    return { name: `${capital(first)} ${last}`, address: `${first}.${last.toLowerCase()}@example.org` };
  });
}

/**
 * An app-like task in two parts drawn from one seed: the app's world (its mails, posts, users,
 * products) and the goal in it (which one, what to write). Recombining keeps a parent's world and
 * draws another goal in it (the curriculum's variation of an app-like task: the same entities,
 * recombined into a task the parent was not).
 */
function program<W, D extends W>(
  id: string,
  world: (rng: Rng, split: string) => W,
  goal: (rng: Rng, split: string, world: W) => { instruction: string; data: D },
  oracle: (data: D) => (o: Observation) => string,
): TaskProgram {
  return {
    generate: (seed, split) => {
      const rng = new Rng(`web:${id}:${seed}`);
      return goal(rng, split, world(rng, split));
    },
    recombine: (data, seed, split) => goal(new Rng(`web:${id}:recombine:${seed}`), split, data as W),
    createOracle: (data) => oracle(data as D),
  };
}

const heading = (o: Observation): string => shownElements(o.text).find((e) => e.role === 'heading')?.name ?? '';
const field = (o: Observation, name: string): ShownElement | null => findElement(o, 'textbox', name);

// ---- inbox ------------------------------------------------------------------------------------

interface Mail { id: number; from: string; address: string; subject: string; body: string }
interface InboxData { mails: Mail[]; goal: { kind: 'star' | 'delete' | 'reply' | 'forward'; mail: number; text?: string; to?: string } }

type InboxWorld = Pick<InboxData, 'mails'>;

function inboxWorld(rng: Rng, split: string): InboxWorld {
  const senders = people(rng, split, 5 + rng.int(4));
  const subjects = rng.sample(half(WORDS, split), senders.length);
  return { mails: senders.map((p, i) => ({ id: i, from: p.name, address: p.address, subject: `${capital(subjects[i] as string)} ${rng.pick(['plans', 'notes', 'invoice', 'photos', 'meeting', 'update'])}`, body: `Hi, about the ${subjects[i]}: ${rng.pick(['see you soon', 'let me know', 'thanks again', 'more next week'])}.` })) };
}

function inboxGoal(kind: InboxData['goal']['kind']) {
  return (rng: Rng, split: string, { mails }: InboxWorld): { instruction: string; data: InboxData } => {
    const target = rng.pick(mails);
    const about = `the e-mail from ${target.from} about "${target.subject}"`;
    if (kind === 'star') return { instruction: `Star ${about}.`, data: { mails, goal: { kind, mail: target.id } } };
    if (kind === 'delete') return { instruction: `Delete ${about}.`, data: { mails, goal: { kind, mail: target.id } } };
    if (kind === 'reply') {
      const text = `${capital(rng.pick(half(WORDS, split)))} sounds good`;
      return { instruction: `Reply to ${about} with "${text}".`, data: { mails, goal: { kind, mail: target.id, text } } };
    }
    const to = (people(rng, split, 1)[0] as { address: string }).address;
    return { instruction: `Forward ${about} to ${to}.`, data: { mails, goal: { kind, mail: target.id, to } } };
  };
}

function inboxOracle(data: InboxData): (o: Observation) => string {
  const mail = data.mails[data.goal.mail] as Mail;
  const { kind } = data.goal;
  return (o) => {
    if (kind === 'star' || kind === 'delete') return on(findElement(o, 'button', `${kind === 'star' ? 'Star' : 'Delete'} ${mail.subject}`), 'click');
    const send = findElement(o, 'button', 'Send');
    if (send) {
      if (kind === 'reply' && field(o, 'Message')?.value !== data.goal.text) return on(field(o, 'Message'), 'type', data.goal.text);
      if (kind === 'forward' && field(o, 'To')?.value !== data.goal.to) return on(field(o, 'To'), 'type', data.goal.to);
      return on(send, 'click');
    }
    const button = findElement(o, 'button', kind === 'reply' ? 'Reply' : 'Forward');
    return button ? on(button, 'click') : on(findElement(o, 'link', `${mail.from}: ${mail.subject}`), 'click');
  };
}

// ---- feed -------------------------------------------------------------------------------------

interface FeedData { posts: { author: string; text: string }[]; goal: { kind: 'like' | 'share' | 'follow'; author: string } }

type FeedWorld = Pick<FeedData, 'posts'>;

function feedWorld(rng: Rng, split: string): FeedWorld {
  const authors = people(rng, split, 4 + rng.int(4));
  return { posts: authors.map((a) => ({ author: a.name, text: `Just saw a ${rng.pick(half(WORDS, split))} by the ${rng.pick(half(WORDS, split))}.` })) };
}

function feedGoal(kind: FeedData['goal']['kind']) {
  return (rng: Rng, _split: string, { posts }: FeedWorld): { instruction: string; data: FeedData } => {
    const target = rng.pick(posts);
    const instruction = kind === 'follow' ? `Follow ${target.author}.` : `${kind === 'like' ? 'Like' : 'Share'} the post by ${target.author}.`;
    return { instruction, data: { posts, goal: { kind, author: target.author } } };
  };
}

const feedOracle = (data: FeedData) => (o: Observation): string =>
  on(findElement(o, 'button', data.goal.kind === 'follow' ? `Follow ${data.goal.author}` : `${data.goal.kind === 'like' ? 'Like' : 'Share'} ${data.goal.author}'s post`), 'click');

// ---- forum ------------------------------------------------------------------------------------

interface ForumData { threads: { title: string; author: string; body: string; votes: number }[]; goal: { kind: 'reply' | 'vote'; thread: string; text?: string } }

type ForumWorld = Pick<ForumData, 'threads'>;

function forumWorld(rng: Rng, split: string): ForumWorld {
  const authors = people(rng, split, 5 + rng.int(3));
  const topics = rng.sample(half(WORDS, split), authors.length);
  return { threads: authors.map((a, i) => ({ title: `${rng.pick(['Tips for', 'Question about', 'Thoughts on', 'Help with'])} ${topics[i]}`, author: a.name, body: `Has anyone tried ${topics[i]} lately?`, votes: rng.int(40) })) };
}

function forumGoal(kind: ForumData['goal']['kind']) {
  return (rng: Rng, split: string, { threads }: ForumWorld): { instruction: string; data: ForumData } => {
    const target = rng.pick(threads);
    if (kind === 'vote') return { instruction: `Upvote the thread "${target.title}".`, data: { threads, goal: { kind, thread: target.title } } };
    const text = `I like ${rng.pick(half(WORDS, split))} too`;
    return { instruction: `Reply "${text}" to the thread "${target.title}".`, data: { threads, goal: { kind, thread: target.title, text } } };
  };
}

const forumOracle = (data: ForumData) => (o: Observation): string => {
  if (heading(o) !== data.goal.thread) return on(findElement(o, 'link', data.goal.thread), 'click');
  if (data.goal.kind === 'vote') return on(findElement(o, 'button', 'Upvote this thread'), 'click');
  const reply = field(o, 'Your reply');
  return reply?.value !== data.goal.text ? on(reply, 'type', data.goal.text) : on(findElement(o, 'button', 'Post reply'), 'click');
};

// ---- admin ------------------------------------------------------------------------------------

interface User { name: string; email: string; role: string; active: boolean }
interface AdminData { users: User[]; roles: string[]; goal: { kind: 'role' | 'deactivate'; user: string; role?: string; was: User } }

type AdminWorld = Pick<AdminData, 'users'>;

function adminWorld(rng: Rng, split: string): AdminWorld {
  return { users: people(rng, split, 6 + rng.int(5)).map((p) => ({ name: p.name, email: p.address, role: rng.pick(ROLES), active: true })) };
}

function adminGoal(kind: AdminData['goal']['kind']) {
  return (rng: Rng, _split: string, { users }: AdminWorld): { instruction: string; data: AdminData } => {
    const target = rng.pick(users);
    if (kind === 'deactivate') return { instruction: `Make ${target.name}'s account inactive and save.`, data: { users, roles: ROLES, goal: { kind, user: target.name, was: { ...target } } } };
    const role = rng.pick(ROLES.filter((r) => r !== target.role));
    return { instruction: `Change ${target.name}'s role to ${role} and save.`, data: { users, roles: ROLES, goal: { kind, user: target.name, role, was: { ...target } } } };
  };
}

const adminOracle = (data: AdminData) => (o: Observation): string => {
  if (heading(o) !== `Edit ${data.goal.user}`) return on(findElement(o, 'button', `Edit ${data.goal.user}`), 'click');
  if (data.goal.kind === 'role') {
    const role = findElement(o, ['combobox', 'listbox'], 'Role');
    if (role && role.value !== data.goal.role) return on(role, 'select', data.goal.role);
  } else {
    const active = findElement(o, 'checkbox', 'Active');
    if (active?.states.includes('checked')) return on(active, 'uncheck');
  }
  return on(findElement(o, 'button', 'Save'), 'click');
};

// ---- shop -------------------------------------------------------------------------------------

interface ShopData { products: { name: string; price: number; sizes: string[]; blurb: string }[]; goal: { product: string; size: string; shipTo: string } }

type ShopWorld = Pick<ShopData, 'products'>;

function shopWorld(rng: Rng, split: string): ShopWorld {
  const names = new Set<string>();
  while (names.size < 8 + rng.int(5)) names.add(`${rng.pick(BRANDS)} ${rng.pick(half(WORDS, split))} ${rng.pick(ITEMS)}`);
  return { products: [...names].map((name) => ({ name, price: 5 + rng.int(95), sizes: SIZES.slice(rng.int(2), 3 + rng.int(3)), blurb: `Made of ${rng.pick(WORDS)} fibre.` })) };
}

function shopGoal(rng: Rng, split: string, { products }: ShopWorld): { instruction: string; data: ShopData } {
  const target = rng.pick(products);
  const size = rng.pick(target.sizes);
  const shipTo = (people(rng, split, 1)[0] as { name: string }).name;
  return { instruction: `Buy the "${target.name}" in size ${size} and ship it to "${shipTo}".`, data: { products, goal: { product: target.name, size, shipTo } } };
}

const shopOracle = (data: ShopData) => (o: Observation): string => {
  const { product, size, shipTo } = data.goal;
  const page = heading(o);
  if (page === 'Checkout') {
    const name = field(o, 'Ship to');
    return name?.value !== shipTo ? on(name, 'type', shipTo) : on(findElement(o, 'button', 'Place order'), 'click');
  }
  if (page === 'Cart') return on(findElement(o, 'button', 'Checkout'), 'click');
  if (page === product) {
    const cart = shownElements(o.text).find((e) => e.role === 'button' && e.name.startsWith('Cart ('));
    if (cart && cart.name !== 'Cart (0)') return on(cart, 'click');
    const select = findElement(o, ['combobox', 'listbox'], 'Size');
    return select && select.value !== size ? on(select, 'select', size) : on(findElement(o, 'button', 'Add to cart'), 'click');
  }
  const link = findElement(o, 'link', product);
  if (link) return on(link, 'click');
  const box = findElement(o, 'searchbox', 'Search products');
  return box?.value === product ? on(box, 'press', 'Enter') : on(box, 'type', product);
};

export const APP_TASKS: Record<string, TaskProgram> = {
  'inbox-star': program('inbox-star', inboxWorld, inboxGoal('star'), inboxOracle),
  'inbox-delete': program('inbox-delete', inboxWorld, inboxGoal('delete'), inboxOracle),
  'inbox-reply': program('inbox-reply', inboxWorld, inboxGoal('reply'), inboxOracle),
  'inbox-forward': program('inbox-forward', inboxWorld, inboxGoal('forward'), inboxOracle),
  'feed-like': program('feed-like', feedWorld, feedGoal('like'), feedOracle),
  'feed-share': program('feed-share', feedWorld, feedGoal('share'), feedOracle),
  'feed-follow': program('feed-follow', feedWorld, feedGoal('follow'), feedOracle),
  'forum-reply': program('forum-reply', forumWorld, forumGoal('reply'), forumOracle),
  'forum-vote': program('forum-vote', forumWorld, forumGoal('vote'), forumOracle),
  'admin-role': program('admin-role', adminWorld, adminGoal('role'), adminOracle),
  'admin-deactivate': program('admin-deactivate', adminWorld, adminGoal('deactivate'), adminOracle),
  'shop-buy': program('shop-buy', shopWorld, shopGoal, shopOracle),
};
