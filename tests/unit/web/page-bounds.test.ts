/**
 * What a page can do to a run, bounded (issue 60): a huge page is read within bounded time and
 * memory, a page that allocates in a loop is named out of memory, a redirect within the site is
 * followed as a navigation, a hook's or a hostile page's values are bounded in observations and
 * messages, and a site whose every episode fails stops the run. Site folders are made here.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runEpisode } from '../../../src/envs/episode.ts';
import { WebEnv } from '../../../src/envs/web/env.ts';
import { FailureStreak, MIN_FAILED_IN_A_ROW, SiteFailingError } from '../../../src/envs/web/failure-streak.ts';
import { closePageHosts, hostFor } from '../../../src/envs/web/hosts.ts';
import { parseSiteDefinition, siteTasks } from '../../../src/envs/web/site.ts';
import { shownElements } from '../../../src/envs/web/snapshot.ts';
import { PAGE_HEAP_MB } from '../../../src/platform/chromium.ts';
import type { Task } from '../../../src/core/types.ts';
import { WebRandom } from '../../../src/envs/web/agents.ts';
import { Rng } from '../../../src/core/rng.ts';

const folders: string[] = [];
afterAll(async () => {
  await closePageHosts();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const page = (title: string, body: string, head = ''): string => `<!doctype html><html lang="en"><head><title>${title}</title>${head}</head><body>${body}</body></html>`;

/** A site folder of `pages`, one task per page (id: the page's name), the hooks given. */
function siteFolder(pages: Record<string, string>, hooks: Record<string, string> = {}): { env: (timeouts?: { loadMs: number; callMs: number }, streak?: FailureStreak) => WebEnv; task: (id: string, seed?: number) => Task } {
  const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-bounds-'));
  folders.push(dir);
  for (const [name, html] of Object.entries(pages)) writeFileSync(path.join(dir, `${name}.html`), html);
  const json = {
    name: 'bounds',
    tasks: Object.keys(pages).map((name) => ({ id: name, page: `${name}.html` })),
    seeds: { train: [0, 50], test: [50, 52] },
    maxSteps: 3,
    hooks: { instruction: "'Press Go.'", reward: "document.title === 'B' ? 1 : 0", done: "document.title === 'B'", ...hooks },
  };
  writeFileSync(path.join(dir, 'site.json'), JSON.stringify(json));
  const site = parseSiteDefinition(json);
  const tasks = siteTasks(site, 'train', {}, 'web');
  return {
    env: (timeouts = { loadMs: 10_000, callMs: 5_000 }, streak) => new WebEnv('web', site, () => hostFor({ root: dir }, timeouts), undefined, streak),
    task: (id, seed = 0) => ({ ...(tasks.find((t) => t.id === `${id}:${seed}`) as Task) }),
  };
}

/** The resident memory of this process and every process under it (Chromium's included), in MB. */
function treeRssMb(): number {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,rss=']).toString().trim().split('\n').map((line) => line.trim().split(/\s+/).map(Number));
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const [pid = 0, ppid = 0, kb = 0] of rows) {
    rss.set(pid, kb);
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  let total = 0;
  const todo = [process.pid];
  while (todo.length > 0) {
    const pid = todo.pop() as number;
    total += rss.get(pid) ?? 0;
    todo.push(...(children.get(pid) ?? []));
  }
  return total / 1024;
}

/** The peak of treeRssMb while `work` runs (sampled every 100 ms), and how long it took. */
async function measured<T>(work: () => Promise<T>): Promise<{ value: T; peakMb: number; seconds: number }> {
  let peakMb = treeRssMb();
  const timer = setInterval(() => (peakMb = Math.max(peakMb, treeRssMb())), 100);
  const started = performance.now();
  try {
    const value = await work();
    return { value, peakMb: Math.max(peakMb, treeRssMb()), seconds: (performance.now() - started) / 1000 };
  } finally {
    clearInterval(timer);
  }
}

describe('a page too big to read whole', () => {
  it('20,000 buttons, a select of 20,000 options and a row of 20,000 cells are read within bounded time, memory, lines and actions', async () => {
    const build = `<label>Pick <select id="s"></select></label><table><tr id="r"></tr></table><script>
      const s = document.getElementById('s'); for (let i = 0; i < 20000; i++) s.add(new Option('Option number ' + i));
      const r = document.getElementById('r'); for (let i = 0; i < 20000; i++) r.insertCell().textContent = 'cell ' + i;
      for (let i = 0; i < 20000; i++) { const b = document.createElement('button'); b.textContent = 'Button number ' + i; document.body.appendChild(b); }
    </script>`;
    const site = siteFolder({ small: page('Small', '<button>Go</button>'), huge: page('Huge', build) });
    const web = site.env({ loadMs: 60_000, callMs: 60_000 });
    // The browser and a tab first: what is measured is the huge page alone.
    await web.reset(site.task('small'));
    const before = treeRssMb();
    const { value: first, peakMb, seconds } = await measured(() => web.reset(site.task('huge')));
    // Before the bounds: 19,999 actions (one per option) and a 249 KB observation (the row's line alone 170 KB).
    expect(first.actions.length).toBeLessThanOrEqual(250);
    expect(first.text.length).toBeLessThan(20_000);
    expect(first.text).toMatch(/^cut: \d+ more elements not shown$/m);
    expect(first.text).toMatch(/combobox: #\d+ Pick \| value: Option number 0 \| 19950 more options not listed/);
    const row = shownElements(first.text).find((e) => e.role === 'row');
    expect(row?.name.length).toBeLessThan(1_000);
    // The page builds 60,000 elements under a shared 2-core machine: seconds, not minutes; and
    // Chromium and Node together grow by far less than the 8 GB the issue saw.
    expect(seconds).toBeLessThan(60);
    expect(peakMb - before).toBeLessThan(1_500);
    await web.close();
  }, 120_000);

  it('a page that allocates in a loop is named out of memory, its episode ends, and the env goes on', async () => {
    const site = siteFolder({
      grow: page('Grow', '<button onclick="const kept = []; for (;;) kept.push(new Array(1e6).fill(Math.random()))">Grow</button>'),
      small: page('Small', '<button>Go</button>'),
    });
    // A call watchdog longer than the crash takes: the page's own end is what is told.
    const web = site.env({ loadMs: 10_000, callMs: 60_000 });
    const first = await web.reset(site.task('grow'));
    const before = treeRssMb();
    const { value: ended, peakMb, seconds } = await measured(() => web.step(first.actions[0] as string));
    expect(ended.done).toBe(true);
    // Before: "the page did not answer in 60 s", after the page grew past 4 GB.
    expect(String(ended.info.error)).toBe(`the page ran out of memory (limit ${PAGE_HEAP_MB} MB of JavaScript heap per page) and its renderer crashed`);
    expect(seconds).toBeLessThan(45);
    expect(peakMb - before).toBeLessThan(PAGE_HEAP_MB + 1_000);
    expect((await web.reset(site.task('small'))).text).toContain('button: #1 Go');
    await web.close();
  }, 120_000);
});

describe('a redirect within the site', () => {
  const redirects = siteFolder({
    onload: page('L', '<p>leaving</p><script>window.onload = () => { location.href = "b.html"; };</script>'),
    inline: page('A', '<p>leaving</p>', '<script>location.href = "b.html";</script>'),
    later: page('T', '<button>Stay</button><script>if (!sessionStorage.left) { sessionStorage.left = "1"; setTimeout(() => { location.href = "b.html"; }, 3000); }</script>'),
    loop: page('P', '<p>x</p><script>window.onload = () => { location.href = "loop.html?" + Math.random(); };</script>'),
    b: page('B', '<button>Go</button>'),
  });

  it('at load is followed to the page it leads to, on a tab that showed it before too', async () => {
    const web = redirects.env();
    // Before: the second reset, on the tab the first left on b.html, failed the run ("l.html could not be loaded: net::ERR_ABORTED").
    for (const id of ['onload', 'onload', 'inline', 'inline', 'onload']) {
      const first = await web.reset(redirects.task(id));
      expect(first.text, id).toContain('url: /b.html');
      expect(first.text, id).toContain('button: #1 Go');
    }
    await web.close();
  }, 60_000);

  it('by a timer after the page was read is a navigation of the episode: it says so and offers go back', async () => {
    const web = redirects.env();
    const first = await web.reset(redirects.task('later'));
    expect(first.text).toContain('url: /later.html');
    // The page goes on 3 s after it loads: after the first reading even beside the whole suite (at
    // 0.2 s it had sometimes gone before it was read), and well before the step 6 s on.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    // The button was later.html's: on b.html it is not there, and the step says where the page went.
    const moved = await web.step(first.actions[0] as string);
    expect(moved.observation.text).toContain('url: /b.html');
    expect(moved.info.explanation).toMatch(/The page had gone on to \/b\.html by itself/);
    expect(moved.observation.actions).toContain('go back');
    const back = await web.step('go back');
    expect(back.observation.text).toContain('url: /later.html');
    await web.close();
  }, 60_000);

  it('that never stays (a redirect loop) is played or ends the episode, never the run', async () => {
    const web = redirects.env();
    const random = new WebRandom(new Rng(1));
    for (let i = 0; i < 2; i++) {
      const record = await runEpisode(web, random, redirects.task('loop', i));
      expect(record.steps.length).toBeGreaterThan(0);
    }
    // A tab left on the loop would go on loading pages, and spending the CPU, until the file ends.
    await web.close();
    // 3 s alone; under a loaded CI a reading may follow the loop MAX_FOLLOWED times, each waiting up
    // to the 10 s load watchdog for a page that stays (60 s a reading at worst), which 60 s ran out on once.
  }, 180_000);
});

describe("a page's values, bounded", () => {
  const NUL = String.fromCharCode(0);
  const hostile = siteFolder(
    {
      long: page('Long', '<button>Go</button>'),
      huge: page('Huge', '<button>Go</button>'),
      thrower: page('Thrower', '<button>Go</button>'),
      forged: page('Forged', '<button>Go</button><script>window.__dreamgym.observe = () => ({ title: "t\\n".repeat(1e5), path: "/x", cut: -5, elements: [{ id: 1, role: "Bad Role", name: "a\\nb[c]".repeat(2e4), context: "row\\n".repeat(1e5), states: ["checked", "x".repeat(1e4)], options: Array.from({ length: 5000 }, (_, i) => "o" + i) }, ...Array.from({ length: 5000 }, () => ({ role: "text", name: "z" }))] }); window.__dreamgym.takeErrors = () => Array.from({ length: 5000 }, () => "e".repeat(100));</script>'),
    },
    {
      instruction: `document.title === 'Long' ? 'x${NUL}'.repeat(1e6) : 'Press Go.'`,
      reward: `document.title === 'Huge' ? 1e300 : document.title === 'Thrower' ? (() => { throw new Error('bad${NUL}'.repeat(2e5)); })() : 0`,
    },
  );

  it('an instruction of 2,000,000 characters is refused, quoted in 100 characters without control characters', async () => {
    const error = await hostile.env().reset(hostile.task('long')).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toMatch(/the instruction hook gave a text of 2,000,000 characters \("x x x .*…"\), over the 1,000 an instruction may have/);
    expect(message.length).toBeLessThan(400);
    expect(message).not.toContain(NUL);
  });

  it('a reward of 1e300 is refused by name, and a thrown message of 800 KB is quoted short', async () => {
    expect(String(await hostile.env().reset(hostile.task('huge')).catch((e: unknown) => e))).toMatch(/the reward hook gave 1e\+300, beyond the ±1,000,000 a reward may be/);
    const thrown = String(await hostile.env().reset(hostile.task('thrower')).catch((e: unknown) => e));
    expect(thrown).toMatch(/the reward hook threw: "bad bad .*…"$/);
    expect(thrown.length).toBeLessThan(300);
    expect(thrown).not.toContain(NUL);
  });

  it('a page that forges the driver\'s reading gets an observation held to the cap, one line a value', async () => {
    const web = hostile.env();
    const first = await web.reset(hostile.task('forged'));
    // Before: the run stopped (element kind "Bad Role" is not a lowercase word) after a 4 MB reading.
    expect(first.text.length).toBeLessThan(20_000);
    expect(shownElements(first.text).length).toBeLessThanOrEqual(150);
    expect(first.text).toMatch(/^cut: \d+ more elements not shown$/m);
    expect(first.text).toMatch(/^\[1\] text: #1 a b\(c\)/m);
    // A forged item text (row-context.ts) is one field of the line, cut as a name is.
    const forged = shownElements(first.text)[0];
    expect(forged?.context).toMatch(/^row row /);
    expect(forged?.context?.length).toBeLessThanOrEqual(600);
    expect(first.actions.length).toBeLessThanOrEqual(1);
    const stepped = await web.step('wait');
    expect(stepped.info.pageErrors as string[]).toHaveLength(11);
    expect((stepped.info.pageErrors as string[]).at(-1)).toBe('and 4990 more');
    expect(JSON.stringify(stepped.info).length).toBeLessThan(5_000);
    await web.close();
  }, 30_000);
});

describe('a site whose every episode fails', () => {
  // The page takes its driver away: every reading fails at once (an env failure, not the site's named mistake).
  const broken = siteFolder({ gone: page('Gone', '<button>Go</button><script>delete window.__dreamgym;</script>'), b: page('B', '<button>Go</button>') });

  it(`stops the run after ${MIN_FAILED_IN_A_ROW} + one per env episodes in a row, naming the site, the task and the first failure`, async () => {
    const streak = new FailureStreak('bounds');
    const web = broken.env(undefined, streak);
    const random = new WebRandom(new Rng(1));
    let played = 0;
    const stopped = await (async () => {
      for (; played < 30; played++) await runEpisode(web, random, broken.task('gone', played));
      return null;
    })().catch((e: unknown) => e);
    expect(stopped).toBeInstanceOf(SiteFailingError);
    // One env: the ninth failure in a row stops it.
    expect(played).toBe(MIN_FAILED_IN_A_ROW);
    expect((stopped as Error).message).toMatch(/^site "bounds": the last 9 episodes all ended by env failures .* so the run stops rather than train on nothing; the first: task gone:0: the page could not be read: the page driver is not in the page/);
  }, 60_000);

  it('an episode that works ends the streak', async () => {
    const streak = new FailureStreak('bounds');
    const web = broken.env(undefined, streak);
    const random = new WebRandom(new Rng(1));
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < MIN_FAILED_IN_A_ROW; i++) expect((await runEpisode(web, random, broken.task('gone', i))).steps.at(-1)?.result.info.error).toBeDefined();
      await runEpisode(web, random, broken.task('b'));
    }
  }, 120_000);
});
