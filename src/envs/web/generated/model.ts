/**
 * What a generated app is, as data: the page runtime (public/web/generated/) builds the app from
 * it, the family's oracle plays it, and its digest tells apps apart. An instance is an app (family,
 * domain, widget style, navigation, the app's world) and a goal in it.
 */
import type { Rng } from '../../../core/rng.ts';
import type { Observation } from '../../../core/types.ts';
import { DOMAINS, FIRST_NAMES, LAST_NAMES, type Domain, type DomainId } from './vocabulary.ts';

export const FAMILY_IDS = ['forms', 'tables', 'records', 'navigation', 'dialogs', 'settings', 'cart', 'messaging'] as const;
export type FamilyId = (typeof FAMILY_IDS)[number];

/**
 * How the app writes every widget: `native` HTML controls, `aria` widgets made of elements with
 * ARIA roles and states, `divs` plain `div`s and `span`s with click listeners and a pointer cursor
 * (their state shown only as text: ☑, ▾, "On").
 */
export const WIDGET_STYLES = ['native', 'aria', 'divs'] as const;
export type WidgetStyle = (typeof WIDGET_STYLES)[number];

/**
 * How the app moves between its pages: `views` swaps the content in place, `routes` pushes a
 * client-side route (`history.pushState`, so `go back` returns), `pages` loads another document
 * (the app's state kept in the tab's sessionStorage, as a server would keep it).
 */
export const NAVIGATIONS = ['views', 'routes', 'pages'] as const;
export type Navigation = (typeof NAVIGATIONS)[number];

/** The page's TASK.data: everything the runtime needs to build the app and check the goal. */
export interface AppData<W = unknown, G = unknown> {
  family: FamilyId;
  domain: DomainId;
  style: WidgetStyle;
  nav: Navigation;
  /** The app's name, shown in its header. */
  name: string;
  world: W;
  goal: G;
}

/** What a family's generator draws the app from besides the seed. */
export interface AppFrame {
  domain: Domain;
  split: string;
}

/** A family: its world (the app's content), a goal in it with its instruction, and an oracle. */
export interface Family<W, G> {
  id: FamilyId;
  world(rng: Rng, frame: AppFrame): W;
  goal(rng: Rng, frame: AppFrame, world: W): { instruction: string; goal: G };
  /** The next action from what the page shows (never the page's internals); it may keep its place. */
  oracle(data: AppData<W, G>): (observation: Observation) => string;
}

/** Train and test draw entities from different halves of every pool, so their entities never meet. */
export function half<T>(items: readonly T[], split: string): T[] {
  return items.filter((_, i) => (split === 'test' ? i % 2 === 1 : i % 2 === 0));
}

/** `count` distinct full names from the split's half of the name pools. */
export function people(rng: Rng, split: string, count: number): string[] {
  const names = new Set<string>();
  const firsts = half(FIRST_NAMES, split);
  const lasts = half(LAST_NAMES, split);
  while (names.size < count) names.add(`${rng.pick(firsts)} ${rng.pick(lasts)}`);
  return [...names];
}

/** `count` distinct record keys of the domain (people, or its things), from the split's half. */
export function recordKeys(rng: Rng, frame: AppFrame, count: number): string[] {
  const keys = frame.domain.keys;
  if (keys === 'people') return people(rng, frame.split, count);
  const own = rng.shuffle(half(keys, frame.split));
  if (count <= own.length) return own.slice(0, count);
  // A long list of things outgrows the pool: every key then carries a year, so that no key is a part of another.
  const years = rng.sample(Array.from({ length: 60 }, (_, i) => 1960 + i), count);
  return years.map((year, i) => `${own[i % own.length] as string} (${year})`);
}

export function domainOf(id: DomainId): Domain {
  return DOMAINS[id];
}
