/**
 * The generated apps as task programs, one per family: from a seed, the app's domain, widget
 * style and navigation, its world, and a goal in it (the instruction and the page's TASK.data);
 * its oracle is the family's. Recombining keeps an instance's app and draws another goal in it.
 */
import { hashString, Rng } from '../../../core/rng.ts';
import type { TaskProgram } from '../site.ts';
import { cart } from './families/cart.ts';
import { dialogs } from './families/dialogs.ts';
import { forms } from './families/forms.ts';
import { messaging } from './families/messaging.ts';
import { navigation } from './families/navigation.ts';
import { records } from './families/records.ts';
import { settings } from './families/settings.ts';
import { tables } from './families/tables.ts';
import { NAVIGATIONS, WIDGET_STYLES, type AppData, type AppFrame, type Family, type FamilyId } from './model.ts';
import { APP_WORDS, DOMAIN_IDS, DOMAINS } from './vocabulary.ts';

// Each family's world and goal types are its own; the table holds them as families of unknowns.
export const FAMILIES: Readonly<Record<FamilyId, Family<unknown, unknown>>> = {
  forms, tables, records, navigation, dialogs, settings, cart, messaging,
} as unknown as Record<FamilyId, Family<unknown, unknown>>;

function frameOf(data: Pick<AppData, 'domain'>, split: string): AppFrame {
  return { domain: DOMAINS[data.domain], split };
}

/** The program of one family. */
export function familyProgram(id: FamilyId): TaskProgram {
  const family = FAMILIES[id];
  return {
    generate(seed, split) {
      const rng = new Rng(`web:generated:${id}:${seed}`);
      const domain = rng.pick(DOMAIN_IDS);
      const app = { family: id, domain, style: rng.pick(WIDGET_STYLES), nav: rng.pick(NAVIGATIONS), name: `${rng.pick(APP_WORDS)} ${rng.pick(DOMAINS[domain].appKinds)}` };
      const frame = frameOf(app, split);
      const world = family.world(rng.fork('world'), frame);
      const { instruction, goal } = family.goal(rng.fork('goal'), frame, world);
      const data: AppData = { ...app, world, goal };
      return { instruction, data };
    },
    recombine(data, seed, split) {
      const app = data as AppData;
      const { instruction, goal } = family.goal(new Rng(`web:generated:${id}:recombine:${seed}`), frameOf(app, split), app.world);
      return { instruction, data: { ...app, goal } };
    },
    createOracle: (data) => family.oracle(data as AppData),
  };
}

/**
 * What makes one generated app differ from another (its family, domain, widget style,
 * navigation, name and world; not the goal in it), as 64 bits in hexadecimal.
 */
export function appDigest(data: AppData): string {
  const { family, domain, style, nav, name, world } = data;
  const text = JSON.stringify({ family, domain, style, nav, name, world });
  return `${hashString(`a:${text}`).toString(16).padStart(8, '0')}${hashString(`b:${text}`).toString(16).padStart(8, '0')}`;
}
