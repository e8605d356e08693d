import { describe, expect, it } from 'vitest';
import { expandActions } from '../../../src/core/queries.ts';
import { parseState } from '../../../src/core/state.ts';
import { admitPageAction, pageAction, parsePageAction, withoutActionId, withoutElementId } from '../../../src/envs/web/actions.ts';
import { proposeTexts } from '../../../src/envs/web/queries.ts';
import { chooseSiteTasks, parseSiteDefinition, siteTasks } from '../../../src/envs/web/site.ts';
import { admissiblePageActions, shownElements, snapshotText, type PageSnapshot } from '../../../src/envs/web/snapshot.ts';
import { siteOptions } from '../../../src/jobs/site.ts';

const SNAPSHOT: PageSnapshot = {
  title: 'Sign in',
  path: '/login.html',
  cut: 0,
  elements: [
    { role: 'heading', name: 'Sign in', states: [] },
    { id: 3, role: 'textbox', name: 'Username', value: 'alice', states: ['focused'] },
    { id: 4, role: 'checkbox', name: 'Remember me', states: ['not checked'] },
    { id: 5, role: 'combobox', name: 'Size', value: 'Small', options: ['Small', 'Large'], states: [] },
    { id: 6, role: 'button', name: 'Sign in', states: [] },
    { id: 7, role: 'button', name: 'Sign in', states: ['disabled'] },
  ],
};

describe('web actions', () => {
  it('parses every verb by id, the name for the reader only', () => {
    expect(parsePageAction('click[#17 Submit]')).toEqual({ verb: 'click', id: 17, name: 'Submit' });
    expect(parsePageAction('click[#17]')).toEqual({ verb: 'click', id: 17, name: '' });
    expect(parsePageAction('type[#9 Email | a | b]')).toEqual({ verb: 'type', id: 9, name: 'Email', value: 'a | b' });
    expect(parsePageAction('select[#11 Country | France]')).toEqual({ verb: 'select', id: 11, name: 'Country', value: 'France' });
    expect(parsePageAction('  go back ')).toEqual({ verb: 'back' });
  });

  it('refuses what is not a page action', () => {
    for (const bad of ['', 'click[17]', 'click[#17x]', 'type[#9 Email]', 'type[#9 Email | ...]', 'select[#1 A | ]', 'click[#1 | x]', 'hover[#1]', 'click[#]', 'x'.repeat(5000)]) {
      expect(parsePageAction(bad), bad).toBeNull();
    }
  });

  it('admits an action by id and verb, filling a type template', () => {
    const actions = admissiblePageActions(SNAPSHOT, true);
    expect(actions).toEqual([
      'type[#3 Username | ...]', 'press[#3 Username | Enter]', 'check[#4 Remember me]', 'select[#5 Size | Large]', 'click[#6 Sign in]', 'go back',
    ]);
    expect(admitPageAction('click[#6]', actions)).toBe('click[#6 Sign in]');
    expect(admitPageAction('click[#7 Sign in]', actions)).toBeNull(); // disabled: no action
    expect(admitPageAction('type[#3 | bob]', actions)).toBe('type[#3 Username | bob]');
    expect(admitPageAction('select[#5 Size | large]', actions)).toBe('select[#5 Size | Large]');
    expect(admitPageAction('select[#5 Size | Medium]', actions)).toBeNull();
    expect(admitPageAction('uncheck[#4 Remember me]', actions)).toBeNull();
    expect(admitPageAction(42, actions)).toBeNull();
    expect(pageAction('type', 3, 'Username', 'bob')).toBe('type[#3 Username | bob]');
  });

  it('reads an element and an action without the id the page numbered it by, and nothing else', () => {
    const lines = parseState(snapshotText(SNAPSHOT, { instruction: 'log in', canGoBack: false })).elements.map((e) => withoutElementId(e.text));
    expect(lines).toContain('Username | value: alice | focused');
    expect(lines).toContain('Sign in');
    expect(withoutElementId('#12')).toBe('');
    expect(withoutElementId('Order #12 | shipped')).toBe('Order #12 | shipped');
    expect(withoutElementId('#12x Save')).toBe('#12x Save');
    expect(withoutActionId('click[#22 Send]')).toBe('click[Send]');
    expect(withoutActionId('type[#21 Message | Room #4 at noon]')).toBe('type[Message | Room #4 at noon]');
    expect(withoutActionId('click[#0]')).toBe('click[]');
    for (const other of ['go back', 'wait', 'search[#5 shoes]', 'take mug 1 from cabinet 2']) expect(withoutActionId(other)).toBe(other);
  });

  it('renders the state with ids first and reads it back', () => {
    const text = snapshotText(SNAPSHOT, { instruction: 'log in', canGoBack: false });
    expect(text.split('\n')).toEqual([
      'title: Sign in', 'url: /login.html', 'instruction: log in',
      '[1] heading: Sign in', '[2] textbox: #3 Username | value: alice | focused', '[3] checkbox: #4 Remember me | not checked',
      '[4] combobox: #5 Size | value: Small', '[5] button: #6 Sign in', '[6] button: #7 Sign in | disabled',
    ]);
    const shown = shownElements(text);
    expect(shown[1]).toEqual({ role: 'textbox', id: 3, name: 'Username', value: 'alice', states: ['focused'] });
    expect(shown[0]).toEqual({ role: 'heading', name: 'Sign in', states: [] });
  });

  it('fills every template with the texts proposed from the instruction', () => {
    expect(proposeTexts('Log in as "bruno" with the password "maple58", then write to Ana Lopez at ana@x.org on 2026-01-02 for 12.5 dollars.'))
      .toEqual(['bruno', 'maple58', 'ana@x.org', '2026-01-02', 'Ana Lopez', '2026', '01', '02', '12.5']);
    expect(expandActions({ text: '', actions: ['type[#3 Name | ...]', 'click[#4 Go]'] }, 'Enter "kiwi".', proposeTexts)).toEqual(['type[#3 Name | kiwi]', 'click[#4 Go]']);
  });

  it('proposes a card number whole and its expiry as written', () => {
    expect(proposeTexts('Pay with the card 5555 5555 5555 4444, expiry 05/26, in the name of Ana Lopez.'))
      .toEqual(['05/26', '5555 5555 5555 4444', 'Ana Lopez', '5555', '4444', '05', '26']);
    expect(proposeTexts('Call 0161-496-0000 by 11/2027.').slice(0, 2)).toEqual(['11/2027', '0161-496-0000']);
  });

  it('proposes a street address whole, and a form\'s every quoted value and its e-mail', () => {
    expect(proposeTexts('Buy the "Walnut book stand" (colour: Green), shipped to Quinn Weber at 18 Harbour Road by express delivery.'))
      .toEqual(['Walnut book stand', '18 Harbour Road', 'Walnut', 'Green', 'Quinn Weber', 'Harbour Road', '18']);
    const form = 'Fill in the "Request a refund" form: Cabin "First", Start date "2028-03-08", Hotel "Grand Palms", Destination "Kyoto", tick "Travel insurance", Priority "High", Nights "8", E-mail "alice.kowalski@example.org"; leave the rest empty, then confirm.';
    expect(proposeTexts(form)).toContain('alice.kowalski@example.org');
  });

  it('proposes the codes the page shows where the instruction gives nothing to type, and only there', () => {
    const page = [
      'title: Sign in',
      'path: /pages/code.html?seed=1004',
      '[1] text: Total $1,299.00 at 10:30, ref AB12-CD.',
      '[2] text: Your login code is 4061',
      '[3] textbox: #12 Code',
    ].join('\n');
    expect(proposeTexts('Enter the code we texted you.', page)).toEqual(['AB12-CD', '4061']);
    expect(expandActions({ text: page, actions: ['type[#12 Code | ...]'] }, 'Enter the code we texted you.', proposeTexts))
      .toEqual(['type[#12 Code | AB12-CD]', 'type[#12 Code | 4061]']);
    // Where the instruction names a value, the page's numbers would only crowd it out.
    expect(proposeTexts('Enter "kiwi".', page)).toEqual(['kiwi']);
    expect(proposeTexts('Enter the code.', 'prices 12.50 and 1,299, the year 2026 in prose')).toEqual(['2026']);
  });
});

describe('site.json', () => {
  const good = { name: 'mine', tasks: [{ id: 'a', page: 'a.html' }], seeds: { train: [0, 3], test: [3, 4] }, hooks: { reward: 'R', done: 'D' } };

  it('makes a task per task and seed, seed by seed', () => {
    const site = parseSiteDefinition({ ...good, tasks: [{ id: 'a', page: 'a.html' }, { id: 'b', page: 'b.html', difficulty: 3 }] });
    const tasks = siteTasks(site, 'train', {}, 'web');
    expect(tasks.map((t) => t.id)).toEqual(['a:0', 'b:0', 'a:1', 'b:1', 'a:2', 'b:2']);
    expect(tasks[1]).toMatchObject({ env: 'web', difficulty: 3, instruction: '', goal: { site: 'mine', task: 'b', seed: 0, split: 'train' } });
    expect(site.maxSteps).toBe(10);
    // What the reward hook promises is declared, never assumed: a dream over the site relies on it.
    expect(site).toMatchObject({ rewardsAtEnd: false, binaryReward: false });
  });

  it('names the task and the field that is wrong', () => {
    const bad: [unknown, RegExp][] = [
      [{ ...good, name: undefined }, /site\.json: name is required/],
      [{ ...good, tasks: [{ id: 'a' }] }, /task "a": page is required/],
      [{ ...good, tasks: [{ id: 'a', page: 'a.html', difficulty: 9 }] }, /task "a": difficulty/],
      [{ ...good, tasks: [{ id: 'a', page: 'a.html', hooks: { rewards: 'x' } }] }, /task "a": hooks\.rewards/],
      [{ ...good, hooks: { reward: 'R' } }, /task "a": no done hook/],
      [{ ...good, seeds: { train: [0, 5], test: [4, 6] } }, /"train" and "test" overlap/],
      [{ ...good, seeds: { train: [5, 5] } }, /seeds\.train must be \[from, to\]/],
      [{ ...good, tasks: [{ id: 'a', page: 'a.html' }, { id: 'a', page: 'b.html' }] }, /task "a" is listed twice/],
      [{ ...good, testSplit: 'valid' }, /testSplit "valid"/],
      [{ ...good, binaryReward: 'yes' }, /site\.json: binaryReward/],
      // Bounded before any instance is made: [0, 1e9] exhausted memory for a 3-episode run.
      [{ ...good, seeds: { train: [0, 1e9] } }, /seeds\.train may hold at most 100,000 seeds/],
      [{ ...good, tasks: Array.from({ length: 20 }, (_, i) => ({ id: `t${i}`, page: 'a.html' })), seeds: { train: [0, 60_000] } }, /seeds\.train makes 1,200,000 task instances \(60,000 seeds × 20 tasks\)/],
      // A split so named vanished from the parsed site, and every command then failed.
      [JSON.parse('{"name":"mine","tasks":[{"id":"a","page":"a.html"}],"seeds":{"constructor":[0,3]},"hooks":{"reward":"R","done":"D"}}'), /a split may not be called "constructor"/],
      [JSON.parse('{"name":"mine","tasks":[{"id":"a","page":"a.html"}],"seeds":{"__proto__":[0,3]},"hooks":{"reward":"R","done":"D"}}'), /a split may not be called "__proto__"/],
    ];
    for (const [json, message] of bad) expect(() => parseSiteDefinition(json), message.source).toThrow(message);
  });

  it('names the splits it has when asked for one it lacks, even one named like an object\'s own properties', () => {
    const site = parseSiteDefinition(good);
    for (const split of ['valid', 'toString', 'hasOwnProperty']) expect(() => siteTasks(site, split, {}, 'web'), split).toThrow(/has no split ".*"; use one of: train, test/);
  });
});

describe('--site and --tasks', () => {
  it('are taken out of any command\'s arguments', () => {
    expect(siteOptions(['--env', 'web', '--site', 'dir', '--tasks=a,b', '--json'])).toEqual({ rest: ['--env', 'web', '--json'], site: { dir: 'dir', tasks: ['a', 'b'] } });
    expect(siteOptions(['--env', 'shop'])).toEqual({ rest: ['--env', 'shop'], site: null });
    expect(() => siteOptions(['--site'])).toThrow(/--site needs a value/);
    // --tasks alone chooses tasks of the bundled suite; neither flag is for another env.
    expect(siteOptions(['--tasks', '@app', '--env', 'web'])).toEqual({ rest: ['--env', 'web'], site: { dir: null, tasks: ['@app'] } });
    // The experiments' name for it, where their own --tasks is a count.
    expect(siteOptions(['--tasks', '60', '--web-tasks=@app'], '--web-tasks')).toEqual({ rest: ['--tasks', '60'], site: { dir: null, tasks: ['@app'] } });
    expect(() => siteOptions(['--env', 'shop', '--tasks', '@app'])).toThrow(/--tasks is for --env web \(pages\); --env shop has no site/);
    expect(() => siteOptions(['--env=home', '--site', 'dir'])).toThrow(/--site is for --env web/);
  });

  it('--tasks keeps tasks by id or by group, in the site\'s order, with the same instances', async () => {
    const { SUITE_SITE } = await import('../../../src/envs/web/suite/site.ts');
    const { bundledSuiteEnvironment } = await import('../../../src/envs/web/index.ts');
    const site = parseSiteDefinition(SUITE_SITE);
    const apps = chooseSiteTasks(site, ['@app']).tasks.map((t) => t.id);
    expect(apps).toEqual(SUITE_SITE.tasks.filter((t) => 'app' in t && t.app).map((t) => t.id));
    expect(chooseSiteTasks(site, ['@widgets']).tasks.length + apps.length).toBe(SUITE_SITE.tasks.length);
    expect(chooseSiteTasks(site, ['shop-buy', 'click-button']).tasks.map((t) => t.id)).toEqual(['click-button', 'shop-buy']);
    expect(chooseSiteTasks(site, [])).toBe(site);
    expect(() => chooseSiteTasks(site, ['@app', 'nope', 'nada'])).toThrow(/has no task "nope", "nada"; it has click-button, .* \(or the groups @app, @widgets\)/);
    const widgetsOnly = { ...site, tasks: site.tasks.filter((t) => !t.app) };
    expect(() => chooseSiteTasks(widgetsOnly, ['@app'])).toThrow(/--tasks @app: the site "suite" has no task in that group/);
    // Every bundled page pays 1 or 0 once, at the end (public/web/suite/lib/task.js), and says so.
    expect(bundledSuiteEnvironment(['@app'])).toMatchObject({ rewardsAtEnd: true, binaryReward: true });
    // The chosen tasks' instances are the whole suite's, ids and instructions alike.
    const all = new Map(bundledSuiteEnvironment().tasks('test').map((t) => [t.id, t.instruction]));
    const chosen = bundledSuiteEnvironment(['@app']).tasks('test');
    expect(chosen).toHaveLength(apps.length * 30);
    for (const task of chosen) expect(all.get(task.id)).toBe(task.instruction);
  });

  it('a run\'s Tasks in the app make those tasks the web environment until the run puts the suite back', async () => {
    const { OpenedSite } = await import('../../../src/services/opened-site.ts');
    const { envSpec } = await import('../../../src/envs/registry.ts');
    const opened = new OpenedSite();
    const restore = opened.chooseTasks(['feed-like', 'inbox-star']);
    expect(new Set(envSpec('web').tasks('test').map((t) => t.id.split(':')[0]))).toEqual(new Set(['inbox-star', 'feed-like']));
    restore();
    expect(envSpec('web').tasks('test')).toHaveLength(900);
    expect(() => opened.chooseTasks(['feed-liek'])).toThrow(/^Tasks: the site "suite" has no task "feed-liek"/);
    expect(envSpec('web').tasks('test')).toHaveLength(900);
  });
});

describe('the bundled suite\'s instances', () => {
  it('keeps the people, subjects and products of test instances out of train instances', async () => {
    const { SUITE_PROGRAMS } = await import('../../../src/envs/web/suite/index.ts');
    const { SUITE_SITE } = await import('../../../src/envs/web/suite/site.ts');
    const apps = SUITE_SITE.tasks.filter((t) => 'app' in t && t.app).map((t) => t.id);
    expect(apps.length).toBeGreaterThanOrEqual(12);
    // Every capitalised name and quoted span an instruction mentions is one of its entities.
    const entities = (text: string): string[] => [...text.matchAll(/"([^"]+)"|\b([A-Z][a-z]+ [A-Z][a-z]+)\b|([\w.]+@[\w.]+)/g)].map((m) => (m[1] ?? m[2] ?? m[3]) as string);
    for (const id of apps) {
      const program = SUITE_PROGRAMS[id];
      const train = new Set(Array.from({ length: 300 }, (_, seed) => program?.generate(seed, 'train').instruction ?? '').flatMap(entities));
      for (let seed = 100_000; seed < 100_030; seed++) {
        const instruction = program?.generate(seed, 'test').instruction ?? '';
        const shared = entities(instruction).filter((e) => train.has(e) && !/^(Tips for|Question about|Thoughts on|Help with|I like)/.test(e));
        expect(shared, `${id}:${seed}: ${instruction}`).toEqual([]);
      }
    }
  });
});
