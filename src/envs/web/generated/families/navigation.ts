/**
 * Navigation by menus, tabs, accordions and breadcrumbs: an app of sections (reached from a menu
 * or a bar of links on its home page), each with tabs, each tab with sections that open, holding
 * the items to open. The goal is one item: a quick link on the home page, or one down a path;
 * the app may start on another section's page, left by its breadcrumbs. Opening an item ends the
 * episode: the right one on the right path wins (public/web/generated/families/navigation.js).
 */
import { act, click, expand, Page } from '../oracle-tools.ts';
import type { Family } from '../model.ts';

export interface NavGroup {
  title: string;
  items: string[];
}
export interface NavSection {
  title: string;
  tabs: { title: string; groups: NavGroup[] }[];
}
export interface NavigationWorld {
  home: string;
  /** The home page reaches the sections by a menu button, or by a bar of links. */
  top: 'menu' | 'links';
  quick: string[];
  sections: NavSection[];
  /** The page the app opens on: its home, or a section's. */
  start: number | null;
}
export type NavigationGoal =
  | { kind: 'quick'; item: string }
  | { kind: 'path'; section: string; tab: string; group: string; item: string };

const GROUPS = ['Documents', 'Tools', 'Forms', 'Shortcuts', 'Downloads', 'Help'];
const ITEM_WORDS = ['summary', 'export', 'checklist', 'archive', 'log', 'template', 'calendar', 'guide', 'report', 'tracker', 'notes', 'contacts'];
const QUICK = ['Opening hours', 'Contact us', 'Accessibility', 'Privacy notice', 'News', 'Careers', 'Site map', 'Feedback'];

export const navigation: Family<NavigationWorld, NavigationGoal> = {
  id: 'navigation',
  world(rng, frame) {
    const titles = rng.sample(frame.domain.sections, 3 + rng.int(3));
    const sections = titles.map((title) => ({
      title,
      tabs: rng.sample(frame.domain.pages, 2 + rng.int(2)).map((tab) => {
        const words = rng.shuffle(ITEM_WORDS);
        return {
          title: tab,
          groups: rng.sample(GROUPS, 2 + rng.int(2)).map((group, g) => ({ title: group, items: words.slice(g * 3, g * 3 + 2 + rng.int(2)).map((w) => `${tab} ${w}`) })),
        };
      }),
    }));
    return { home: 'Home', top: rng.pick(['menu', 'links'] as const), quick: rng.sample(QUICK, 2 + rng.int(3)), sections, start: rng.chance(0.3) ? rng.int(sections.length) : null };
  },
  goal(rng, _frame, world) {
    if (world.start === null && rng.chance(0.15)) {
      const item = rng.pick(world.quick);
      return { instruction: `Open "${item}" from the home page.`, goal: { kind: 'quick', item } };
    }
    const section = rng.pick(world.sections);
    const tab = rng.pick(section.tabs);
    const group = rng.pick(tab.groups);
    const item = rng.pick(group.items);
    const instruction = rng.pick([
      `Go to ${section.title} › ${tab.title} › ${group.title} and open "${item}".`,
      `In the ${section.title} section, on the ${tab.title} tab, open "${item}" under ${group.title}.`,
      `Open "${item}": it is in ${section.title}, tab ${tab.title}, section ${group.title}.`,
    ]);
    return { instruction, goal: { kind: 'path', section: section.title, tab: tab.title, group: group.title, item } };
  },
  oracle(data) {
    const { world, goal } = data;
    return (observation) => {
      const page = new Page(observation);
      const [title = '', tabTitle = ''] = page.headings();
      if (goal.kind === 'quick') return title === world.home ? click(page, goal.item) : click(page, world.home);
      if (title === goal.section) {
        if (tabTitle !== goal.tab) return click(page, goal.tab);
        return expand(page, goal.group) ?? click(page, goal.item);
      }
      if (title !== world.home) return click(page, world.home);
      const link = page.find(goal.section, ['link', 'menuitem', 'button']);
      return link ? act(link) : click(page, 'Menu');
    };
  },
};
