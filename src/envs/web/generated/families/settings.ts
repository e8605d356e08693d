/**
 * Settings and preferences: groups of switches, choices, radios and text fields (common ones and
 * the domain's), shown on one page, on tabs or in sections that open; saved by a Save button or
 * as each changes. The goal changes one to five of them; the saved settings must be exactly the
 * goal's (public/web/generated/families/settings.js).
 */
import { choose, click, expand, fill, Page, pickRadio, setFlag } from '../oracle-tools.ts';
import { people, type Family } from '../model.ts';
import { COMMON_CHOICES, COMMON_SWITCHES } from '../vocabulary.ts';

export type Setting =
  | { label: string; kind: 'switch'; value: boolean }
  | { label: string; kind: 'choice' | 'radio'; options: string[]; value: string }
  | { label: string; kind: 'text'; value: string };
export interface SettingsWorld {
  groups: { title: string; settings: Setting[] }[];
  layout: 'page' | 'tabs' | 'sections';
  /** Saved by a Save button, or as each setting changes. */
  save: 'button' | 'auto';
}
export interface SettingsGoal {
  values: Record<string, string | boolean>;
}

const THEME = { label: 'Theme', options: ['Light', 'Dark', 'System'] };

export const settings: Family<SettingsWorld, SettingsGoal> = {
  id: 'settings',
  world(rng, frame) {
    const { domain } = frame;
    const pool: Setting[] = [
      ...COMMON_SWITCHES.map((label) => ({ label, kind: 'switch' as const, value: rng.chance(0.5) })),
      ...domain.switches.map((label) => ({ label, kind: 'switch' as const, value: rng.chance(0.5) })),
      ...[...COMMON_CHOICES, ...domain.choices].map((c) => ({ label: c.label, kind: 'choice' as const, options: [...c.options], value: rng.pick(c.options) })),
      { label: THEME.label, kind: 'radio', options: THEME.options, value: rng.pick(THEME.options) },
      { label: 'Display name', kind: 'text', value: people(rng, frame.split, 1)[0] as string },
    ];
    const chosen = rng.sample(pool, 4 + rng.int(6));
    const titles = rng.sample(['General', 'Notifications', 'Privacy', 'Display', 'Account', domain.plural], 1 + rng.int(3));
    const groups = titles.map((title) => ({ title, settings: [] as Setting[] }));
    chosen.forEach((setting, i) => groups[i % groups.length]?.settings.push(setting));
    return { groups, layout: groups.length === 1 ? 'page' : rng.pick(['page', 'tabs', 'sections'] as const), save: rng.chance(0.35) ? 'auto' : 'button' };
  },
  goal(rng, frame, world) {
    const all = world.groups.flatMap((g) => g.settings);
    const changed = rng.sample(all, 1 + rng.int(Math.min(5, all.length)));
    const values: Record<string, string | boolean> = {};
    const asks: string[] = [];
    for (const setting of changed) {
      if (setting.kind === 'switch') {
        values[setting.label] = !setting.value;
        asks.push(`turn ${setting.value ? 'off' : 'on'} ${setting.label}`);
      } else if (setting.kind === 'text') {
        const name = people(rng, frame.split, 2).find((n) => n !== setting.value) as string;
        values[setting.label] = name;
        asks.push(`set ${setting.label} to "${name}"`);
      } else {
        const value = rng.pick(setting.options.filter((o) => o !== setting.value));
        values[setting.label] = value;
        asks.push(`set ${setting.label} to ${value}`);
      }
    }
    const save = world.save === 'button' ? ', then save' : '';
    return { instruction: `In the settings, ${asks.join(', ')}${save}; change nothing else.`, goal: { values } };
  },
  oracle(data) {
    const { world, goal } = data;
    return (observation) => {
      const page = new Page(observation);
      const headings = page.headings();
      for (const group of world.groups) {
        for (const setting of group.settings) {
          const want = goal.values[setting.label];
          if (want === undefined) continue;
          if (world.layout === 'tabs' && headings[1] !== group.title) {
            // A setting on another tab: done already if the goal's value shows in the saved summary.
            if (isSaved(page, setting.label, want)) continue;
            return click(page, group.title);
          }
          if (world.layout === 'sections') {
            if (isSaved(page, setting.label, want)) continue;
            const opened = expand(page, group.title);
            if (opened !== null) return opened;
          }
          const next = setting.kind === 'switch' ? setFlag(page, setting.label, want === true)
            : setting.kind === 'choice' ? choose(page, setting.label, want as string)
              : setting.kind === 'radio' ? pickRadio(page, want as string)
                : fill(page, setting.label, want as string);
          if (next !== null) return next;
        }
      }
      return click(page, 'Save changes');
    };
  },
};

/** The page lists every changed setting's value under "Unsaved changes" or "Changes": the goal's value is there. */
function isSaved(page: Page, label: string, want: string | boolean): boolean {
  return page.has(`${label}: ${typeof want === 'boolean' ? (want ? 'on' : 'off') : want}`);
}
