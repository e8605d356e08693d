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
    // A list whose listener handles its items' clicks: the items are buttons; an empty one offers nothing.
    expect(shown).toEqual(expect.arrayContaining(['button #: Apple pie', 'button #: Banana bread']));
    // A table whose listener handles its rows: each row is one, not the table's body as a whole.
    expect(shown).toEqual(expect.arrayContaining(['row #: Invoice 7 Open', 'row #: Invoice 8 Paid']));
    expect(shown.filter((l) => l.endsWith('#: '))).toEqual(['textbox #: ']); // the contenteditable only
    // A span drawn as a box of its own (inline-block) reads as a button, one in a line of text as a link.
    expect(shown).toContain('button #: Save list');
    // contenteditable and a date field are text boxes.
    expect(line(first.text, '')).toMatchObject({ role: 'textbox', value: 'draft text' });
    expect(line(first.text, 'Due date')).toMatchObject({ role: 'textbox', value: '' });
    expect(first.actions).toEqual(expect.arrayContaining([expect.stringMatching(/^click\[#\d+ Ann Lee\]$/), expect.stringMatching(/^type\[#\d+ Due date \| \.\.\.\]$/)]));

    // A click reaches the span's own listener, as a person's would.
    const ann = line(first.text, 'Ann Lee')?.id;
    const clicked = await web.step(`click[#${ann}]`);
    expect(clicked.info.valid).toBe(true);
    expect(lines(clicked.observation.text)).toContain('text: clicked ann');
    const item = await web.step(`click[#${line(first.text, 'Banana bread')?.id}]`);
    expect(lines(item.observation.text)).toContain('text: clicked Banana bread');
    await web.close();
  });

  it('acts on a listbox, a combobox and a date grid made of divs with ARIA roles', async () => {
    const web = env();
    const first = await web.reset(task('widgets'));
    expect(lines(first.text).slice(0, 4)).toEqual(['listbox: Fruit', 'option #: Apple', 'option #: Pear', 'combobox #: City']);
    // A day that cannot be chosen is shown as one, greyed out, with nothing to do on it.
    expect(line(first.text, '13')).toMatchObject({ role: 'gridcell', states: ['disabled'] });
    expect(line(first.text, '13')?.id).toBeUndefined();
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
    const typed = await web.step(`type[#${line(shadow.text, 'Code')?.id} | 1234]`);
    expect(line(typed.observation.text, 'Code')?.states).toContain('focused'); // focus inside a closed shadow root
    expect(await web.step(`click[#${line(shadow.text, 'Unlock')?.id}]`)).toMatchObject({ reward: 1, done: true });

    const frame = await web.reset(task('frame'));
    expect(lines(frame.text)).toEqual(['heading: Outer page', 'textbox #: Email', 'link #: Send']);
    const email = await web.step(`type[#${line(frame.text, 'Email')?.id} | a@b.co]`);
    expect(line(email.observation.text, 'Email')?.value).toBe('a@b.co');
    expect(await web.step(`click[#${line(frame.text, 'Send')?.id}]`)).toMatchObject({ reward: 1, done: true });

    // A form that navigates its frame: the state after the click is the frame's next page.
    const portal = await web.reset(task('frame-nav'));
    await web.step(`type[#${line(portal.text, 'Name')?.id} | Ada]`);
    const signedIn = await web.step(`click[#${line(portal.text, 'Sign in')?.id}]`);
    expect(lines(signedIn.observation.text)).toEqual(['heading: Portal', 'text: Welcome, Ada', 'button #: Continue']);
    expect(await web.step(`click[#${line(signedIn.observation.text, 'Continue')?.id}]`)).toMatchObject({ reward: 1, done: true });
    await web.close();
  });

  it('tells repeated controls apart by the item they sit in (a row, a card, a to-do, a stepper in a closed shadow root)', async () => {
    const web = env();
    const first = await web.reset(task('rows'));
    const controls = shownElements(first.text).filter((e) => e.id !== undefined);
    const contexts = (name: string): (string | undefined)[] => controls.filter((e) => e.name === name).map((e) => e.context);
    expect(contexts('Edit')).toEqual(['Ann Lee / Admin', 'Bo Chen / Viewer']);
    expect(contexts('Add to cart')).toEqual(['Glass teapot $28.00', 'Cast iron teapot $45.00']);
    // The to-dos hold no text of their own but their checkboxes' labels, which are not repeated.
    expect(contexts('Remove')).toEqual(['Buy milk', 'Call Rita']);
    expect(contexts('Less')).toEqual(['Mangoes 1', 'Pears 1']);
    expect(contexts('More')).toEqual(['Mangoes 1', 'Pears 1']);
    // A control that is the only one of its name stays as it was, and so do the actions.
    expect(contexts('Checkout')).toEqual([undefined]);
    expect(contexts('Buy milk')).toEqual([undefined]);
    const bo = controls.filter((e) => e.name === 'Edit')[1];
    expect(first.text).toContain(`button: #${bo?.id} Edit | in: Bo Chen / Viewer`);
    expect(first.actions).toContain(`click[#${bo?.id} Edit]`);
    expect((await web.step(`click[#${bo?.id} Edit]`)).info.valid).toBe(true);
    await web.close();
  });

  it('goes back through the routes a single-page app pushed, as its Back button would', async () => {
    const web = env();
    const home = await web.reset(task('routes'));
    expect(home.actions).not.toContain('go back');
    const orders = await web.step(`click[#${line(home.text, 'Orders')?.id}]`);
    expect(orders.observation.text).toMatch(/^url: \/orders$/m);
    expect(lines(orders.observation.text)).toContain('text: Order list');
    expect(orders.observation.actions).toContain('go back');
    const back = await web.step('go back');
    expect(back.info.valid).toBe(true);
    expect(back.observation.text).toMatch(/^url: \/routes\.html$/m);
    expect(lines(back.observation.text)).toContain('text: Home');
    expect(back.observation.actions).not.toContain('go back');
    await web.close();
  });
});

describe('a page with nothing to act on', () => {
  it('admits wait, which lets a timer and a fetch bring the content', async () => {
    const web = env();
    // The content comes 1.5 s after the page loads, then a fetch: after the first reading even on a
    // machine the rest of the suite keeps busy (at 0.4 s it was once there already), and within the
    // two waits (each up to 1 s, or until the page changes) before a third would end the episode.
    // At 2 s the fetch once came after both waits under the whole suite's load.
    const first = await web.reset(task('later'));
    expect(first.actions).toEqual(['wait']);
    let waited = await web.step('wait');
    expect(waited).toMatchObject({ reward: 0, done: false, info: { valid: true } });
    if (waited.observation.actions.includes('wait')) waited = await web.step('wait');
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
