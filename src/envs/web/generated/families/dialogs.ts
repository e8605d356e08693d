/**
 * Dialogs, toasts and confirmations: a list of the domain's records, each with Rename, Archive
 * and Delete behind a confirming dialog, a notice (toast) after each with Undo and Dismiss, and
 * maybe an announcement over the page at the start. The goal closes the announcement, restores a
 * record from a notice, deletes one or two records, renames one, or archives one and dismisses the
 * notice. Every change is checked: one the goal does not ask for loses, the last asked-for one wins
 * (public/web/generated/families/dialogs.js).
 */
import { act, click, fill, Page, rowAction } from '../oracle-tools.ts';
import { recordKeys, type Family } from '../model.ts';

export interface DialogsWorld {
  noun: string;
  items: string[];
  /** An announcement over the page at the start, closed by either of its buttons. */
  announcement: { title: string; body: string; ok: string; later: string } | null;
  /** A record deleted just before the start: its notice offers Undo. */
  removed: string | null;
}
export type DialogsGoal =
  | { kind: 'dismiss' }
  | { kind: 'restore'; key: string }
  | { kind: 'delete'; keys: string[] }
  | { kind: 'rename'; key: string; to: string }
  | { kind: 'archive'; key: string };

const ANNOUNCEMENTS = [
  { title: 'Welcome back', body: 'Here is what changed since your last visit.', ok: 'Got it', later: 'Remind me later' },
  { title: 'New look', body: 'We have tidied up the pages you use most.', ok: 'Continue', later: 'Show me around' },
  { title: 'Cookies', body: 'We use cookies to keep you signed in.', ok: 'Accept', later: 'Settings' },
];

export const dialogs: Family<DialogsWorld, DialogsGoal> = {
  id: 'dialogs',
  world(rng, frame) {
    const keys = recordKeys(rng, frame, 5 + rng.int(4));
    const removed = rng.chance(0.2) ? (keys.pop() as string) : null;
    return { noun: frame.domain.noun, items: keys, announcement: rng.chance(0.4) ? rng.pick(ANNOUNCEMENTS) : null, removed };
  },
  goal(rng, frame, world) {
    const noun = world.noun;
    if (world.removed !== null) return { instruction: `Bring back the ${noun} ${world.removed}, which was just deleted.`, goal: { kind: 'restore', key: world.removed } };
    const kinds: DialogsGoal['kind'][] = ['delete', 'rename', 'archive'];
    if (world.announcement) kinds.push('dismiss');
    const kind = rng.pick(kinds);
    if (kind === 'dismiss' && world.announcement) return { instruction: `Close the "${world.announcement.title}" message with "${world.announcement.ok}".`, goal: { kind } };
    if (kind === 'delete') {
      const keys = rng.sample(world.items, rng.chance(0.4) ? 2 : 1);
      return { instruction: `Delete the ${noun}${keys.length > 1 ? 's' : ''} ${keys.join(' and ')}.`, goal: { kind, keys } };
    }
    const key = rng.pick(world.items);
    if (kind === 'rename') {
      const to = recordKeys(rng, frame, world.items.length + 1).find((k) => !world.items.includes(k)) as string;
      return { instruction: `Rename the ${noun} ${key} to "${to}".`, goal: { kind, key, to } };
    }
    return { instruction: `Archive the ${noun} ${key}, then dismiss the notice.`, goal: { kind: 'archive', key } };
  },
  oracle(data) {
    const { world, goal } = data;
    return (observation) => {
      const page = new Page(observation);
      const headings = page.headings();
      const announcement = world.announcement;
      if (announcement && headings.includes(announcement.title)) return click(page, announcement.ok);
      switch (goal.kind) {
        case 'dismiss':
          return click(page, announcement?.ok ?? '');
        case 'restore':
          return click(page, 'Undo');
        case 'delete': {
          const open = goal.keys.find((k) => headings.includes(`Delete ${k}?`));
          if (open) return click(page, 'Delete');
          const next = goal.keys.map((k) => rowAction(page, k, 'Delete')).find((e) => e !== null) ?? null;
          return act(next);
        }
        case 'rename':
          if (headings.includes(`Rename ${goal.key}`)) return fill(page, 'New name', goal.to) ?? click(page, 'Rename');
          return act(rowAction(page, goal.key, 'Rename'));
        case 'archive':
          if (headings.includes(`Archive ${goal.key}?`)) return click(page, 'Archive');
          if (page.has(`${goal.key} was archived.`)) return click(page, 'Dismiss');
          return act(rowAction(page, goal.key, 'Archive'));
      }
    };
  },
};
