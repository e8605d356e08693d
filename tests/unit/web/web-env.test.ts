/**
 * The web env on live pages in the system Chromium: the bundled suite's oracle, the driver's
 * reading of a page, and pages that misbehave (tests/unit/fixtures/web-reliability).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { runEpisode } from '../../../src/envs/episode.ts';
import { envSpec, registered } from '../../../src/envs/registry.ts';
import { webSiteEnvironment } from '../../../src/envs/web/index.ts';
import { Rng } from '../../../src/core/rng.ts';
import type { Task } from '../../../src/core/types.ts';
import { WebEnv, SiteError } from '../../../src/envs/web/env.ts';
import { closePageHosts, hostFor } from '../../../src/envs/web/hosts.ts';
import { loadSiteFolder } from '../../../src/envs/web/node/site-folder.ts';
import { parseSiteDefinition, siteTasks } from '../../../src/envs/web/site.ts';
import { shownElements } from '../../../src/envs/web/snapshot.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/web-reliability/', import.meta.url));
const EXAMPLE = fileURLToPath(new URL('../../../examples/sites/page-globals/', import.meta.url));
const site = parseSiteDefinition(JSON.parse(readFileSync(path.join(FIXTURES, 'site.json'), 'utf8')));
const tasks = siteTasks(site, 'train', {}, 'web');
const task = (id: string): Task => ({ ...(tasks.find((t) => t.id === `${id}:0`) as Task) });
/**
 * Short watchdogs, for the pages that do not load or answer in time, so that they cost the suite
 * little. The other tests get the usual ones: beside the rest of the suite a page that loads at once
 * on a quiet machine once took longer than 600 ms, and its episode ended before what the test asks.
 */
const SHORT = { loadMs: 600, callMs: 1500 };
/**
 * For a page that does not finish loading: its load watchdog short, its calls the usual patience, so
 * that what is read after the page's own 1.5 s of script is the page, not a call the loaded machine
 * timed out while the script still ran.
 */
const SLOW_LOAD = { loadMs: 600, callMs: 10_000 };
const env = (timeouts = { loadMs: 10_000, callMs: 5_000 }): WebEnv => new WebEnv('web', site, () => hostFor({ root: FIXTURES }, timeouts));
const idOf = (text: string, role: string, name: string): number => shownElements(text).find((e) => e.role === role && e.name === name)?.id as number;

afterAll(() => closePageHosts());

describe('the bundled suite', () => {
  it('its oracle wins a held-out instance of every task, through the admissible actions alone', async () => {
    const spec = envSpec('web');
    const test = spec.tasks('test');
    const firsts = [...new Map(test.map((t) => [(t.goal as { task: string }).task, t])).values()];
    expect(firsts.length).toBeGreaterThanOrEqual(13);
    const web = spec.createEnv();
    for (const t of firsts) {
      const record = await runEpisode(web, spec.createOracle(), t);
      expect(record.won, `${t.id}: ${record.steps.map((s) => s.result.info.explanation).join(' / ')}`).toBe(true);
      expect(record.invalidActions).toBe(0);
    }
  });
});

describe('an instance reads the same whatever ran before it in the tab', () => {
  it('numbers a reused page\'s elements afresh each episode', async () => {
    const spec = envSpec('web');
    const [first, second] = spec.tasks('test');
    const web = spec.createEnv();
    const alone = await web.reset(first as Task);
    await web.reset(second as Task);
    await web.step('click[#1]');
    expect((await web.reset(first as Task)).text).toBe(alone.text);
  });
});

describe('reading a page', () => {
  it('reads a page whose scripts replaced the builtins an answer could be built with', async () => {
    const web = env();
    const first = await web.reset(task('hostile-globals'));
    const lines = shownElements(first.text);
    expect(lines.filter((e) => e.name === 'Submit')).toHaveLength(2);
    expect(lines.find((e) => e.role === 'combobox')).toMatchObject({ name: 'Size', value: 'Small' });
    const second = lines.filter((e) => e.name === 'Submit')[1];
    expect(await web.step(`click[#${second?.id} Submit]`)).toMatchObject({ reward: 1, done: true });
  });

  it('tells same-named buttons apart by id, lists only what shows, and acts on the one named', async () => {
    const web = env();
    const first = await web.reset(task('twins'));
    const lines = shownElements(first.text);
    const submits = lines.filter((e) => e.name === 'Submit');
    expect(submits).toHaveLength(2);
    expect(submits[0]?.id).not.toBe(submits[1]?.id);
    expect(lines.find((e) => e.name === 'Locked')?.states).toContain('disabled');
    expect(lines.some((e) => e.name === 'Hidden' || e.name === 'Also hidden')).toBe(false);
    expect(lines.find((e) => e.role === 'combobox')).toMatchObject({ name: 'Size', value: 'Small' });
    expect(first.actions).toContain(`select[#${idOf(first.text, 'combobox', 'Size')} Size | Large]`);
    expect(first.actions.some((a) => a.includes('Locked'))).toBe(false);

    const note = idOf(first.text, 'textbox', 'Note');
    const typed = await web.step(`type[#${note} Note | hello there]`);
    expect(typed.info.valid).toBe(true);
    expect(shownElements(typed.observation.text).find((e) => e.id === note)?.value).toBe('hello there');
    const agree = idOf(first.text, 'checkbox', 'Agree');
    const checked = await web.step(`check[#${agree}]`);
    expect(shownElements(checked.observation.text).find((e) => e.id === agree)?.states).toContain('checked');

    const won = await web.step(`click[#${submits[1]?.id} Submit]`);
    expect(won).toMatchObject({ reward: 1, done: true, info: { valid: true, won: true } });
    await web.reset(task('twins'));
    const lost = await web.step(`click[#${submits[0]?.id}]`);
    // A new page: the ids restart, and the first Submit still only ends the episode.
    expect(lost).toMatchObject({ reward: 0, done: true, info: { won: false } });
  });

  it('caps a page of 100,000 elements and counts what it cut', async () => {
    // Building 100,000 elements takes the page seconds here: the cap is the point, not the speed.
    const web = env({ loadMs: 20_000, callMs: 20_000 });
    const first = await web.reset(task('huge'));
    const cut = /^cut: (\d+) more elements not shown$/m.exec(first.text);
    expect(Number(cut?.[1])).toBeGreaterThan(90_000);
    expect(shownElements(first.text).length).toBeLessThanOrEqual(150);
  });
});

describe('a page nobody looks at', () => {
  it('sees itself as a person\'s visible tab in a minimized window: animation frames, CSS transitions and timers run, the window keeps its size', async () => {
    // The Node host minimizes every tab's window (no frame is painted or composited), which must
    // not change what page scripts and the driver see.
    const tab = await (await hostFor({ root: FIXTURES }, { loadMs: 2000, callMs: 3000 })).openTab();
    try {
      await tab.load('twins.html');
      expect(await tab.evaluate(`(async () => ({
        visibility: document.visibilityState,
        hidden: document.hidden,
        frame: await new Promise((done) => { requestAnimationFrame(() => done('ran')); setTimeout(() => done('did not run in 1 s'), 1000); }),
        timer: await new Promise((done) => { const started = performance.now(); setTimeout(() => done(performance.now() - started < 500), 10); }),
        transition: await new Promise((done) => {
          const box = document.body.appendChild(document.createElement('div'));
          box.style.cssText = 'width: 10px; height: 10px; opacity: 1; transition: opacity 50ms linear';
          box.getBoundingClientRect();
          box.addEventListener('transitionend', () => done('ended'));
          setTimeout(() => done('did not end in 1 s'), 1000);
          box.style.opacity = '0';
        }),
        size: [innerWidth, innerHeight],
      }))()`)).toEqual({ visibility: 'visible', hidden: false, frame: 'ran', timer: true, transition: 'ended', size: [1280, 720] });
    } finally {
      await tab.close();
    }
  });
});

describe('pages that misbehave', () => {
  it('a page that throws while it loads is still played', async () => {
    const web = env();
    const first = await web.reset(task('throws'));
    const result = await web.step(`click[#${idOf(first.text, 'button', 'Finish')}]`);
    expect(result).toMatchObject({ reward: 1, done: true });
  });

  it('a page that does not finish loading in time is read as it stands', async () => {
    const web = env(SLOW_LOAD);
    const first = await web.reset(task('slow-load'));
    expect(first.text).toContain('Finish');
  });

  it('a start hook that fails on a page still loading ends that episode with the page\'s error, not the run', async () => {
    const web = env(SLOW_LOAD);
    const first = await web.reset(task('slow-start'));
    expect(first.actions).toEqual(['wait']);
    expect(first.text).toMatch(/^error: slow-load\.html did not finish loading in 0\.6 s, and then the start hook threw: "the page is not set up yet"$/m);
    const ended = await web.step('wait');
    expect(ended.done).toBe(true);
    // The env goes on with the next task.
    expect((await web.reset(task('twins'))).text).toContain('url: /twins.html');
  });

  it('a link to another origin is refused and the page stays; go back returns from a page of the site', async () => {
    const web = env();
    const first = await web.reset(task('leave'));
    const away = await web.step(`click[#${idOf(first.text, 'link', 'Another site')}]`);
    expect(away.info).toMatchObject({ valid: true, refused: true });
    expect(away.observation.text).toContain('url: /leave.html');
    expect(away.observation.actions).not.toContain('go back');
    const twins = await web.step(`click[#${idOf(away.observation.text, 'link', 'Twins')}]`);
    expect(twins.observation.text).toContain('url: /twins.html');
    expect(twins.observation.actions).toContain('go back');
    const back = await web.step('go back');
    expect(back.observation.text).toContain('url: /leave.html');
  });

  it('answers alert, confirm and prompt and shows what they said', async () => {
    const web = env();
    const first = await web.reset(task('dialogs'));
    const alerted = await web.step(`click[#${idOf(first.text, 'button', 'Alert')}]`);
    expect(alerted.observation.text).toContain('dialog: alert: Saved!');
    const confirmed = await web.step(`click[#${idOf(first.text, 'button', 'Confirm')}]`);
    expect(confirmed).toMatchObject({ reward: 1, done: true });
  });

  it('a page that spins forever ends the episode with an error, and the env recovers', async () => {
    const web = env(SHORT);
    const first = await web.reset(task('loop'));
    const stuck = await web.step(`click[#${idOf(first.text, 'button', 'Spin')}]`);
    expect(stuck.done).toBe(true);
    expect(String(stuck.info.error)).toMatch(/did not answer/);
    const again = await web.reset(task('loop'));
    expect(again.text).toContain('Stop');
    expect((await web.step(`click[#${idOf(again.text, 'button', 'Stop')}]`)).done).toBe(true);
  });

  it('the env of a site takes the page watchdogs it is given in place of the defaults', async () => {
    const spec = registered(webSiteEnvironment(site, { root: FIXTURES }));
    const web = spec.createEnv({ pageTimeouts: { loadMs: 10_000, callMs: 700 } });
    try {
      const first = await web.reset(task('loop'));
      const stuck = await web.step(`click[#${idOf(first.text, 'button', 'Spin')}]`);
      expect(String(stuck.info.error)).toContain('did not answer in 0.7 s');
    } finally {
      await web.close?.();
    }
  });

  it('an element that went away between observation and action is an invalid action', async () => {
    const web = env();
    // The button goes 3 s after the page loads: after the first reading even beside the whole suite
    // (at 0.3 s it was once gone before it was read), and before the click 4 s on.
    const first = await web.reset(task('vanish'));
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const result = await web.step(`click[#${idOf(first.text, 'button', 'Soon gone')}]`);
    expect(result).toMatchObject({ reward: 0, done: false, info: { valid: false } });
    expect(result.info.explanation).toMatch(/no longer on the page/);
    expect(result.observation.text).not.toContain('Soon gone');
  });

  it('a site\'s own mistakes name the task and the hook', async () => {
    const web = env();
    const bad = await web.reset(task('bad-reward')).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(SiteError);
    expect(String(bad)).toMatch(/task "bad-reward": the reward hook gave "lots", not a number/);
    // NaN crosses from the page as NaN (JSON alone would make it null, read as no reward).
    expect(String(await web.reset(task('nan-reward')).catch((e: unknown) => e))).toMatch(/task "nan-reward": the reward hook gave NaN, not a number/);
    // An object that cannot cross whole (window: cycles, DOM nodes) is named, not a crash of the run.
    expect(String(await web.reset(task('window-reward')).catch((e: unknown) => e))).toMatch(/task "window-reward": the reward hook gave "\[object Window\]", not a number/);
    const first = await web.reset(task('throwing-hook')).catch((e: unknown) => e);
    expect(String(first)).toMatch(/task "throwing-hook": the done hook threw/);
    expect(String(await web.reset(task('missing')).catch((e: unknown) => e))).toMatch(/task "missing": missing\.html answered 404/);
    expect(() => loadSiteFolder(FIXTURES)).toThrow(/task "missing": the page missing\.html is not in/);
  });

  it('a reward that breaks what site.json declares of it is the site\'s mistake, named', async () => {
    const typeHalf = async (web: WebEnv): Promise<unknown> => {
      const first = await web.reset(task('typed-reward'));
      return web.step(`type[#${idOf(first.text, 'textbox', 'Note')} Note | 0.5]`).catch((e: unknown) => e);
    };
    // Undeclared, a reward of 0.5 before the end is the page's to pay.
    expect(await typeHalf(env())).toMatchObject({ reward: 0.5, done: false });
    const atEnd = new WebEnv('web', { ...site, rewardsAtEnd: true }, () => hostFor({ root: FIXTURES }));
    expect(String(await typeHalf(atEnd))).toMatch(/task "typed-reward": the reward hook gave 0\.5 before the episode was over, but site\.json declares "rewardsAtEnd"/);
    const binary = new WebEnv('web', { ...site, binaryReward: true }, () => hostFor({ root: FIXTURES }));
    expect(String(await typeHalf(binary))).toMatch(/task "typed-reward": the reward hook gave 0\.5, but site\.json declares "binaryReward"/);
    // Kept, both declarations let the task be won.
    const both = new WebEnv('web', { ...site, rewardsAtEnd: true, binaryReward: true }, () => hostFor({ root: FIXTURES }));
    const first = await both.reset(task('typed-reward'));
    const submit = shownElements(first.text).filter((e) => e.role === 'button' && e.name === 'Submit')[1]?.id as number;
    expect(await both.step(`click[#${submit}]`)).toMatchObject({ reward: 1, done: true, info: { won: true } });
  });

  it('1,000 malformed actions never throw and change nothing', async () => {
    const web = env();
    const first = await web.reset(task('twins'));
    const rng = new Rng('fuzz');
    let steps = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.constantFrom('click[#999]', 'type[#1 | ...]', 'select[#1 | nothing]', 'go back', 'click[#-1]', 'press[#1]')), async (action) => {
        const result = await web.step(action);
        steps++;
        if (result.info.valid) return;
        expect(result.reward).toBe(0);
        expect(result.observation.text).toBe(first.text);
      }),
      { numRuns: 1000, seed: rng.int(1 << 30) },
    );
    expect(steps).toBe(1000);
  });
});

describe('a site nobody here wrote', () => {
  it('runs from its site.json alone: instructions and rewards come from page globals', async () => {
    const { environment } = loadSiteFolder(EXAMPLE);
    const web = environment.createEnv();
    const [t] = environment.tasks('test');
    const first = await web.reset({ ...(t as Task) });
    expect(first.text).toMatch(/^instruction: Click the \w+ button\.$/m);
    const colour = /Click the (\w+) button/.exec(first.text)?.[1] as string;
    const result = await web.step(`click[#${idOf(first.text, 'button', colour)}]`);
    expect(result).toMatchObject({ reward: 1, done: true, info: { won: true } });
  });
});
