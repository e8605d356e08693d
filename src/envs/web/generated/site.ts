/**
 * The generated apps as sites of the web env: the pretraining site holds the families models may
 * learn from; the held-out site holds the families kept for evaluation, which no pretraining
 * sees. Both are served from one page runtime (public/web/generated/), whose start hook is told
 * which families its site holds and refuses any other.
 */
import { parseSiteDefinition, type SiteDefinition, type TaskProgram } from '../site.ts';
import { FAMILY_IDS, type FamilyId } from './model.ts';
import { familyProgram } from './programs.ts';

/**
 * Carts and messaging are held out: they are the kinds of app the bundled suite judges too (its
 * shop and inbox), and their flows are the longest (every cart takes the oracle at least nine steps,
 * a message four to six), so they test what pretraining on the other families carried over.
 */
export const HELD_OUT_FAMILIES: readonly FamilyId[] = ['cart', 'messaging'];
export const PRETRAINING_FAMILIES: readonly FamilyId[] = FAMILY_IDS.filter((f) => !HELD_OUT_FAMILIES.includes(f));

export type FamilySelection = 'pretraining' | 'held-out';

/** The folder under public/web/ that serves every generated site. */
export const GENERATED_PAGES = 'generated';

const SITE_NAMES: Readonly<Record<FamilySelection, string>> = { pretraining: 'generated', 'held-out': 'generated-held-out' };

/** How hard a family's tasks are (read by the curriculum), from their usual number of oracle steps. */
const DIFFICULTY: Readonly<Record<FamilyId, number>> = { forms: 3, tables: 3, records: 4, navigation: 3, dialogs: 2, settings: 3, cart: 5, messaging: 4 };

export interface GeneratedSite {
  site: SiteDefinition;
  programs: Readonly<Record<string, TaskProgram>>;
  families: readonly FamilyId[];
}

/** The site of a selection of families: one task per family, its instances drawn by seed. */
export function generatedSite(selection: FamilySelection): GeneratedSite {
  const families = selection === 'pretraining' ? PRETRAINING_FAMILIES : HELD_OUT_FAMILIES;
  const site = parseSiteDefinition({
    name: SITE_NAMES[selection],
    description: `Generated web apps (${families.join(', ')}), ${selection === 'pretraining' ? 'for pretraining' : 'held out of pretraining, for evaluation'}: each seed draws a domain, a widget style, a way of navigating and a goal.`,
    tasks: families.map((family) => ({ id: family, page: 'index.html', difficulty: DIFFICULTY[family], app: true })),
    // Train and test instances draw their people and things from disjoint halves of every pool.
    seeds: { train: [0, 5_000], test: [1_000_000, 1_000_200] },
    testSplit: 'test',
    // The longest flows (two products bought with dropdowns of divs) take the oracle 16 steps.
    maxSteps: 20,
    reusePage: true,
    rewardsAtEnd: true,
    binaryReward: true,
    hooks: { start: `window.task.start(SEED, TASK, ${JSON.stringify(families)})`, reward: 'window.task.reward', done: 'window.task.done' },
  }, `src/envs/web/generated/site.ts (${selection})`);
  return { site, programs: Object.fromEntries(families.map((f) => [f, familyProgram(f)])), families };
}
