/**
 * The generated web apps as data (no browser): seeded and deterministic, thousands of distinct
 * apps over every family, domain, widget style and navigation, train and test entities apart, and
 * the pretraining selection shut off from the held-out families, the bundled suite and the
 * foreign-style corpus.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../../src/core/rng.ts';
import type { Task } from '../../../../src/core/types.ts';
import { isWebGoal, type WebGoal } from '../../../../src/envs/web/site.ts';
import { SUITE_SITE } from '../../../../src/envs/web/suite/site.ts';
import {
  appDigest, DOMAIN_IDS, FAMILY_IDS, familyProgram, generatedSite, generatedSites, HELD_OUT_FAMILIES, NAVIGATIONS, PRETRAINING_FAMILIES, WIDGET_STYLES, type AppData, type FamilyId,
} from '../../../../src/envs/web/generated/index.ts';
import { DOMAINS, FIRST_NAMES } from '../../../../src/envs/web/generated/vocabulary.ts';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const dataOf = (task: Task): AppData => (task.goal as WebGoal).data as AppData;

describe('generation', () => {
  it('is a function of the family, the seed and the split', () => {
    for (const family of FAMILY_IDS) {
      const program = familyProgram(family);
      for (const seed of [0, 7, 4_999]) {
        expect(program.generate(seed, 'train')).toEqual(program.generate(seed, 'train'));
        expect(familyProgram(family).generate(seed, 'test')).toEqual(program.generate(seed, 'test'));
      }
      expect(program.generate(1, 'train')).not.toEqual(program.generate(2, 'train'));
    }
  });

  it('makes thousands of distinct apps, over every family, domain, widget style and navigation', () => {
    const digests = new Set<string>();
    const seen = { family: new Set<string>(), domain: new Set<string>(), style: new Set<string>(), nav: new Set<string>(), cell: new Set<string>() };
    let made = 0;
    for (const family of FAMILY_IDS) {
      const program = familyProgram(family);
      for (let seed = 0; seed < 600; seed++) {
        const data = program.generate(seed, 'train').data as AppData;
        made++;
        digests.add(appDigest(data));
        seen.family.add(data.family);
        seen.domain.add(data.domain);
        seen.style.add(data.style);
        seen.nav.add(data.nav);
        seen.cell.add(`${data.family}/${data.domain}/${data.style}`);
      }
    }
    expect(made).toBe(4_800);
    // Nearly every seed is an app of its own (a site: its family, domain, style, navigation, name and world).
    expect(digests.size).toBeGreaterThan(4_700);
    expect([...seen.family].sort()).toEqual([...FAMILY_IDS].sort());
    expect([...seen.domain].sort()).toEqual([...DOMAIN_IDS].sort());
    expect(DOMAIN_IDS.length).toBeGreaterThanOrEqual(6);
    expect([...seen.style].sort()).toEqual([...WIDGET_STYLES].sort());
    expect([...seen.nav].sort()).toEqual([...NAVIGATIONS].sort());
    expect(seen.cell.size).toBe(FAMILY_IDS.length * DOMAIN_IDS.length * WIDGET_STYLES.length);
  });

  it('recombines an instance into another goal in the same app', () => {
    for (const family of FAMILY_IDS) {
      const program = familyProgram(family);
      const parent = program.generate(3, 'train');
      const goals = new Set<string>();
      for (let seed = 0; seed < 8; seed++) {
        const child = program.recombine?.(parent.data, seed, 'train');
        expect(child).toBeDefined();
        expect(appDigest(child?.data as AppData)).toBe(appDigest(parent.data as AppData));
        goals.add(JSON.stringify((child?.data as AppData).goal));
      }
      expect(goals.size, family).toBeGreaterThan(1);
    }
  });
});

/** The people and things an instance is about: its records' keys, products, contacts, and names typed into it. */
function entities(data: AppData): string[] {
  const text = JSON.stringify({ world: data.world, goal: data.goal });
  const found: string[] = [];
  // Every person's full name, wherever it is (a record, a sender, a value to type).
  const first = FIRST_NAMES.join('|');
  for (const match of text.matchAll(new RegExp(`\\b(${first}) [A-Z][a-z]+\\b`, 'g'))) found.push(match[0]);
  const world = data.world as Record<string, unknown>;
  if (data.domain === 'library') {
    const titles = DOMAINS.library.keys as readonly string[];
    found.push(...titles.filter((title) => text.includes(`"${title}`)));
  }
  if (data.family === 'cart') found.push(...(world.products as { name: string }[]).map((p) => p.name));
  return found;
}

describe('train and test', () => {
  it('never share an entity: their people, things and products come from disjoint halves of every pool', () => {
    const bySplit = { train: new Set<string>(), test: new Set<string>() };
    for (const family of FAMILY_IDS) {
      const program = familyProgram(family);
      for (let seed = 0; seed < 150; seed++) {
        for (const split of ['train', 'test'] as const) for (const entity of entities(program.generate(seed, split).data as AppData)) bySplit[split].add(entity.split(' (')[0] as string);
      }
    }
    expect(bySplit.train.size).toBeGreaterThan(300);
    expect(bySplit.test.size).toBeGreaterThan(300);
    expect([...bySplit.train].filter((e) => bySplit.test.has(e))).toEqual([]);
    const firstNames = (names: Set<string>): Set<string> => new Set([...names].map((n) => n.split(' ')[0] as string).filter((n) => FIRST_NAMES.includes(n)));
    const trainFirst = firstNames(bySplit.train);
    expect([...firstNames(bySplit.test)].filter((n) => trainFirst.has(n))).toEqual([]);
  });
});

describe('the pretraining selection', () => {
  const pretraining = generatedSites({ families: 'pretraining' });
  const heldOut = generatedSites({ families: 'held-out' });

  it('holds at least six families and leaves at least two out, carts and messaging among them', () => {
    expect(FAMILY_IDS.length).toBeGreaterThanOrEqual(8);
    expect(PRETRAINING_FAMILIES.length).toBeGreaterThanOrEqual(6);
    expect(HELD_OUT_FAMILIES).toEqual(['cart', 'messaging']);
    expect(PRETRAINING_FAMILIES.filter((f) => HELD_OUT_FAMILIES.includes(f))).toEqual([]);
    expect([...PRETRAINING_FAMILIES, ...HELD_OUT_FAMILIES].sort()).toEqual([...FAMILY_IDS].sort());
  });

  it('reaches no held-out family, no suite task and no foreign-style site in any split, nor through the curriculum\'s variations', () => {
    const suiteTasks = new Set(SUITE_SITE.tasks.map((t) => t.id));
    const foreignSites = new Set(readdirSync(path.join(ROOT, 'examples/foreign-sites'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => (JSON.parse(readFileSync(path.join(ROOT, 'examples/foreign-sites', entry.name, 'site.json'), 'utf8')) as { name: string }).name));
    expect(foreignSites.size).toBeGreaterThanOrEqual(6);
    const rng = new Rng('pretraining-reach');
    for (const split of pretraining.splits.map((s) => s.name)) {
      const tasks = pretraining.tasks(split);
      expect(tasks.length).toBe(pretraining.splits.find((s) => s.name === split)?.size);
      const varied = tasks.slice(0, 300).map((t) => pretraining.variation.vary(t, tasks, 'harder', rng)).filter((t): t is Task => t !== null);
      const strays = [...tasks, ...varied].filter((task) => {
        const goal = task.goal as WebGoal;
        const family = dataOf(task).family as FamilyId;
        return !PRETRAINING_FAMILIES.includes(family) || goal.task !== family || goal.site !== 'generated' || suiteTasks.has(goal.task) || foreignSites.has(goal.site);
      });
      // The curriculum varies train tasks only (a held-out split's are never varied).
      expect(varied.length).toBe(split === pretraining.testSplit ? 0 : 300);
      expect(strays.map((t) => t.id)).toEqual([]);
    }
    expect(() => pretraining.createOracle().reset(heldOut.tasks('test')[0] as Task, { text: '', actions: [] })).toThrow(/no oracle for task "cart"/);
  });

  it('its env refuses a held-out task, a suite task and a foreign site\'s task before any page opens', async () => {
    const env = pretraining.createEnv();
    const heldOutTask = heldOut.tasks('test').find((t) => dataOf(t).family === 'messaging') as Task;
    await expect(env.reset(heldOutTask)).rejects.toThrow(/not a task of the site "generated"/);
    // The same task passed off as the pretraining site's.
    await expect(env.reset({ ...heldOutTask, goal: { ...(heldOutTask.goal as WebGoal), site: 'generated' } })).rejects.toThrow(/has no task "messaging"/);
    const suite: Task = { id: 'shop-buy:0', env: 'web', instruction: 'Buy it.', difficulty: 1, origin: 'seed', goal: { site: 'suite', task: 'shop-buy', seed: 0, split: 'train' } };
    await expect(env.reset(suite)).rejects.toThrow(/not a task of the site "generated"/);
    const foreign: Task = { ...suite, id: 'jquery-spans/x:0', goal: { site: 'jquery-spans', task: 'x', seed: 0, split: 'train' } };
    expect(isWebGoal(foreign.goal)).toBe(true);
    await expect(env.reset(foreign)).rejects.toThrow(/not a task of the site "generated"/);
    await env.close?.();
  });

  it('is served from public/web/generated alone, whose pages name no other site\'s files', () => {
    const { site } = generatedSite('pretraining');
    expect(site.tasks.every((t) => t.page === 'index.html')).toBe(true);
    expect(site.hooks.start).toContain(JSON.stringify(PRETRAINING_FAMILIES));
    const folder = path.join(ROOT, 'public/web/generated');
    const files = readdirSync(folder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    expect(files.length).toBeGreaterThan(8);
    for (const file of files) {
      const text = readFileSync(path.join(file.parentPath, file.name), 'utf8');
      expect(text, file.name).not.toMatch(/\.\.\/|\/suite\/|foreign-sites|examples\//);
    }
  });
});

describe('the held-out selection', () => {
  it('holds only the held-out families, on a site of its own', () => {
    const heldOut = generatedSites({ families: 'held-out' });
    const families = new Set(heldOut.tasks('test').map((t) => dataOf(t).family));
    expect([...families].sort()).toEqual([...HELD_OUT_FAMILIES].sort());
    expect(new Set(heldOut.tasks('test').map((t) => (t.goal as WebGoal).site))).toEqual(new Set(['generated-held-out']));
  });
});
