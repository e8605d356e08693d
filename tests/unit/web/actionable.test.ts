/**
 * What a person can act on, as the driver reads it on pages written the way much of the web is
 * (tests/unit/fixtures/web-actionable): click handlers on spans and divs, a pointer cursor, a
 * tabindex, contenteditable, ARIA widgets made of divs, open and closed shadow roots with slots, a
 * form in a same-origin iframe, content that arrives after a timer and a fetch, and a page that
 * never offers anything (the `wait` action, then the episode ends as stalled).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Task } from '../../../src/core/types.ts';
import { rollout } from '../../../src/envs/episode.ts';
import { registered } from '../../../src/envs/registry.ts';
import { MAX_IDLE_WAITS, WebEnv } from '../../../src/envs/web/env.ts';
import { closePageHosts, hostFor } from '../../../src/envs/web/hosts.ts';
import { loadSiteFolder } from '../../../src/envs/web/node/site-folder.ts';
import { parseSiteDefinition, siteTasks } from '../../../src/envs/web/site.ts';
import { shownElements, type ShownElement } from '../../../src/envs/web/snapshot.ts';

const ROOT = fileURLToPath(new URL('../fixtures/web-actionable/', import.meta.url));
const site = parseSiteDefinition(JSON.parse(readFileSync(path.join(ROOT, 'site.json'), 'utf8')));
const tasks = siteTasks(site, 'train', {}, 'web');
const task = (id: string): Task => ({ ...(tasks.find((t) => t.id === `${id}:0`) as Task) });
const env = (): WebEnv => new WebEnv('web', site, () => hostFor({ root: ROOT }));
const line = (text: string, name: string): ShownElement | undefined => shownElements(text).find((e) => e.name === name);
const lines = (text: string) => shownElements(text).map((e) => `${e.role}${e.id === undefined ? '' : ' #'}: ${e.name}`);

afterAll(() => closePageHosts());

describe('elements a person clicks though ARIA calls nothing there a control', () => {
  it('finds listeners, onclick, tabindex and the pointer cursor, reduces nested clickables, and leaves regions and delegation alone', async () => {
    const web = env();
    const first = await web.reset(task('handlers'));
    const shown = lines(first.text);
    // Spans with listeners inside a paragraph: links (shown inline), out of the paragraph's text.
    expect(shown).toContain('link #: Ann Lee');
    expect(shown).toContain('text: Contacts: and');
    // A card whose pointer cursor starts at the card: one button named by all its text, not its parts.
    expect(shown).toContain('button #: Quarterly report due Friday');
    expect(shown).not.toContain('text: Quarterly report');
    // A panel with a listener that holds a button: the button is what a person means.
    expect(shown).toContain('button #: Archive');
    expect(shown).toContain('text: Panel text');
    expect(shown.filter((l) => l.includes('Panel text'))).toHaveLength(1);
    expect(shown).toContain('button #: Legacy link'); // an onclick attribute
    expect(shown).toContain('button #: Focusable tile'); // tabindex="0"
    expect(shown).toContain('link #: Open settings'); // a pointer-cursor span, listener or not
    expect(shown).toContain('row #: Invoice 42 Paid'); // a clickable table row keeps its role
    // A region with a listener that holds seven paragraphs is text to read, not one control.
    for (const word of ['One', 'Seven']) expect(shown).toContain(`text: ${word}`);
    // A listener taken off again, and one on the body (delegation), make nothing clickable.
    expect(shown).toContain('text: Plain words');
    // contenteditable and a date field are text boxes.
    expect(line(first.text, '')).toMatchObject({ role: 'textbox', value: 'draft text' });
    expect(line(first.text, 'Due date')).toMatchObject({ role: 'textbox', value: '' });
    expect(first.actions).toEqual(expect.arrayContaining([expect.stringMatching(/^click\[#\d+ Ann Lee\]$/), expect.stringMatching(/^type\[#\d+ Due date \| \.\.\.\]$/)]));

    // A click reaches the span's own listener, as a person's would.
    const ann = line(first.text, 'Ann Lee')?.id;
    const clicked = await web.step(`click[#${ann}]`);
    expect(clicked.info.valid).toBe(true);
    expect(lines(clicked.observation.text)).toContain('text: clicked ann');
    await web.close();
  });

  it('acts on a listbox, a combobox and a date grid made of divs with ARIA roles', async () => {
    const web = env();
    const first = await web.reset(task('widgets'));
    expect(lines(first.text).slice(0, 4)).toEqual(['listbox: Fruit', 'option #: Apple', 'option #: Pear', 'combobox #: City']);
    const pear = await web.step(`click[#${line(first.text, 'Pear')?.id}]`);
    expect(line(pear.observation.text, 'Pear')?.states).toContain('selected');
    // The combobox is a field: typing opens its options, which are clickable.
    const city = line(first.text, 'City')?.id;
    const typed = await web.step(`type[#${city} | Li]`);
    expect(lines(typed.observation.text)).toEqual(expect.arrayContaining(['option #: Lisbon', 'option #: Lima']));
    const lima = await web.step(`click[#${line(typed.observation.text, 'Lima')?.id}]`);
    expect(lines(lima.observation.text)).toContain('text: city Lima');
    const day = await web.step(`click[#${line(first.text, '15')?.id}]`);
    expect(day).toMatchObject({ reward: 1, done: true, info: { won: true } });
    await web.close();
  });

  it('reads open and closed shadow roots in slot order, and a form in a same-origin iframe', async () => {
    const web = env();
    const shadow = await web.reset(task('shadow'));
    expect(lines(shadow.text)).toEqual(['heading: Slotted title', 'button #: Like', 'textbox #: Code', 'button #: Unlock']);
    await web.step(`type[#${line(shadow.text, 'Code')?.id} | 1234]`);
    expect(await web.step(`click[#${line(shadow.text, 'Unlock')?.id}]`)).toMatchObject({ reward: 1, done: true });

    const frame = await web.reset(task('frame'));
    expect(lines(frame.text)).toEqual(['heading: Outer page', 'textbox #: Email', 'link #: Send']);
    const typed = await web.step(`type[#${line(frame.text, 'Email')?.id} | a@b.co]`);
    expect(line(typed.observation.text, 'Email')?.value).toBe('a@b.co');
    expect(await web.step(`click[#${line(frame.text, 'Send')?.id}]`)).toMatchObject({ reward: 1, done: true });
    await web.close();
  });
});

describe('a page with nothing to act on', () => {
  it('admits wait, which lets a timer and a fetch bring the content', async () => {
    const web = env();
    const first = await web.reset(task('later'));
    expect(first.actions).toEqual(['wait']);
    const waited = await web.step('wait');
    expect(waited).toMatchObject({ reward: 0, done: false, info: { valid: true } });
    expect(lines(waited.observation.text)).toEqual(['text: Loaded', 'button #: Alpha', 'button #: Beta']);
    expect(waited.observation.actions).not.toContain('wait');
    expect(await web.step(`click[#${line(waited.observation.text, 'Beta')?.id}]`)).toMatchObject({ reward: 1, done: true });
    await web.close();
  });

  it(`ends the episode as stalled after ${MAX_IDLE_WAITS} waits on a page that never changes, and a rollout counts it apart`, async () => {
    const web = env();
    await web.reset(task('never'));
    for (let i = 1; i < MAX_IDLE_WAITS; i++) expect((await web.step('wait')).done).toBe(false);
    const last = await web.step('wait');
    expect(last).toMatchObject({ reward: 0, done: true, info: { won: false, stalled: true } });
    expect(last.info.explanation).toMatch(/nothing to act on after 3 waits/);
    await web.close();

    const { environment } = loadSiteFolder(ROOT, { tasks: ['never'] });
    const summary = await rollout({ spec: registered(environment), policy: 'random', split: 'train', episodes: 1, seed: 1 });
    expect(summary).toMatchObject({ episodes: 1, successRate: 0, stalled: 1 });
    expect(summary.envErrors).toBeUndefined();
  });
});
